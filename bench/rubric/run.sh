#!/usr/bin/env bash
# Rubric benchmark: rule-criteria throughput in Rust (rayon pool of 1 and of all cores) and in
# plain Python on the same cases with the same verdicts, then the judge client's overhead per
# call against a loopback judge that answers at once.
# Usage: bench/rubric/run.sh [ITEMS] [CALLS]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-python3}"
items="${1:-20000}"
calls="${2:-2000}"
cases="$(mktemp -d)/rubric_cases.jsonl"
cargo build --quiet --release -p referee-rubric --example rubric_bench
bench="${CARGO_TARGET_DIR:-target}/release/examples/rubric_bench"
echo "## Rust ($(rustc --version)), $(nproc) cores"
RAYON_NUM_THREADS=1 "$bench" rules "$cases" "$items"
"$bench" rules "$cases" "$items"
echo
echo "## Python ($("$PYTHON" --version 2>&1))"
"$PYTHON" bench/rubric/compare.py "$cases"
echo
echo "## Judge client overhead"
"$bench" judge "$calls"
