#!/usr/bin/env bash
# `grounding` against LongRLVR's own reward code (Python, one item at a time, as its reward
# manager calls it) on the same generated LongRLVR-style responses, in one job.
#
#   bench/grounding/run.sh [ITEMS] [PASSES]
#
# The Rust side is built with --release into $CARGO_TARGET_DIR and scores all items as one batch
# per pass, PASSES times (default 10); Python scores them once and checks every reward against
# Referee's. Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
items="${1:-20000}"
passes="${2:-10}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q --release --locked -p referee-grounding --example bench_grounding)
echo "machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
referee="$("$target/release/examples/bench_grounding" "$items" "$passes" "$work/items.jsonl")"
naive="$(python3 "$root/bench/grounding/naive.py" "$work/items.jsonl")"
python3 - "$referee" "$naive" <<'PY'
import json, sys
r, n = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("| scorer | items | same reward as the other | items/s |")
print("|---|---:|---:|---:|")
print(f"| LongRLVR's reward code, Python {sys.version.split()[0]} (one item at a time) | {n['items']} | {n['same_reward_as_referee']} | {n['items_per_second']:,.0f} |")
print(f"| Referee `grounding` over `exact-match` (one batch, {r['threads']} threads) | {r['items']} | {n['same_reward_as_referee']} | {r['items_per_second']:,.0f} |")
print()
print(f"Throughput ratio (Referee / Python): {r['items_per_second'] / n['items_per_second']:.1f}x")
print("raw:", json.dumps({"referee": r, "python": n}))
PY
