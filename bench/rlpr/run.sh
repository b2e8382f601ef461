#!/usr/bin/env bash
# Tokens scored per second on CPU: Referee's RLPR local model vs PyTorch + transformers, on the
# same seeded Qwen2-shaped model (Qwen2.5-0.5B's widths and 151,936-token vocabulary, 4 layers)
# and the same batch, in the same job.
#
#   bench/rlpr/run.sh [SEQUENCES] [REPEATS]
#
# Needs a Python (REFEREE_PYTHON, or .venv/bin/python) with scripts/requirements-test.txt, for
# the model fixture and transformers, and scripts/requirements-rlpr.txt, for PyTorch.
set -euo pipefail
cd "$(dirname "$0")/../.."
python="${REFEREE_PYTHON:-.venv/bin/python}"
target="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
work="$target/rlpr-bench"
sequences="${1:-16}"
repeats="${2:-3}"
mkdir -p "$work"
"$python" scripts/rlpr-fixture.py "$work/model" --arch qwen2 --shape bench --seed 7
cargo build --release --locked -p referee-rlpr --example rlpr_bench
"$target/release/examples/rlpr_bench" "$work/model" "$work/sequences.json" "$sequences" "$repeats" | tee "$work/referee.json"
"$python" bench/rlpr/torch_bench.py "$work/model" "$work/sequences.json" "$repeats" | tee "$work/torch.json"
"$python" - "$work/referee.json" "$work/torch.json" <<'PY'
import json, sys
ours, theirs = (json.load(open(p)) for p in sys.argv[1:3])
assert ours["scored_tokens"] == theirs["scored_tokens"] and ours["input_tokens"] == theirs["input_tokens"]
ratio = ours["scored_tokens_per_s"] / theirs["scored_tokens_per_s"]
print(f"referee {ours['scored_tokens_per_s']:.1f} scored tokens/s, torch {theirs['scored_tokens_per_s']:.1f}: {ratio:.2f}x")
PY
