#!/usr/bin/env python3
"""Times PyTorch + transformers scoring the batch that `rlpr_bench` wrote, as the RLPR trainer
does: a forward pass over right-padded micro-batches, the full logits, log_softmax, and a gather
at the scored positions.

    torch_bench.py MODEL_DIR SEQUENCES.json [REPEATS] [MICRO_BATCH]

Each sequence is fed up to its last scored token, as Referee's runner feeds it. `RLPR_DEVICE`
(`cpu` by default, or `cuda`, `cuda:N`) places the model. Prints one JSON line like rlpr_bench's.
"""

import json
import os
import sys
import time

import torch
from transformers import AutoModelForCausalLM


def score(model, batch, micro, device):
    out = []
    for start in range(0, len(batch), micro):
        chunk = batch[start : start + micro]
        inputs = [s["ids"][: s["positions"][-1]] for s in chunk]
        width = max(len(i) for i in inputs)
        ids = torch.zeros((len(chunk), width), dtype=torch.long)
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        for row, i in enumerate(inputs):
            ids[row, : len(i)] = torch.tensor(i)
            mask[row, : len(i)] = 1
        ids, mask = ids.to(device), mask.to(device)
        with torch.no_grad():
            logits = model(input_ids=ids, attention_mask=mask).logits.float()
            logp = torch.log_softmax(logits, dim=-1)
        for row, s in enumerate(chunk):
            positions = torch.tensor(s["positions"], device=device)
            targets = torch.tensor([s["ids"][p] for p in s["positions"]], device=device)
            out.append(logp[row, positions - 1].gather(-1, targets[:, None])[:, 0].cpu())
    return out


def main():
    model_dir, sequences = sys.argv[1], json.load(open(sys.argv[2]))
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    micro = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    device = torch.device(os.environ.get("RLPR_DEVICE", "cpu"))
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).to(device)
    model.eval()
    score(model, sequences, micro, device)
    started = time.perf_counter()
    for _ in range(repeats):
        score(model, sequences, micro, device)
    seconds = (time.perf_counter() - started) / repeats
    scored = sum(len(s["positions"]) for s in sequences)
    inputs = sum(s["positions"][-1] for s in sequences)
    print(json.dumps({
        "runner": "torch", "device": str(device), "torch": torch.__version__, "threads": torch.get_num_threads(), "micro_batch": micro,
        "sequences": len(sequences), "input_tokens": inputs, "scored_tokens": scored, "seconds": seconds,
        "scored_tokens_per_s": scored / seconds, "input_tokens_per_s": inputs / seconds,
    }))


if __name__ == "__main__":
    main()
