#!/usr/bin/env bash
# `code-tests` against running the same (solution × test) matrix with one `python3` process per
# run, on HumanEval's strong and weak suites against each problem's canonical solution and
# mutants (clients/python/tests/data/code_tests_humaneval.jsonl), in one job.
#
#   bench/code_tests/run.sh [PASSES]
#
# The Rust side is built with --release into $CARGO_TARGET_DIR and scores all items as one batch
# per pass, PASSES times (default 3), with the full matrix; python3 runs the matrix once, two
# processes at a time. Both sides must find the same detected counts. Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
passes="${1:-3}"
data="$root/clients/python/tests/data/code_tests_humaneval.jsonl"

(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q --release --locked -p referee-code --example bench_code_tests)
echo "machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
referee="$(cd "$root" && "$target/release/examples/bench_code_tests" "$data" "$passes")"
native="$(python3 "$root/bench/code_tests/native.py" "$data")"
python3 - "$referee" "$native" <<'PY'
import json, sys
r, n = json.loads(sys.argv[1]), json.loads(sys.argv[2])
same = r["detected"] == n["detected"]
print("| runner | items | runs | runs/s | detected counts equal |")
print("|---|---:|---:|---:|---|")
print(f"| one `python3` {n['python']} process per run (2 at a time) | {n['items']} | {n['runs']} | {n['runs_per_second']:,.0f} | {same} |")
print(f"| Referee `code-tests`, full matrix ({r['workers']} sandbox workers) | {r['items']} | {r['runs']} | {r['runs_per_second']:,.0f} | {same} |")
print()
print(f"Throughput ratio (Referee / python3): {r['runs_per_second'] / n['runs_per_second']:.1f}x")
print("raw:", json.dumps({"referee": {k: v for k, v in r.items() if k != 'detected'}, "python": {k: v for k, v in n.items() if k != 'detected'}}))
if not same:
    sys.exit("the detected counts differ")
PY
