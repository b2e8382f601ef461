#!/usr/bin/env bash
# Replicas on one PostgreSQL database (127.0.0.1:5432, user postgres, trust auth): the same
# mixed job on 1, 2 and 3 replicas, then on 2 with one killed (SIGKILL) at a quarter of the job
# while a third joins. Each run uses a fresh database, dropped afterwards; replicas listen on
# loopback only. Settings: ITEMS [100000], CODE [10000] (Python programs among them),
# CHUNK_SIZE [250], LEASE_MS [5000], CARGO_TARGET_DIR. Prints one JSON line per run.
set -euo pipefail
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
(cd "$repo_dir" && cargo build --release --locked --workspace --bins)
python3 "$bench_dir/replicas.py" --binary "$CARGO_TARGET_DIR/release/referee" \
    --items "${ITEMS:-100000}" --code "${CODE:-10000}" --chunk-size "${CHUNK_SIZE:-250}" --lease-ms "${LEASE_MS:-5000}"
