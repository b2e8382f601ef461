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
#   slowbody   SLOW_BODIES [4] connections declare 64 MiB bodies on /v1/score and /get_reward
#              and send a byte a second (reconnecting when ended) while small /v1/score and
#              /get_reward requests count their statuses.
#   uploads    UPLOADS [128] connections trickle job uploads (reconnecting when ended) while
#              small /v1/score requests count their statuses.
#
# Settings: CONCURRENCY, ITEMS, DURATION, SLOW, SLOW_DURATION [40], SLOW_BODIES, UPLOADS,
# SCENARIOS ["overload slowloris slowbody uploads"], CARGO_TARGET_DIR.
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
slow_bodies="${SLOW_BODIES:-4}"
uploads="${UPLOADS:-128}"
scenarios="${SCENARIOS:-overload slowloris slowbody uploads}"
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

for scenario in $scenarios; do
    start_server "$bench_dir/results/overload-$scenario.log" "$scenario"
    case "$scenario" in
        overload)
            log "overload: $concurrency clients x $items items for $duration s ($(nproc) cores)"
            python3 "$bench_dir/overload.py" overload --port "$port" --pid "$server" \
                --concurrency "$concurrency" --items "$items" --duration "$duration" ;;
        slowloris)
            log "slowloris: $slow trickling connections for $slow_duration s"
            python3 "$bench_dir/overload.py" slowloris --port "$port" --pid "$server" --slow "$slow" \
                --duration "$slow_duration" ;;
        slowbody)
            log "slowbody: $slow_bodies connections declaring 64 MiB bodies for $slow_duration s"
            python3 "$bench_dir/overload.py" slowbody --port "$port" --pid "$server" --slow "$slow_bodies" \
                --duration "$slow_duration" ;;
        uploads)
            log "uploads: $uploads trickled job uploads for $slow_duration s"
            python3 "$bench_dir/overload.py" uploads --port "$port" --pid "$server" --uploads "$uploads" \
                --duration "$slow_duration" ;;
        *) log "unknown scenario $scenario"; exit 2 ;;
    esac
    stop_server
done
