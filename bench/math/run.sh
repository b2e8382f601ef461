#!/usr/bin/env bash
# Math-Verify 0.8.0 and Referee's math verifier on the same labelled file, in one job.
#
#   bench/math/run.sh [FILE]
#
# FILE defaults to the in-repo conformance cases. Math-Verify is installed into a virtual
# environment at $MATH_BENCH_VENV (default ~/.cache/referee/math-verify-venv); the Rust side
# is built with --release into $CARGO_TARGET_DIR (default target/). Both score every pair
# once, one pair at a time on one thread; Referee repeats the file $PASSES times (default 200)
# so that its run, like Math-Verify's, lasts long enough to average out a shared machine's load.
# PROFILE=dev builds the unoptimised example instead (same verdicts, slower; for accuracy
# only). The summary is printed as a Markdown table.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
file="${1:-$root/verifiers/math/tests/data/peer_cases.jsonl}"
venv="${MATH_BENCH_VENV:-$HOME/.cache/referee/math-verify-venv}"
passes="${PASSES:-200}"
profile="${PROFILE:-release}"
target="${CARGO_TARGET_DIR:-$root/target}"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q "math-verify[antlr4_13_2]==0.8.0"

(cd "$root" && cargo build -q --profile "$profile" -p referee-math --example bench_peer_cases)
out_dir="$([ "$profile" = dev ] && echo debug || echo "$profile")"

echo "machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
referee="$("$target/$out_dir/examples/bench_peer_cases" "$file" "$passes")"
mathverify="$("$venv/bin/python" "$root/bench/math/math_verify_bench.py" "$file")"

python3 - "$referee" "$mathverify" <<'PY'
import json, sys
r, m = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("| checker | accuracy | false accepts | pairs/s | worst pair |")
print("|---|---|---|---|---|")
print(f"| Math-Verify 0.8.0 | {m['accuracy']:.3f} | {m['false_accepts']} | {m['pairs_per_second']:.1f} "
      f"| {m['worst_pair_ms']:.0f} ms (row {m['worst_pair_row']}; {m['timeouts']} pair(s) killed at {m['timeout_s']:.0f} s) |")
print(f"| Referee math | {r['accuracy']:.3f} | {r['false_accepts']} | {r['pairs_per_second']:.0f} "
      f"| {r['worst_pair_median_ms']:.2f} ms median of {r['passes']} runs (row {r['worst_pair_median_row']}); "
      f"slowest single run {r['worst_single_run_ms']:.2f} ms |")
print()
print(f"Throughput ratio (Referee / Math-Verify): {r['pairs_per_second'] / m['pairs_per_second']:.0f}x")
print(f"Referee at per-row median times (less sensitive to a shared machine): "
      f"{r['pairs_per_second_from_medians']:.0f} pairs/s, "
      f"{r['pairs_per_second_from_medians'] / m['pairs_per_second']:.0f}x")
print()
print("raw:", json.dumps({"referee": r, "math_verify": m}))
PY
