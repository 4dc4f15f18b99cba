#!/usr/bin/env bash
# Data-parallel MLP throughput, stand-alone vs 8 in-process ranks, in one run.
# Usage: bench/parallel/run.sh [GLOBAL_BATCH=256] [STEPS=100]   (set MSJVM_JIT=0 for interpreter-only)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
batch=${1:-256}
steps=${2:-100}
work=$(mktemp -d)
cd "$work"
"$repo/bin/mspython" "$repo/bench/parallel/dp_mlp.py" "$batch" "$steps" | grep '^RESULT'
"$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir=logs "$repo/bench/parallel/dp_mlp.py" "$batch" "$steps" >/dev/null
grep '^RESULT' logs/worker_0.log
