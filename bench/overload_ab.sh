#!/usr/bin/env bash
# The overload scenario of bench/overload.sh, run in turn against the release build of an
# earlier revision and of the working tree, ROUNDS times each, in one job on one machine.
#
#   bench/overload_ab.sh BASE_REV [ROUNDS]
#
# Settings: DURATION [30] s per run, CONCURRENCY [1000], ITEMS [4096], CARGO_TARGET_DIR.
# Prints one JSON line per run ({"binary": "base" | "now", "round": N, "result": {...}}) and a
# Markdown summary; server logs are kept in bench/results/overload-ab-*.log.
set -euo pipefail
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd "$bench_dir/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
base_rev="${1:?usage: bench/overload_ab.sh BASE_REV [ROUNDS]}"
rounds="${2:-3}"
duration="${DURATION:-30}"
log() { echo "[overload-ab] $*" >&2; }

scratch=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    wait 2>/dev/null
    git -C "$repo_dir" worktree remove --force "$scratch/base" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT

log "building $base_rev and the working tree (release)"
git -C "$repo_dir" worktree add --quiet --detach "$scratch/base" "$base_rev"
(cd "$scratch/base" && cargo build --release --locked -p referee-server --bin referee)
cp "$CARGO_TARGET_DIR/release/referee" "$scratch/referee-base"
(cd "$repo_dir" && cargo build --release --locked -p referee-server --bin referee)
cp "$CARGO_TARGET_DIR/release/referee" "$scratch/referee-now"
mkdir -p "$bench_dir/results"
results="$scratch/results.jsonl"

for round in $(seq 1 "$rounds"); do
    for name in now base; do
        logfile="$bench_dir/results/overload-ab-$name-$round.log"
        ulimit -n "$(ulimit -Hn)"
        "$scratch/referee-$name" serve --listen 127.0.0.1:0 --data-dir "$scratch/data-$name-$round" >"$logfile" 2>&1 &
        server=$!
        port=""
        for _ in $(seq 1 200); do
            port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$logfile" | head -n 1)
            if [ -n "$port" ] && curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; then break; fi
            sleep 0.1
        done
        log "round $round: $name"
        result=$(python3 "$bench_dir/overload.py" overload --port "$port" --pid "$server" \
            --concurrency "${CONCURRENCY:-1000}" --items "${ITEMS:-4096}" --duration "$duration")
        echo "{\"binary\": \"$name\", \"round\": $round, \"result\": $result}" | tee -a "$results"
        kill "$server"
        wait "$server" || true
        server=""
    done
done

python3 - "$results" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
print("\n| build | runs | peak RSS MiB | /healthz p99 ms | accepted p99 s | items scored | refusals with Retry-After | broken connections |")
print("|---|---:|---|---|---|---|---|---:|")
for name in ("base", "now"):
    rs = [r["result"] for r in runs if r["binary"] == name]
    refused = sum(v for r in rs for k, v in r["outcomes"].items() if k.endswith("_retry_after"))
    without = sum(v for r in rs for k, v in r["outcomes"].items() if k.endswith("without_retry_after"))
    broken = sum(r["outcomes"].get("broken_connection", 0) for r in rs)
    cells = lambda key, f: ", ".join(f(r[key]) for r in rs)
    print(f"| {name} | {len(rs)} | {cells('server_peak_rss_mib', lambda v: f'{v:,.0f}')} | "
          f"{cells('healthz_p99_ms', lambda v: f'{v:.0f}')} | {cells('accepted_p99_s', lambda v: f'{v:.2f}')} | "
          f"{cells('items_scored', lambda v: f'{v:,}')} | {refused - without:,} of {refused:,} | {broken} |")
PY
