#!/usr/bin/env bash
# Overload and slow-client runs against the release server with its default limits (issue:
# "hold under abuse and overload"): bench/overload.py drives both, over raw sockets.
#
#   overload   CONCURRENCY [1000] clients send batches of ITEMS [4096] `math` items back to back
#              for DURATION [30] s; every answer is classified (200, 429/503 with or without
#              Retry-After, broken connection), /healthz is probed every 20 ms, and the
#              server's peak RSS is read from /proc.
#   slowloris  SLOW [2000] connections trickle a request at one byte a second while small
#              scoring requests are timed on fresh connections.
#
# Settings: CONCURRENCY, ITEMS, DURATION, SLOW, SLOW_DURATION [40], CARGO_TARGET_DIR.
# Prints one JSON line per scenario; the server log is kept in bench/results/overload-*.log.
set -euo pipefail
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
concurrency="${CONCURRENCY:-1000}"
items="${ITEMS:-4096}"
duration="${DURATION:-30}"
slow="${SLOW:-2000}"
slow_duration="${SLOW_DURATION:-40}"
log() { echo "[overload] $*" >&2; }

(cd "$repo_dir" && cargo build --release --locked --workspace --bins)
referee="$CARGO_TARGET_DIR/release/referee"
mkdir -p "$bench_dir/results"
scratch=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"' EXIT

start_server() {
    local logfile="$1"
    ulimit -n "$(ulimit -Hn)"
    "$referee" serve --listen 127.0.0.1:0 --data-dir "$scratch/data-$2" >"$logfile" 2>&1 &
    server=$!
    port=""
    for _ in $(seq 1 200); do
        port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$logfile" | head -n 1)
        if [ -n "$port" ] && curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; then return; fi
        sleep 0.1
    done
    cat "$logfile" >&2
    exit 1
}

stop_server() {
    kill "$server"
    wait "$server" || true
    server=""
}

log "overload: $concurrency clients x $items items for $duration s ($(nproc) cores)"
start_server "$bench_dir/results/overload-overload.log" overload
python3 "$bench_dir/overload.py" overload --port "$port" --pid "$server" \
    --concurrency "$concurrency" --items "$items" --duration "$duration"
stop_server

log "slowloris: $slow trickling connections for $slow_duration s"
start_server "$bench_dir/results/overload-slowloris.log" slowloris
python3 "$bench_dir/overload.py" slowloris --port "$port" --pid "$server" --slow "$slow" --duration "$slow_duration"
stop_server
