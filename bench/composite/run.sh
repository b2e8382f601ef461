#!/usr/bin/env bash
# `composite` against the naive Python way (boxes cut with a brace matcher, each part checked by
# Math-Verify 0.8.0, every part required), on the same composed MATH-500 items, in one job.
#
#   bench/composite/run.sh [PASSES]
#
# Math-Verify comes from the virtual environment bench/math/run.sh uses ($MATH_BENCH_VENV,
# default ~/.cache/referee/math-verify-venv); the Rust side is built with --release into
# $CARGO_TARGET_DIR. Referee scores all items as one batch per pass, PASSES times (default 20);
# Python scores them once, one item at a time. Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${MATH_BENCH_VENV:-$HOME/.cache/referee/math-verify-venv}"
target="${CARGO_TARGET_DIR:-$root/target}"
passes="${1:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "math-verify[antlr4_13_2]==0.8.0"
(cd "$root" && cargo build -q --release --locked -p referee-composite --example bench_composite)

echo "machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
referee="$(cd "$root" && "$target/release/examples/bench_composite" \
    verifiers/math/tests/data/math500_test.jsonl "$passes" "$work/items.jsonl")"
naive="$("$venv/bin/python" "$root/bench/composite/naive.py" "$work/items.jsonl")"
python3 - "$referee" "$naive" <<'PY'
import json, sys
r, n = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("| scorer | items | agreement with the expected verdicts | items/s |")
print("|---|---:|---:|---:|")
print(f"| Python + Math-Verify 0.8.0 (one item at a time) | {n['items']} | {n['agreement']:.3f} | {n['items_per_second']:.1f} |")
print(f"| Referee `composite` over `math` (one batch, {r['threads']} threads) | {r['items']} | {r['agreement']:.3f} | {r['items_per_second']:.0f} |")
print()
print(f"Throughput ratio (Referee / Python): {r['items_per_second'] / n['items_per_second']:.0f}x")
print("raw:", json.dumps({"referee": r, "python": n}))
PY
