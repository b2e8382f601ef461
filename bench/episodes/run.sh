#!/usr/bin/env bash
# `python-tool` against SandboxFusion's model of a tool call (a fresh `python3` process per call)
# on the same cells, idle episodes per GiB, and OpenEnv reset + step round trips against the
# OpenEnv reference server's echo environment, in one job.
#
#   bench/episodes/run.sh [OPENENV_CHECKOUT]
#
# The Rust side is built with --release into $CARGO_TARGET_DIR. Two sets of cells: one-line
# statements (bench/episodes/small_cells.json) and small computations
# (bench/episodes/cells.json); both sides must print the same output for each cell. With
# OPENENV_CHECKOUT (a checkout of github.com/meta-pytorch/OpenEnv, for its envs/echo_env) and
# openenv-core in .venv, the round trips are measured too: `openenv-core`'s GenericEnvClient
# against the echo environment under uvicorn and against Referee's `python-tool`, on this
# machine. Prints Markdown tables.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
openenv="${1:-}"
python="$root/.venv/bin/python"

(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q --release --locked -p referee-code --example bench_python_tool)
echo "machine: $(nproc) cores, $(uname -srm), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for set in small_cells cells; do
referee="$("$target/release/examples/bench_python_tool" "$root/bench/episodes/$set.json" 64 200)"
native="$(python3 "$root/bench/episodes/native.py" "$root/bench/episodes/$set.json" 64)"
python3 - "$set" "$referee" "$native" <<'PY'
import json, sys
name, r, n = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
same = r["outputs"] == n["outputs"]
print(f"\nbench/episodes/{name}.json: {r['cells']} cells, each run alone and 64 times over")
print()
print("| runner | step p50 | step p95 | steps/s (2 at a time) | outputs equal |")
print("|---|---:|---:|---:|---|")
print(f"| one `python3` process per call ({n['python']}) | {n['latency_ms']['p50']:.2f} ms | {n['latency_ms']['p95']:.2f} ms | {n['throughput']['steps_per_second']:,.0f} | {same} |")
print(f"| Referee `python-tool` cells ({r['workers']} sandbox workers) | {r['latency_ms']['p50']:.2f} ms | {r['latency_ms']['p95']:.2f} ms | {r['throughput']['steps_per_second']:,.0f} | {same} |")
print()
print(f"Step latency ratio (python3 / Referee, p50): {n['latency_ms']['p50'] / r['latency_ms']['p50']:.1f}x; throughput ratio: {r['throughput']['steps_per_second'] / n['throughput']['steps_per_second']:.1f}x")
idle = r["idle"]
print(f"Idle python-tool episodes: {idle['resident_bytes_per_episode'] / 2**20:.2f} MiB resident each over {idle['episodes']} live episodes, {idle['episodes_per_gib']:.0f} per GiB")
print("raw:", json.dumps({"referee": {k: v for k, v in r.items() if k != "outputs"}, "python": {k: v for k, v in n.items() if k != "outputs"}}))
if not same:
    sys.exit("the outputs differ")
PY
done

[ -n "$openenv" ] || exit 0
(cd "$root" && CARGO_TARGET_DIR="$target" cargo build -q --release --locked -p referee-server --bin referee)
scratch=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$scratch"' EXIT
(cd "$openenv/envs" && MAX_CONCURRENT_ENVS=4 "$python" -m uvicorn echo_env.server.app:app --host 127.0.0.1 --port 18765 --log-level warning) &
"$target/release/referee" serve --listen 127.0.0.1:18766 --data-dir "$scratch/data" >"$scratch/referee.log" 2>&1 &
for port in 18765 18766; do
    for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 || curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
done
echo_rtt="$("$python" "$root/bench/episodes/openenv_rtt.py" http://127.0.0.1:18765 '{"type": "call_tool", "tool_name": "echo_message", "arguments": {"message": "hi"}}' 500)"
referee_rtt="$("$python" "$root/bench/episodes/openenv_rtt.py" http://127.0.0.1:18766/openenv/python-tool '{"code": "\"hi\""}' 500)"
python3 - "$echo_rtt" "$referee_rtt" <<'PY'
import json, sys
e, r = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print()
print("| OpenEnv server (GenericEnvClient, one WebSocket session) | round p50 | round p95 | rounds/s |")
print("|---|---:|---:|---:|")
print(f"| openenv-core reference server, echo environment (reset + echo_message) | {e['round_ms']['p50']:.2f} ms | {e['round_ms']['p95']:.2f} ms | {e['rounds_per_second']:,.0f} |")
print(f"| Referee, python-tool (reset + a cell, interpreter started on the step) | {r['round_ms']['p50']:.2f} ms | {r['round_ms']['p95']:.2f} ms | {r['rounds_per_second']:,.0f} |")
print()
print(f"Round-trip ratio (echo / Referee, p50): {e['round_ms']['p50'] / r['round_ms']['p50']:.2f}x")
PY
