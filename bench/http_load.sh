#!/usr/bin/env bash
# HTTP load benchmark of POST /v1/score with exact-match items: Referee against a FastAPI +
# uvicorn app doing the same work (bench/fastapi_exact_match.py).
#
# It builds the `referee` server and the `loadgen` load generator in release mode, creates the
# FastAPI virtual environment in bench/.venv, starts both servers on free loopback ports
# (Referee on a SQLite database in a temporary directory), runs every combination of
# connection count and batch size against each, stops both servers and prints a Markdown
# table with items/s, p50 and p99 latency, and the throughput ratio.
#
# Settings (environment variables, defaults in brackets):
#   DURATION_SECS [5]        measured seconds per run
#   WARMUP_SECS [1]          uncounted warm-up seconds per run
#   CONNECTIONS ["1 64 256"] connection counts
#   BATCH_SIZES ["1 256"]    items per request
#   LOADGEN_THREADS [1]      worker threads of the load generator
#   FASTAPI_WORKERS [2]      uvicorn worker processes
#   SERVERS ["referee fastapi"]  which servers to measure
#   CARGO_TARGET_DIR [$HOME/.cache/referee/target]
#
# The raw JSON lines, the table and both servers' logs of the last run are kept in
# bench/results/ (ignored by git).
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"

duration_secs="${DURATION_SECS:-5}"
warmup_secs="${WARMUP_SECS:-1}"
connections_list="${CONNECTIONS:-1 64 256}"
batch_sizes="${BATCH_SIZES:-1 256}"
loadgen_threads="${LOADGEN_THREADS:-1}"
fastapi_workers="${FASTAPI_WORKERS:-2}"
servers="${SERVERS:-referee fastapi}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"

for value in "$duration_secs" "$warmup_secs"; do
    if ! awk -v s="$value" 'BEGIN { exit !(s + 0 == s && s >= 0 && s <= 600) }'; then
        echo "durations must be numbers of seconds between 0 and 600, got '$value'" >&2
        exit 2
    fi
done

log() { echo "[http_load] $*" >&2; }

wants() { [[ " $servers " == *" $1 "* ]]; }

# --- build -------------------------------------------------------------------------------
packages=(-p referee-bench)
if wants referee; then packages+=(-p referee-server); fi
log "building ${packages[*]} (release) into $CARGO_TARGET_DIR"
(cd "$repo_dir" && cargo build --release "${packages[@]}")
loadgen="$CARGO_TARGET_DIR/release/loadgen"
referee="$CARGO_TARGET_DIR/release/referee"

# --- FastAPI virtual environment -----------------------------------------------------------
venv="$bench_dir/.venv"
python="$venv/bin/python"
if wants fastapi; then
    if [[ ! -x "$python" ]]; then
        log "creating $venv"
        python3 -m venv "$venv"
    fi
    if ! "$python" -m pip install --quiet --disable-pip-version-check \
        -r "$bench_dir/requirements.txt"; then
        log "pip install failed"
        exit 1
    fi
fi

# --- servers -------------------------------------------------------------------------------
work_dir="$(mktemp -d "${TMPDIR:-/tmp}/referee-http-load.XXXXXX")"
results_dir="$bench_dir/results"
mkdir -p "$results_dir"
rm -f "$results_dir"/*.log
results_jsonl="$results_dir/http_load.jsonl"
: >"$results_jsonl"

declare -A base_url server_pid restarts

cleanup() {
    local pid
    for pid in "${server_pid[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${server_pid[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    for name in referee fastapi; do
        for file in "$work_dir/$name.log" "$work_dir/$name.earlier.log"; do
            if [[ -f "$file" ]]; then cp "$file" "$results_dir/"; fi
        done
    done
    rm -rf "$work_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Keeps the log of a server that is being restarted, then starts its log afresh.
rotate_log() {
    local name="$1"
    if [[ -f "$work_dir/$name.log" ]]; then
        cat "$work_dir/$name.log" >>"$work_dir/$name.earlier.log"
        : >"$work_dir/$name.log"
    fi
}

wait_ready() {
    local url="$1" pid="$2" name="$3"
    for _ in $(seq 1 300); do
        if ! kill -0 "$pid" 2>/dev/null; then
            log "$name exited during start-up; its log:"
            cat "$work_dir/$name.log" >&2
            exit 1
        fi
        if curl --silent --fail --max-time 1 "$url/readyz" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.1
    done
    log "$name not ready after 30 s; its log:"
    cat "$work_dir/$name.log" >&2
    exit 1
}

start_referee() {
    log "starting referee on SQLite in $work_dir"
    rotate_log referee
    (cd "$work_dir" && NO_COLOR=1 exec "$referee" serve --listen 127.0.0.1:0 \
        --database-url "sqlite://$work_dir/referee.db") >"$work_dir/referee.log" 2>&1 &
    local pid=$! addr=""
    server_pid[referee]="$pid"
    for _ in $(seq 1 300); do
        addr="$(sed 's/\x1b\[[0-9;]*m//g' "$work_dir/referee.log" |
            grep -m1 'listening on' | grep -oE 'http://127\.0\.0\.1:[0-9]+' || true)"
        if [[ -n "$addr" ]] || ! kill -0 "$pid" 2>/dev/null; then break; fi
        sleep 0.1
    done
    if [[ -z "$addr" ]]; then
        log "referee did not report its address; its log:"
        cat "$work_dir/referee.log" >&2
        exit 1
    fi
    wait_ready "$addr" "$pid" referee
    base_url[referee]="$addr"
    log "referee ready at $addr"
}

start_fastapi() {
    local port
    port="$(free_port)"
    log "starting FastAPI (uvicorn, $fastapi_workers workers) on port $port"
    rotate_log fastapi
    (cd "$bench_dir" && exec "$venv/bin/uvicorn" fastapi_exact_match:app \
        --host 127.0.0.1 --port "$port" --workers "$fastapi_workers" \
        --no-access-log --log-level warning) >"$work_dir/fastapi.log" 2>&1 &
    server_pid[fastapi]=$!
    wait_ready "http://127.0.0.1:$port" "${server_pid[fastapi]}" fastapi
    base_url[fastapi]="http://127.0.0.1:$port"
    log "FastAPI ready at ${base_url[fastapi]}"
}

# Starts the server, or starts it again when it has exited since the last run (a server that
# stops on its own is reported, not hidden: the restart count is printed with the table).
ensure_running() {
    local name="$1" pid="${server_pid[$1]:-}" status
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then return 0; fi
    if [[ -n "$pid" ]]; then
        wait "$pid" 2>/dev/null && status=0 || status=$?
        restarts[$name]=$((${restarts[$name]:-0} + 1))
        log "$name (pid $pid) exited with status $status; the end of its log:"
        tail -n 5 "$work_dir/$name.log" >&2
    fi
    "start_$name"
}

# --- load ----------------------------------------------------------------------------------
for server in $servers; do ensure_running "$server"; done
log "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
for batch_size in $batch_sizes; do
    for connections in $connections_list; do
        for server in $servers; do
            line=""
            for attempt in 1 2; do
                ensure_running "$server"
                log "$server: $connections connections, $batch_size items per request"
                line="$("$loadgen" --url "${base_url[$server]}/v1/score" --label "$server" \
                    --connections "$connections" --batch-size "$batch_size" \
                    --duration-secs "$duration_secs" --warmup-secs "$warmup_secs" \
                    --threads "$loadgen_threads" || true)"
                if kill -0 "${server_pid[$server]}" 2>/dev/null; then break; fi
                log "$server exited during run $attempt of this cell"
                line=""
            done
            if [[ -z "$line" ]]; then
                line="{\"label\":\"$server\",\"connections\":$connections,\"batch_size\":$batch_size,\"failed\":true}"
            fi
            echo "$line" >>"$results_jsonl"
        done
    done
done
log "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- report --------------------------------------------------------------------------------
python3 - "$results_jsonl" "$servers" <<'PY' | tee "$results_dir/http_load.md"
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
servers = sys.argv[2].split()
names = {"referee": "Referee", "fastapi": "FastAPI"}
cells = {(row["label"], row["connections"], row["batch_size"]): row for row in rows}
keys = sorted({(row["batch_size"], row["connections"]) for row in rows})


def throughput(row):
    if row is None or row.get("failed"):
        return "failed"
    text = f"{row['items_per_s']:,.0f}"
    return text if row["valid"] else f"{text} ({row['errors']} errors)"


def latency(row, which):
    if row is None or row.get("failed"):
        return "–"
    return f"{row['latency_ms'][which]:.2f}"


header = ["batch", "connections"]
for server in servers:
    name = names.get(server, server)
    header += [f"{name} items/s", f"{name} p50 ms", f"{name} p99 ms"]
both = "referee" in servers and "fastapi" in servers
if both:
    header.append("Referee / FastAPI")
print("| " + " | ".join(header) + " |")
print("|" + "|".join("---:" for _ in header) + "|")
for batch, connections in keys:
    line = [str(batch), str(connections)]
    for server in servers:
        row = cells.get((server, connections, batch))
        line += [throughput(row), latency(row, "p50"), latency(row, "p99")]
    if both:
        ours = cells.get(("referee", connections, batch))
        theirs = cells.get(("fastapi", connections, batch))
        usable = all(r is not None and not r.get("failed") and r["items_per_s"] > 0
                     for r in (ours, theirs))
        line.append(f"{ours['items_per_s'] / theirs['items_per_s']:.1f}×" if usable else "–")
    print("| " + " | ".join(line) + " |")
invalid = [row for row in rows if row.get("failed") or not row.get("valid", False)]
if invalid:
    print()
    print(f"{len(invalid)} run(s) failed or had errors (bench/results/http_load.jsonl):")
    for row in invalid:
        what = "no result; see the log above" if row.get("failed") else \
            f"errors {row.get('error_statuses')} {row.get('transport_error_kinds')}"
        print(f"- {row['label']}, {row['connections']} connections, "
              f"batch {row['batch_size']}: {what}")
PY
for server in $servers; do
    if [[ "${restarts[$server]:-0}" -gt 0 ]]; then
        echo
        echo "$server exited ${restarts[$server]} time(s) during the benchmark and was restarted;" \
            "its logs are in bench/results/."
    fi
done
