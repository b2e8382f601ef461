#!/usr/bin/env bash
# `process` (steps checked by `math`) against the naive Python way (the steps cut with a regular
# expression, each checked by Math-Verify 0.8.0), on the same generated multi-step solutions,
# in one job.
#
#   bench/process/run.sh [ITEMS] [PASSES]
#
# Math-Verify comes from the virtual environment bench/math/run.sh uses ($MATH_BENCH_VENV,
# default ~/.cache/referee/math-verify-venv); the Rust side is built with --release into
# $CARGO_TARGET_DIR. Referee scores all items as one batch per pass, PASSES times (default 5);
# Python scores them once, one item at a time, and compares its offsets and scores with
# Referee's. Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${MATH_BENCH_VENV:-$HOME/.cache/referee/math-verify-venv}"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
items="${1:-5000}"
passes="${2:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "math-verify[antlr4_13_2]==0.8.0"
(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q --release --locked -p referee-process --example bench_process)
echo "machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
referee="$("$target/release/examples/bench_process" "$items" "$passes" "$work/items.jsonl")"
naive="$("$venv/bin/python" "$root/bench/process/naive.py" "$work/items.jsonl")"
python3 - "$referee" "$naive" <<'PY'
import json, sys
r, n = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("| scorer | items | steps | same offsets / same score as the other | items/s |")
print("|---|---:|---:|---:|---:|")
print(f"| Python + Math-Verify 0.8.0 (one item at a time) | {n['items']} | {r['steps']} | {n['same_offsets']} / {n['same_score']} | {n['items_per_second']:,.1f} |")
print(f"| Referee `process` over `math` (one batch, {r['threads']} threads) | {r['items']} | {r['steps']} | {n['same_offsets']} / {n['same_score']} | {r['items_per_second']:,.0f} |")
print()
print(f"Throughput ratio (Referee / Python): {r['items_per_second'] / n['items_per_second']:.0f}x")
print("raw:", json.dumps({"referee": r, "python": n}))
PY
