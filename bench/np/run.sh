#!/usr/bin/env bash
# NP environments benchmark: Rust (release) and the plain-Python / reasoning-gym comparison in one job.
# Usage: bench/np/run.sh [--quick]   (from the repository root)
# Python: PYTHON=/path/to/python with reasoning-gym==0.1.25 installed (optional; without it the
# reasoning-gym rows are skipped).
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-python3}"
cases="$(mktemp -d)/cases.jsonl"
echo "## Rust ($(rustc --version))"
cargo run --quiet --release -p referee-np --example bench -- "$@" --cases "$cases"
echo
echo "## Python ($("$PYTHON" --version 2>&1))"
"$PYTHON" bench/np/compare.py "$cases"
