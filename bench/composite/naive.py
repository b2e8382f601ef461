"""The naive Python way to score composite items: cut the boxes out of the response with a
brace matcher, check each against its part's reference with HuggingFace Math-Verify, and
require every part (VAR-MATH's rule). Reads the items `bench_composite` wrote.

    naive.py ITEMS.jsonl

Prints one JSON object like `bench_composite`'s: items per second and the agreement with the
expected verdicts.
"""

import json
import sys
import time

from math_verify import parse, verify


def boxes(text):
    """The contents of every \\boxed{...} / \\fbox{...} with balanced braces, in order."""
    found, at = [], 0
    while True:
        starts = [i for i in (text.find("\\boxed{", at), text.find("\\fbox{", at)) if i >= 0]
        if not starts:
            return found
        start = min(starts)
        i = text.index("{", start) + 1
        depth, begin = 1, i
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth:
            return found
        found.append(text[begin : i - 1])
        at = i


def score(item):
    parts = item["parts"]
    answers = boxes(item["response"])[-len(parts):]
    if len(answers) < len(parts):
        return False
    for answer, part in zip(answers, parts):
        try:
            if not verify(parse("$" + part["input"]["reference"] + "$"), parse("\\boxed{" + answer + "}")):
                return False
        except Exception:  # a crash on one part is a wrong verdict
            return False
    return True


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    score(rows[0]["input"])  # warm up the imports (sympy, antlr) outside the timing
    started = time.perf_counter()
    verdicts = [score(row["input"]) for row in rows]
    seconds = time.perf_counter() - started
    agree = sum(v == row["expected"] for v, row in zip(verdicts, rows))
    print(json.dumps({
        "runner": "python + math-verify", "items": len(rows), "agreement": agree / len(rows),
        "seconds_per_pass": seconds, "items_per_second": len(rows) / seconds,
    }))


if __name__ == "__main__":
    main()
