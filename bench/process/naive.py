"""The naive Python way to score `process` items checked by a verifier: cut the steps with a
regular expression, find each step's character offsets, check each step's intermediate result
against its reference with HuggingFace Math-Verify, and take the share of steps before the first
wrong one. Reads the items `bench_process` wrote, checks the offsets and scores against
Referee's, and prints one JSON object with items per second.

    naive.py ITEMS.jsonl
"""

import json
import re
import sys
import time

from math_verify import parse, verify

MARKER = re.compile(
    r"(?mi)^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?step[ \t]*[0-9]+(?:\*\*|__)?[ \t]*[:.)\-–—]?"
)


def steps(response):
    starts = [m.start() for m in MARKER.finditer(response)]
    spans = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(response)
        raw = response[start:end]
        lead = len(raw) - len(raw.lstrip())
        text = raw.strip()
        spans.append((start + lead, start + lead + len(text), text))
    return spans


def score(item):
    expected = item["check"]["expected"]
    scored = []
    for k, (start, end, text) in enumerate(steps(item["response"])):
        if k >= len(expected) or expected[k] is None:
            scored.append((start, end, None))
            continue
        try:
            ok = verify(parse("$" + expected[k]["reference"] + "$"), parse(text))
        except Exception:  # noqa: BLE001 (a crash on one step is a wrong step)
            ok = False
        scored.append((start, end, 1.0 if ok else 0.0))
    checked = [s for _, _, s in scored if s is not None]
    before = next((i for i, s in enumerate(checked) if s < 0.5), len(checked))
    return before / len(checked), scored


def main():
    with open(sys.argv[1]) as items:
        rows = [json.loads(line) for line in items if line.strip()]
    score(rows[0]["input"])  # warm up the imports (sympy, antlr) outside the timing
    started = time.perf_counter()
    results = [score(row["input"]) for row in rows]
    seconds = time.perf_counter() - started
    same_offsets = sum(
        [[a, b] for a, b, _ in scored] == [[s[0], s[1]] for s in row["steps"]]
        for (_, scored), row in zip(results, rows)
    )
    same_score = sum(
        abs(value - row["score"]) < 1e-9 for (value, _), row in zip(results, rows)
    )
    print(
        json.dumps(
            {
                "runner": "python + math-verify",
                "items": len(rows),
                "same_offsets": same_offsets,
                "same_score": same_score,
                "seconds_per_pass": seconds,
                "items_per_second": len(rows) / seconds,
            }
        )
    )


if __name__ == "__main__":
    main()
