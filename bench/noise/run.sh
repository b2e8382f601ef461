#!/usr/bin/env bash
# Request latency of POST /v1/score for `math` items with appeals off and with appeals on at
# 10% of each verdict class, on one server, alternating the two modes round by round.
#
# It builds `referee` and `loadgen` in release mode, starts a server on a SQLite database in a
# temporary directory, builds a request of BATCH_SIZE math items from the conformance file
# (rows the verifier judges), and for each round and connection count measures appeals off
# (`DELETE /v1/noise/math`) then on (`PUT /v1/noise/math` with a `math` checker whose input
# patch turns rounding off, and rates of 10%). It prints a Markdown table of the medians over
# rounds, the per-round latency and throughput ratios against appeals off (median with a
# bootstrap 95% interval), and how many verdicts the appeals re-checked.
#
# Settings (environment variables, defaults in brackets):
#   DURATION_SECS [3]      measured seconds per run
#   WARMUP_SECS [1]        uncounted warm-up seconds per run
#   CONNECTIONS ["1 4"]    connection counts
#   BATCH_SIZE [64]        math items per request
#   ROUNDS [12]            off/on pairs per connection count
#   APPEAL_RATE [0.1]      share of each verdict class re-checked when appeals are on
#   MODES ["off on"]       add `model` for a third run with configured rates and no appeals,
#                          which separates the cost of `details.reward` from that of appeals
#   CARGO_TARGET_DIR [$HOME/.cache/referee/target]
#
# Raw JSON lines and the server log of the last run are kept in bench/results/noise/.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
duration_secs="${DURATION_SECS:-3}"
warmup_secs="${WARMUP_SECS:-1}"
connections_list="${CONNECTIONS:-1 4}"
batch_size="${BATCH_SIZE:-64}"
rounds="${ROUNDS:-12}"
appeal_rate="${APPEAL_RATE:-0.1}"
modes="${MODES:-off on}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
log() { echo "[noise bench] $*" >&2; }

log "building referee and loadgen (release) into $CARGO_TARGET_DIR"
(cd "$repo_dir" && cargo build --release -p referee-server -p referee-bench)
referee="$CARGO_TARGET_DIR/release/referee"
loadgen="$CARGO_TARGET_DIR/release/loadgen"

results="$bench_dir/results/noise"
mkdir -p "$results"
: > "$results/runs.jsonl"
scratch="$(mktemp -d)"
"$referee" serve --listen 127.0.0.1:0 --data-dir "$scratch/data" > "$results/referee.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
addr=""
for _ in $(seq 1 100); do
    addr=$(sed -n 's/.*listening on http:\/\/\([0-9.:]*\).*/\1/p' "$results/referee.log" | head -n 1)
    if [ -n "$addr" ] && python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "http://$addr/readyz" 2>/dev/null; then break; fi
    sleep 0.1
done
[ -n "$addr" ] || { cat "$results/referee.log"; exit 1; }
base="http://$addr"

# The request: the first BATCH_SIZE conformance rows that `math` judges.
python3 - "$repo_dir/verifiers/math/tests/data/peer_cases.jsonl" "$base" "$batch_size" > "$scratch/body.json" <<'PY'
import json, sys, urllib.request
path, base, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [json.loads(line) for line in open(path) if line.strip()]
items = [{"id": str(i), "verifier": "math", "input": {"response": r["pred"], "reference": r["gold"]}}
         for i, r in enumerate(rows)]
request = urllib.request.Request(base + "/v1/score", json.dumps({"items": items}).encode(),
                                 {"Content-Type": "application/json"})
results = json.load(urllib.request.urlopen(request))["results"]
judged = [item for item, result in zip(items, results)
          if result["status"] in ("correct", "incorrect", "unparseable")]
if len(judged) < size:
    sys.exit(f"only {len(judged)} judged rows, fewer than BATCH_SIZE={size}")
json.dump({"items": judged[:size]}, sys.stdout)
PY

noise() {
    python3 - "$base" "$1" "$appeal_rate" <<'PY'
import json, sys, urllib.request
base, mode, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
if mode == "off":
    request = urllib.request.Request(base + "/v1/noise/math", method="DELETE")
elif mode == "model":
    settings = {"configured": {"rho0": 0.05, "rho1": 0.2}}
    request = urllib.request.Request(base + "/v1/noise/math", json.dumps(settings).encode(),
                                     {"Content-Type": "application/json"}, method="PUT")
else:
    settings = {"appeal": {"checker": "math", "input_patch": {"options": {"accept_rounded": False}},
                           "rates": {"negatives": rate, "positives": rate}}}
    request = urllib.request.Request(base + "/v1/noise/math", json.dumps(settings).encode(),
                                     {"Content-Type": "application/json"}, method="PUT")
urllib.request.urlopen(request).read()
PY
}

for round in $(seq 1 "$rounds"); do
    for connections in $connections_list; do
        for mode in $modes; do
            noise "$mode"
            log "round $round, $connections connection(s), appeals $mode"
            "$loadgen" --url "$base/v1/score" --body "$scratch/body.json" --connections "$connections" \
                --duration-secs "$duration_secs" --warmup-secs "$warmup_secs" --threads 1 \
                --label "$mode" 2> /dev/null \
                | python3 -c 'import json, sys; r = json.load(sys.stdin); r["round"] = int(sys.argv[1]); print(json.dumps(r))' "$round" \
                >> "$results/runs.jsonl"
            if [ "$mode" = on ]; then
                # Count the re-checks of this run before the next DELETE forgets them.
                sleep 2
                python3 -c "import json, sys, urllib.request; c = json.load(urllib.request.urlopen(sys.argv[1]))['appeal_counts']; print(json.dumps({'appeals': c['checked_positive'] + c['checked_negative'], 'observed': c['observed_positive'] + c['observed_negative']}))" \
                    "$base/v1/noise/math" >> "$results/runs.jsonl"
            fi
        done
    done
done

python3 - "$results/runs.jsonl" "$batch_size" "$appeal_rate" <<'PY' | tee "$results/table.md"
# Shared machines drift: each run is compared with the appeals-off run of its own round, and
# the ratios are summarised by their median with a bootstrap 95% interval over rounds.
import json, random, statistics, sys
path, batch, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
runs, counts = [], []
for line in open(path):
    record = json.loads(line)
    (counts if "appeals" in record else runs).append(record)
by = {}
for run in runs:
    by.setdefault((run["connections"], run["label"]), []).append(run)
names = {"off": "off", "model": "off, model set", "on": f"{rate:.0%}"}
print("| connections | appeals | items/s | p50 ms | p99 ms |")
print("|---:|---|---:|---:|---:|")
for connections in sorted({c for c, _ in by}):
    for mode in ("off", "model", "on"):
        group = by.get((connections, mode), [])
        if group:
            print(f"| {connections} | {names[mode]} | {statistics.median(r['items_per_s'] for r in group):,.0f} "
                  f"| {statistics.median(r['latency_ms']['p50'] for r in group):.2f} "
                  f"| {statistics.median(r['latency_ms']['p99'] for r in group):.2f} |")
print()
rng = random.Random(20261121)
def summary(ratios):
    medians = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(2000))
    return f"×{statistics.median(ratios):.3f} [{medians[50]:.3f}, {medians[1949]:.3f}]"
for connections in sorted({c for c, _ in by}):
    off = {r["round"]: r for r in by.get((connections, "off"), [])}
    for mode, what in (("model", "a model set and appeals off"), ("on", f"appeals on at {rate:.0%}")):
        pairs = [(r, off[r["round"]]) for r in by.get((connections, mode), []) if r["round"] in off]
        if not pairs:
            continue
        p50 = summary([r["latency_ms"]["p50"] / o["latency_ms"]["p50"] for r, o in pairs])
        p99 = summary([r["latency_ms"]["p99"] / o["latency_ms"]["p99"] for r, o in pairs])
        throughput = summary([r["items_per_s"] / o["items_per_s"] for r, o in pairs])
        print(f"- {connections} connection(s), {what}, vs off in the same round ({len(pairs)} rounds; median "
              f"[95% bootstrap interval]): p50 {p50}, p99 {p99}, throughput {throughput}")
checked = sum(c["appeals"] for c in counts)
observed = sum(c["observed"] for c in counts)
print(f"- appeals re-checked {checked:,} of {observed:,} verdicts counted in the runs with appeals on "
      f"({checked / max(observed, 1):.1%}); items of {batch} per request")
PY
