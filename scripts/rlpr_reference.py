#!/usr/bin/env python3
"""An independent reference for Referee's RLPR local model: PyTorch and transformers on CPU.

    rlpr_reference.py CASES.json > RESULTS.json

CASES.json is a list of {"model": DIR, "messages": [...], "response": str, "reference": str,
"format_mode": "r1" | "r1_nothink"}. For each case this script, on its own and without any of
Referee's code:

- renders the prompt with the model's chat template (`apply_chat_template`, generation prompt);
- builds the substituted text (the response with its answer replaced by the reference, as the
  RLPR reference implementation's `replace_answer_with_gt_batch` does) and the no-reasoning
  baseline text (`get_scoreA`), each appended to the prompt;
- tokenises each whole text with offsets (no special tokens added) and marks the tokens whose
  characters overlap the reference (found with `rfind` before the closing tags);
- runs the model over the text, takes `log_softmax` over the full logits and gathers each
  scored token's log-prob;
- computes every score kind (mean_prob, mean_logprob, geo_mean, product) with and without
  reasoning, and the reward with the default options (bf16-rounded scoreB, debiased against
  scoreA, 0.9·delta + 0.1·format, −1 for a repeated 10-word window).

A case may set "temperature" (default 1). It prints {"versions": {...}, "results": [...]}: the
versions of Python, PyTorch, transformers, tokenizers and numpy, and per case the prompt, the
texts, ids, scored positions, log-probs, scores and reward. reward-models/rlpr/tests/reference.rs
records that output (tests/data/reference.json) and checks it again in the full test tier.
"""

import json
import platform
import re
import sys
from collections import Counter

import numpy
import tokenizers
import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

WS = " \n\t\r"


def replace_answer_with_gt(response, gt, eos, mode):
    """The response with its answer replaced by `gt` (`replace_answer_with_gt_batch`), or None
    when the response lacks the structure."""
    if mode == "r1":
        if response.count("<answer>") != 1 or response.count("<think>") != 1 or response.count("</think>") != 1:
            return None
        if not re.fullmatch(r"^.*<think>.*</think>.*<answer>.*$", response, flags=re.DOTALL):
            return None
    else:
        if response.count("<answer>") != 1:
            return None
    head, generated = response.rsplit("<answer>", 1)
    if eos and generated.endswith(eos):
        generated = generated[: -len(eos)]
    if not generated.split("</answer>")[0].strip(WS + "\x0b\x0c"):
        return None
    stripped = generated.lstrip(WS)
    lead = generated[: len(generated) - len(stripped)] or " "
    if mode == "r1":
        before, middle = head.rsplit("</think>", 1)
        head = before + "</think>" + middle
    return head + "<answer>" + lead + gt + " " + "</answer>" + eos


def format_reward(response, mode):
    if mode == "r1":
        tags = ["<think>", "</think>", "<answer>", "</answer>"]
        pattern = r"<think>.*</think>.*<answer>.*</answer>.*"
    else:
        tags = ["<answer>", "</answer>"]
        pattern = r".*<answer>.*</answer>.*"
    if any(response.count(t) != 1 for t in tags):
        return 0.0
    return 1.0 if re.fullmatch(pattern, response, flags=re.DOTALL) else 0.0


def repetition(text, window=10, limit=10):
    words = [w for w in re.split(r"[\s_]+", text) if w]
    counts = Counter(tuple(words[i : i + window]) for i in range(len(words) - window + 1))
    return any(c >= limit for c in counts.values())


def scores(logprobs):
    lp = torch.tensor(logprobs, dtype=torch.float64)
    if len(logprobs) == 0:
        return {"mean_prob": 0.0, "mean_logprob": 0.0, "geo_mean": 0.0, "product": 0.0}
    return {
        "mean_prob": lp.exp().mean().item(),
        "mean_logprob": lp.mean().item(),
        "geo_mean": lp.mean().exp().item(),
        "product": lp.sum().exp().item(),
    }


def score_text(model, tokenizer, text, gt, tail, temperature=1.0):
    """Tokenises `text`, masks the tokens overlapping the last `gt` before `tail`, and gathers
    their log-probs from the full logits divided by the temperature (RLPR's
    `compute_log_prob_pr` divides the logits by the rollout temperature before the
    log-softmax)."""
    assert text.endswith(tail)
    start = text[: len(text) - len(tail)].rfind(gt)
    end = start + len(gt)
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    ids = enc["input_ids"]
    positions = [i for i, (s, e) in enumerate(enc["offset_mapping"]) if i >= 1 and s < end and e > start]
    logprobs = []
    if positions:
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0].float()
        logp = torch.log_softmax(logits / temperature, dim=-1)
        logprobs = [logp[p - 1, ids[p]].item() for p in positions]
    return {"text": text, "ids": ids, "positions": positions, "logprobs": logprobs}


def main():
    cases = json.load(open(sys.argv[1]))
    torch.manual_seed(0)
    loaded = {}
    results = []
    for case in cases:
        if case["model"] not in loaded:
            tokenizer = AutoTokenizer.from_pretrained(case["model"])
            model = AutoModelForCausalLM.from_pretrained(case["model"], dtype=torch.float32)
            model.eval()
            loaded[case["model"]] = (tokenizer, model)
        tokenizer, model = loaded[case["model"]]
        eos = tokenizer.eos_token
        gt, mode, response = case["reference"], case["format_mode"], case["response"]
        prompt = tokenizer.apply_chat_template(case["messages"], tokenize=False, add_generation_prompt=True)
        new_response = replace_answer_with_gt(response, gt, eos, mode)
        temperature = case.get("temperature", 1.0)
        with_reasoning = None
        if new_response is not None:
            with_reasoning = score_text(model, tokenizer, prompt + new_response, gt, " </answer>" + eos, temperature)
        baseline = score_text(model, tokenizer, prompt + " " + gt + " " + eos, gt, " " + eos, temperature)
        score_b = scores(with_reasoning["logprobs"] if with_reasoning else [])
        score_a = scores(baseline["logprobs"])
        b = torch.tensor(score_b["mean_prob"], dtype=torch.float32).to(torch.bfloat16).float().item()
        delta = max(0.0, b - score_a["mean_prob"])
        reward = 0.9 * delta + 0.1 * format_reward(response, mode)
        if repetition(response):
            reward -= 1.0
        results.append({
            "prompt": prompt,
            "with_reasoning": with_reasoning,
            "baseline": baseline,
            "score_b": score_b,
            "score_a": score_a,
            "reward": reward,
        })
    versions = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "tokenizers": tokenizers.__version__,
        "numpy": numpy.__version__,
    }
    json.dump({"versions": versions, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
