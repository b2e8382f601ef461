"""LongRLVR's own reward code (clients/python/tests/peers/longrlvr.py) on the items
bench_grounding wrote, one item at a time as LongRLVR's reward manager calls it; checks that
every reward equals Referee's and prints one JSON object with items per second."""

import json
import sys
import time
from pathlib import Path

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "clients/python/tests/peers")
)
from longrlvr import custom_compute_score, whitespace_judge

rows = [
    json.loads(line)
    for line in Path(sys.argv[1]).read_text().splitlines()
    if line.strip()
]
start = time.perf_counter()
scores = [
    custom_compute_score(
        row["input"]["response"],
        row["input"]["answer"]["input"]["reference"],
        {"ref_chunks": row["input"]["gold_chunks"]},
        whitespace_judge,
    )["score"]
    for row in rows
]
seconds = time.perf_counter() - start
same = sum(
    abs(ours - row["score"]) < 1e-9 for ours, row in zip(scores, rows, strict=True)
)
print(
    json.dumps(
        {
            "runner": "LongRLVR (Python)",
            "items": len(rows),
            "same_reward_as_referee": same,
            "seconds": seconds,
            "items_per_second": len(rows) / seconds,
        }
    )
)
