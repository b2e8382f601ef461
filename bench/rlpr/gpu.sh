#!/usr/bin/env bash
# The RLPR figures on a GPU machine (H100/H200), in one job:
#   1. the fused LM head's achieved memory bandwidth against the device's copy bandwidth
#      (kernels/examples/kernel_bandwidth.rs; Qwen2.5-0.5B's 151,936 × 896 head);
#   2. scored tokens per second of the local model on the GPU against PyTorch + transformers on
#      the same GPU, the same seeded Qwen2-shaped model and the same batch.
#
#   bench/rlpr/gpu.sh [SEQUENCES] [REPEATS]
#
# Needs the NVIDIA driver, a Python with scripts/requirements-rlpr.txt (REFEREE_PYTHON, or
# .venv/bin/python; its PyTorch wheel brings the CUDA libraries, cuBLAS and NVRTC among them).
set -euo pipefail
cd "$(dirname "$0")/../.."
python="${REFEREE_PYTHON:-.venv/bin/python}"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
work="$target/rlpr-bench-gpu"
sequences="${1:-64}"
repeats="${2:-5}"
mkdir -p "$work"
# cudarc opens libcublas and libnvrtc by name: point the loader at PyPI's copies.
libs=$("$python" -c "import nvidia.cublas, nvidia.cuda_nvrtc, os; print(':'.join(os.path.join(m.__path__[0], 'lib') for m in (nvidia.cublas, nvidia.cuda_nvrtc)))")
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

cargo build --release --locked -p referee-kernels --features cuda --example kernel_bandwidth
"$target/release/examples/kernel_bandwidth" | tee "$work/kernel.jsonl"

"$python" scripts/rlpr-fixture.py "$work/model" --arch qwen2 --shape bench --seed 7
cargo build --release --locked -p referee-rlpr --features cuda --example rlpr_bench
RLPR_DEVICE=cuda "$target/release/examples/rlpr_bench" "$work/model" "$work/sequences.json" "$sequences" "$repeats" \
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
