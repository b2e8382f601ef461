"""What CPython's `compile` of a program costs inside the sandbox, against native interpreters.

The same loop (compile one source N times, five batches, keep the best batch's mean) runs as a
`code` item through `referee score` and under each native interpreter named on the command line.
The item reports its figure in the exception that ends it, so no expected output is needed.

    python3 bench/python_compile.py --referee target/release/referee \
        --runtimes-dir runtimes/build /usr/bin/python3.11 ~/.pyenv/versions/3.13.0/bin/python3
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HUMANEVAL = ROOT / "verifiers/code/tests/data/HumanEval.jsonl"
SMALL = "a, b = map(int, input().split())\nprint(a + b)\n"


def sources():
    for line in HUMANEVAL.read_text().splitlines():
        row = json.loads(line)
        if row["task_id"] == "HumanEval/129":
            yield "HumanEval/129", row["prompt"] + row["canonical_solution"], 100
    yield "two-line program", SMALL, 300


def timing_program(source, n):
    return (
        "import time\n"
        f"S = {source!r}\n"
        "best = 1e9\n"
        "for _ in range(5):\n"
        "    t = time.perf_counter()\n"
        f"    for _ in range({n}):\n"
        "        compile(S, '<program>', 'exec')\n"
        f"    best = min(best, (time.perf_counter() - t) / {n})\n"
        "raise RuntimeError('COMPILE_US %.1f' % (best * 1e6))\n"
    )


def in_sandbox(referee, runtimes_dir):
    items = [
        {
            "id": name,
            "verifier": "code",
            "input": {
                "language": "python",
                "program": timing_program(source, n),
                "tests": [{"stdin": "", "expected_stdout": ""}],
                "options": {"time_limit_ms": 60000, "fuel": 10**12},
            },
        }
        for name, source, n in sources()
    ]
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = Path(tmp, "in.jsonl"), Path(tmp, "out.jsonl")
        inp.write_text("".join(json.dumps(item) + "\n" for item in items))
        command = [referee, "score", str(inp), "-o", str(out)]
        if runtimes_dir:
            command += ["--runtimes-dir", runtimes_dir]
        # One item at a time, so the two loops do not share the cores.
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, "REFEREE__SANDBOX__WORKERS": "1"})
        figures = {}
        for line in out.read_text().splitlines():
            verdict = json.loads(line)
            found = re.search(r"COMPILE_US ([0-9.]+)", line)
            if not found:
                sys.exit(f"no figure in the verdict of {verdict['id']}: {line[:400]}")
            figures[verdict["id"]] = float(found.group(1))
        return figures


def native(python):
    figures = {}
    for name, source, n in sources():
        run = subprocess.run([python, "-c", timing_program(source, n)], capture_output=True, text=True)
        found = re.search(r"COMPILE_US ([0-9.]+)", run.stderr)
        if not found:
            sys.exit(f"{python} gave no figure for {name}: {run.stderr[-400:]}")
        figures[name] = float(found.group(1))
    version = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True, text=True)
    return version.stdout.strip(), figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--referee", required=True, help="the referee binary")
    parser.add_argument("--runtimes-dir", help="the sandbox runtimes (default: the binary's own)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable], help="native interpreters")
    args = parser.parse_args()
    names = [name for name, _, _ in sources()]
    print("| interpreter | " + " | ".join(f"{n} (µs)" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    guest = in_sandbox(args.referee, args.runtimes_dir)
    print("| the sandbox's CPython 3.14 | " + " | ".join(f"{guest[n]:.0f}" for n in names) + " |")
    for python in args.pythons:
        version, figures = native(python)
        cells = " | ".join(f"{figures[n]:.0f} ({guest[n] / figures[n]:.1f}×)" for n in names)
        print(f"| {python} (CPython {version}) | {cells} |")


if __name__ == "__main__":
    main()
