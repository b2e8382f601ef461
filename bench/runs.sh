#!/usr/bin/env bash
# What recording training runs costs POST /v1/score: the same 64-item (or 1-item) exact-match
# requests, every item tagged with `run`, `step`, `prompt_id` and `group`, sent at 64
# connections to two release servers on SQLite that differ only in `[runs] enabled` (true: every
# item is recorded and written; false: the same tagged items, nothing recorded). The two are
# measured alternately, ROUNDS times per batch size, the first of the pair swapped every round and
# each measurement after SETTLE_SECS of quiet (a server's background writes of the previous
# measurement would otherwise fall on the other's); the table gives the median items/s of each
# and the throughput cost of recording (1 - on/off), and the median server CPU time per item of
# each and its cost (on/off - 1): on a shared machine throughput swings between rounds, while
# the CPU a server spends per item is what recording adds to. AA=1 runs both servers with recording off: the "cost"
# it reports is the bench's own bias, which a real result must clear. SAMPLE_RATE=R also turns on
# text retention on the recording server (`[runs.samples] rate`, e.g. 1 keeps every item's text):
# the cost is then that of recording and keeping text together.
#
# Settings (environment variables, defaults in brackets):
#   DURATION_SECS [5] WARMUP_SECS [1] ROUNDS [4] SETTLE_SECS [2] CONNECTIONS [64]
#   BATCH_SIZES ["1 64"] AA [0] SAMPLE_RATE [0] CARGO_TARGET_DIR [$HOME/.cache/referee/target]
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
duration_secs="${DURATION_SECS:-5}"
warmup_secs="${WARMUP_SECS:-1}"
rounds="${ROUNDS:-4}"
settle_secs="${SETTLE_SECS:-2}"
aa="${AA:-0}"
sample_rate="${SAMPLE_RATE:-0}"
connections="${CONNECTIONS:-64}"
batch_sizes="${BATCH_SIZES:-1 64}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
log() { echo "[runs] $*" >&2; }
clock_ticks="$(getconf CLK_TCK)"
# User and system CPU time of a process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

log "building referee and loadgen (release) into $CARGO_TARGET_DIR"
(cd "$repo_dir" && cargo build --release -p referee-server -p referee-bench)
referee="$CARGO_TARGET_DIR/release/referee"
loadgen="$CARGO_TARGET_DIR/release/loadgen"

work_dir="$(mktemp -d "${TMPDIR:-/tmp}/referee-runs-bench.XXXXXX")"
results_dir="$bench_dir/results"
mkdir -p "$results_dir"
results_jsonl="$results_dir/runs.jsonl"
: >"$results_jsonl"
declare -A pid url
cleanup() {
    for p in "${pid[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pid[@]}"; do wait "$p" 2>/dev/null || true; done
    cp "$work_dir"/*.log "$results_dir/" 2>/dev/null || true
    rm -rf "$work_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start() {
    local name="$1" enabled="$2" addr="" rate=0
    if [[ "$enabled" == true ]]; then rate="$sample_rate"; fi
    mkdir -p "$work_dir/$name"
    (cd "$work_dir/$name" && NO_COLOR=1 REFEREE__RUNS__ENABLED="$enabled" REFEREE__RUNS__SAMPLES__RATE="$rate" \
        exec "$referee" serve \
        --listen 127.0.0.1:0 --database-url "sqlite://$work_dir/$name/referee.db") >"$work_dir/$name.log" 2>&1 &
    pid[$name]=$!
    for _ in $(seq 1 300); do
        addr="$(grep -m1 -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$work_dir/$name.log" | grep -oE 'http://.*' || true)"
        if [[ -n "$addr" ]] && curl --silent --fail --max-time 1 "$addr/readyz" >/dev/null 2>&1; then break; fi
        kill -0 "${pid[$name]}" 2>/dev/null || { cat "$work_dir/$name.log" >&2; exit 1; }
        sleep 0.1
    done
    [[ -n "$addr" ]] || { log "$name did not start"; cat "$work_dir/$name.log" >&2; exit 1; }
    url[$name]="$addr"
    log "$name (runs.enabled = $enabled, runs.samples.rate = $rate) ready at $addr"
}
if [[ "$aa" == 1 ]]; then start on false; else start on true; fi
start off false

# Bodies: 4 rollouts per prompt (group = prompt), half of them correct; one item for
# the single-item case. Every request is one step: the step advances with each round.
make_body() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
size, step, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
items = []
for i in range(size):
    prompt = f"p{i // 4}"
    response = "42" if i % 2 == 0 else "41"
    items.append({"id": str(i), "verifier": "exact-match", "input": {"response": response, "reference": "42"},
                  "run": "bench", "step": step, "prompt_id": prompt, "group": f"{prompt}-{step}"})
json.dump({"items": items}, open(path, "w"))
PY
}

# Each server precompiles its sandbox runtimes in the background after start: a first load
# that is not counted lets that finish before anything is measured.
make_body 1 0 "$work_dir/warm.json"
for name in on off; do
    "$loadgen" --url "${url[$name]}/v1/score" --label warm --body "$work_dir/warm.json" --connections 8 \
        --duration-secs 10 --warmup-secs 0 >/dev/null 2>&1 || true
done
log "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
for batch in $batch_sizes; do
    for round in $(seq 1 "$rounds"); do
        body="$work_dir/body-$batch-$round.json"
        make_body "$batch" "$round" "$body"
        pair="on off"
        if (( round % 2 == 0 )); then pair="off on"; fi
        for name in $pair; do
            sleep "$settle_secs"
            kill -0 "${pid[$name]}" 2>/dev/null || { log "$name exited"; tail -n 20 "$work_dir/$name.log" >&2; exit 1; }
            log "$name: $batch items per request, $connections connections, round $round"
            # The server's CPU time over the whole load (warm-up included), for CPU per item.
            before=$(cpu_ticks "${pid[$name]}")
            "$loadgen" --url "${url[$name]}/v1/score" --label "$name" --body "$body" \
                --connections "$connections" --duration-secs "$duration_secs" --warmup-secs "$warmup_secs" \
                >"$work_dir/row.json" || log "$name: the run had errors (kept in the results as invalid)"
            after=$(cpu_ticks "${pid[$name]}")
            python3 -c '
import json, sys
row = json.load(open(sys.argv[1]))
row["batch"] = int(sys.argv[2])
row["server_cpu_s"] = (int(sys.argv[4]) - int(sys.argv[3])) / int(sys.argv[5])
print(json.dumps(row))' "$work_dir/row.json" "$batch" "$before" "$after" "$clock_ticks" >>"$results_jsonl"
        done
    done
done
log "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
sleep 2
log "the run as the server with runs on recorded it: $(curl --silent "${url[on]}/v1/runs/bench")"

python3 - "$results_jsonl" <<'PY' | tee "$results_dir/runs.md"
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
# Server CPU per item: the CPU time over the whole load (warm-up included) over the items of the
# whole load (the counted items scaled by the warm-up's share of the time).
def cpu_us_per_item(r):
    items = r["items"] * (r["duration_s"] + r["warmup_s"]) / r["duration_s"]
    return 1e6 * r["server_cpu_s"] / max(items, 1)
print("| batch | connections | recording on: items/s (median) | off: items/s (median) | throughput cost | server CPU per item on / off (median, µs) | CPU cost | on p99 ms | off p99 ms | refused or failed requests (on / off) |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for batch in sorted({r["batch"] for r in rows}):
    cell = {name: [r for r in rows if r["batch"] == batch and r["label"] == name] for name in ("on", "off")}
    on = statistics.median(r["items_per_s"] for r in cell["on"])
    off = statistics.median(r["items_per_s"] for r in cell["off"])
    p99 = {name: statistics.median(r["latency_ms"]["p99"] for r in cell[name]) for name in cell}
    errors = {name: sum(r["errors"] + r["transport_errors"] for r in cell[name]) for name in cell}
    cpu = {name: statistics.median(cpu_us_per_item(r) for r in cell[name]) for name in cell}
    print(f"| {batch} | {cell['on'][0]['connections']} | {on:,.0f} | {off:,.0f} | {100 * (1 - on / off):.1f}% | {cpu['on']:.2f} / {cpu['off']:.2f} | {100 * (cpu['on'] / cpu['off'] - 1):.1f}% | {p99['on']:.2f} | {p99['off']:.2f} | {errors['on']} / {errors['off']} |")
PY
