#!/usr/bin/env python3
"""Times `/v1/score` batches of RLPR items in model mode against a running server whose local
model scores them, end to end over HTTP, as a trainer's reward call sees it.

    http_batch.py URL [ITEMS] [REPEATS]

Each batch holds ITEMS rollouts (default 64), eight per prompt as a trainer's groups come, with a
reference answer per prompt and debiasing on (the default), so the first batch also scores one
no-reasoning baseline per prompt and later batches reuse them. Every batch has fresh responses.
Prints one JSON line: the first batch's seconds (baselines included) and the median of the
REPEATS later ones (default 5), with the status mix of every verdict.
"""

import json
import random
import statistics
import sys
import time
import urllib.request

WORDS = ("the sum of two numbers is then we check whether each term divides evenly so that the "
         "remainder equals zero and therefore answer must be prime factor because square root "
         "triangle angle degrees area length ratio probability 3 17 42 1024 x y").split()


def words(rng, count):
    return " ".join(rng.choice(WORDS) for _ in range(count))


def batch(rng, items, prompts):
    out = []
    for i in range(items):
        prompt, reference = prompts[i % len(prompts)]
        response = f"<think>{words(rng, 150)}</think> <answer>{words(rng, 3)}</answer>"
        out.append({"verifier": "rlpr", "input": {"prompt": prompt, "response": response, "reference": reference}})
    return out


def post(url, body):
    request = urllib.request.Request(f"{url}/v1/score", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as reply:
        answer = json.load(reply)
    return time.perf_counter() - started, answer


def main():
    url = sys.argv[1].rstrip("/")
    items = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    rng = random.Random(2506)
    prompts = [(f"<|im_start|>system\nReason in <think> tags, answer in <answer> tags.<|im_end|>\n"
                f"<|im_start|>user\nSolve: {words(rng, 20)}?<|im_end|>\n<|im_start|>assistant\n",
                words(rng, 10)) for _ in range(max(1, items // 8))]
    statuses = {}

    def timed():
        seconds, answer = post(url, {"items": batch(rng, items, prompts)})
        for result in answer["results"]:
            statuses[result["status"]] = statuses.get(result["status"], 0) + 1
        return seconds

    first = timed()
    later = [timed() for _ in range(repeats)]
    print(json.dumps({
        "runner": "referee-http", "items": items, "prompts": len(prompts), "first_batch_s": first,
        "median_batch_s": statistics.median(later), "batches_s": later, "statuses": statuses,
    }))


if __name__ == "__main__":
    main()
