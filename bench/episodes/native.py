"""SandboxFusion's model of a Python tool call: the cell written to a file and run by a fresh
`python3` process (SandboxFusion's `python` runner), for `bench/episodes/run.sh`.

    native.py CELLS EPISODES

Runs every cell of the JSON array in CELLS: first alone, three passes over the cells (the first
is a warm-up), for the median and 95th percentile of a call; then EPISODES times over, two calls
at a time. Uses the fastest `python3` on the machine (Debian's build when present). Prints one
JSON line with each cell's output, so the caller can check both sides computed the same.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def fastest_python() -> str:
    candidates = [
        p
        for p in ("/usr/bin/python3.11", "/usr/bin/python3", shutil.which("python3"))
        if p and os.path.exists(p)
    ]
    best, best_time = candidates[0], float("inf")
    for candidate in dict.fromkeys(candidates):
        began = time.perf_counter()
        for _ in range(5):
            subprocess.run([candidate, "-c", "pass"], check=True)
        elapsed = time.perf_counter() - began
        if elapsed < best_time:
            best, best_time = candidate, elapsed
    return best


def call(python: str, cell: str) -> str:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "cell.py"
        path.write_text(cell)
        done = subprocess.run(
            [python, str(path)],
            check=False,
            capture_output=True,
            text=True,
            timeout=30,
            cwd=scratch,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{cell!r}: {done.stderr}")
        return done.stdout


def main() -> None:
    cells = json.loads(Path(sys.argv[1]).read_text())
    episodes = int(sys.argv[2])
    python = fastest_python()
    version = subprocess.run(
        [python, "--version"], check=True, capture_output=True, text=True
    ).stdout.strip()
    outputs = [call(python, cell) for cell in cells]
    latencies = []
    for _ in range(2):
        for cell in cells:
            began = time.perf_counter()
            call(python, cell)
            latencies.append((time.perf_counter() - began) * 1e3)
    latencies.sort()
    began = time.perf_counter()
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda cell: call(python, cell), cells * episodes))
    seconds = time.perf_counter() - began
    steps = len(cells) * episodes
    print(
        json.dumps(
            {
                "python": f"{python} ({version})",
                "outputs": outputs,
                "latency_ms": {
                    "p50": statistics.median(latencies),
                    "p95": latencies[round((len(latencies) - 1) * 0.95)],
                },
                "throughput": {
                    "steps": steps,
                    "seconds": seconds,
                    "steps_per_second": steps / seconds,
                },
            }
        )
    )


if __name__ == "__main__":
    main()
