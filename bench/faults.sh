#!/usr/bin/env bash
# Faults during jobs (bench/faults.py): SIGKILL-and-restart cycles on SQLite (one node) and on
# PostgreSQL (two replicas), then PostgreSQL itself restarted under load; checks exactly one
# result and one scoring-log row per item. Restarting PostgreSQL needs pg_ctlcluster (root).
# Settings: ITEMS [100000], CODE [10000], KILLS [3], CHUNK_SIZE [250], LEASE_MS [5000],
# BACKEND [both], CARGO_TARGET_DIR. Prints one JSON line per run.
set -euo pipefail
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
(cd "$repo_dir" && cargo build --release --locked --workspace --bins)
python3 "$bench_dir/faults.py" --binary "$CARGO_TARGET_DIR/release/referee" \
    --items "${ITEMS:-100000}" --code "${CODE:-10000}" --kills "${KILLS:-3}" \
    --chunk-size "${CHUNK_SIZE:-250}" --lease-ms "${LEASE_MS:-5000}" --backend "${BACKEND:-both}"
