#!/usr/bin/env bash
# The RLPR figures on a GPU machine (H100/H200), in one job:
#   1. the LM head's achieved memory bandwidth against the device's copy bandwidth, both methods
#      (kernels/examples/kernel_bandwidth.rs; Qwen2.5-0.5B's 151,936 × 896 head);
#   2. scored tokens per second of the local model on the GPU against PyTorch + transformers on
#      the same GPU, the same seeded Qwen2-shaped model and the same batch;
#   3. one pass again with REFEREE_RLPR_PROFILE set: the time of each device operation;
#   4. `/v1/score` batches of RLPR items in model mode over HTTP against `referee serve` with the
#      model on the GPU (bench/rlpr/http_batch.py).
#
#   bench/rlpr/gpu.sh [SEQUENCES] [REPEATS]
#
# Needs the NVIDIA driver and a Python (REFEREE_PYTHON, or .venv/bin/python) with
# scripts/requirements-test.txt's RLPR packages, for the model fixture and transformers, and
# scripts/requirements-rlpr.txt, whose PyTorch wheel brings the CUDA libraries, cuBLAS and NVRTC
# among them.
# With REFEREE_PREBUILT=DIR the programs come from DIR (scripts/gpu-bundle) instead of cargo, for
# a GPU machine without a Rust toolchain. Results go to WORK (default: the build cache's
# rlpr-bench-gpu folder).
set -euo pipefail
cd "$(dirname "$0")/../.."
python="${REFEREE_PYTHON:-.venv/bin/python}"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
work="${WORK:-$target/rlpr-bench-gpu}"
sequences="${1:-64}"
repeats="${2:-5}"
mkdir -p "$work"
LD_LIBRARY_PATH=$(REFEREE_PYTHON="$python" scripts/cuda-libs)
export LD_LIBRARY_PATH

if [ -n "${REFEREE_PREBUILT:-}" ]; then
    bin="$REFEREE_PREBUILT"
    kernel_bandwidth="$bin/kernel_bandwidth" rlpr_bench="$bin/rlpr_bench" referee="$bin/referee"
else
    cargo build --release --locked -p referee-kernels --features cuda --example kernel_bandwidth
    cargo build --release --locked -p referee-rlpr --features cuda --example rlpr_bench
    cargo build --release --locked -p referee-server --features cuda --bin referee
    kernel_bandwidth="$target/release/examples/kernel_bandwidth"
    rlpr_bench="$target/release/examples/rlpr_bench" referee="$target/release/referee"
fi

"$kernel_bandwidth" | tee "$work/kernel.jsonl"

"$python" scripts/rlpr-fixture.py "$work/model" --arch qwen2 --shape bench --seed 7
RLPR_DEVICE=cuda "$rlpr_bench" "$work/model" "$work/sequences.json" "$sequences" "$repeats" \
    | tee "$work/referee.json"
RLPR_DEVICE=cuda "$python" bench/rlpr/torch_bench.py "$work/model" "$work/sequences.json" "$repeats" 16 \
    | tee "$work/torch.json"
"$python" - "$work/referee.json" "$work/torch.json" <<'PY'
import json, sys
ours, theirs = (json.load(open(p)) for p in sys.argv[1:3])
assert ours["scored_tokens"] == theirs["scored_tokens"] and ours["input_tokens"] == theirs["input_tokens"]
ratio = ours["scored_tokens_per_s"] / theirs["scored_tokens_per_s"]
print(f"GPU: referee {ours['scored_tokens_per_s']:.1f} scored tokens/s, torch {theirs['scored_tokens_per_s']:.1f}: {ratio:.2f}x")
PY

REFEREE_RLPR_PROFILE=1 RLPR_DEVICE=cuda "$rlpr_bench" "$work/model" "$work/sequences.json" "$sequences" 1 \
    2> >(tee "$work/profile.txt" >&2) >/dev/null

if [ ! -x "$referee" ]; then
    echo "no server at $referee: the HTTP step is left out" >&2
    exit 0
fi
config="$work/referee.toml"
cat > "$config" <<TOML
data_dir = "$work/data"
[server]
listen = "127.0.0.1:18089"
request_timeout_ms = 600000
[rlpr]
source = "local"
model_dir = "$work/model"
device = "cuda"
TOML
"$referee" --config "$config" serve > "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
    "$python" -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:18089/healthz", timeout=1)' \
        2>/dev/null && break
    kill -0 $server 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.2
done
"$python" bench/rlpr/http_batch.py http://127.0.0.1:18089 64 "$repeats" | tee "$work/http.json"
