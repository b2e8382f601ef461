"""The same (solution × test) matrix as `bench_code_tests`, run natively: one `python3` process
per run (two at a time), as a trainer's own reward code runs generated tests. Prints one JSON
line: runs, seconds, runs per second and each item's detected count.

    python3 bench/code_tests/native.py DATA
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "tests")
)

from code_tests_native import extract_suite, run_program, split_suite


def main() -> None:
    problems = [
        json.loads(line)
        for line in Path(sys.argv[1]).read_text().splitlines()
        if line.strip()
    ]
    matrices = []
    for problem in problems:
        for suite in ("strong", "weak"):
            tests = split_suite(extract_suite(problem["suites"][suite]) or "")
            solutions = [problem["canonical"], *problem["mutants"]]
            matrices.append((solutions, tests))
    pairs = [
        (item, row, solution, setup, test)
        for item, (solutions, tests) in enumerate(matrices)
        for row, solution in enumerate(solutions)
        for setup, test, _ in tests
    ]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        passed = list(pool.map(lambda p: run_program(p[2], p[3], p[4])[0], pairs))
    seconds = time.perf_counter() - started
    failed_rows = {
        (item, row) for (item, row, *_), ok in zip(pairs, passed, strict=True) if not ok
    }
    detected = [
        sum((item, row) in failed_rows for row in range(1, len(solutions)))
        for item, (solutions, _) in enumerate(matrices)
    ]
    print(
        json.dumps(
            {
                "items": len(matrices),
                "runs": len(pairs),
                "seconds": seconds,
                "runs_per_second": len(pairs) / seconds,
                "python": sys.version.split()[0],
                "detected": detected,
            }
        )
    )


if __name__ == "__main__":
    main()
