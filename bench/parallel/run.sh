#!/usr/bin/env bash
# Parallel MLP throughput: stand-alone vs 8 in-process ranks, in one run, per mode
# (data_parallel, semi_auto, seed: see dp_mlp.py).
# Usage: bench/parallel/run.sh [GLOBAL_BATCH=256] [STEPS=100] [MODES="data_parallel semi_auto seed"]
# (set MSJVM_JIT=0 for interpreter-only)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
batch=${1:-256}
steps=${2:-100}
modes=${3:-"data_parallel semi_auto seed"}
work=$(mktemp -d)
cd "$work"
# Stand-alone runs before and after the 8-rank run: on this 2-core machine the same stand-alone
# run varies by up to 2x between JVMs, and the pair shows how much.
for mode in $modes; do
  "$repo/bin/mspython" "$repo/bench/parallel/dp_mlp.py" "$batch" "$steps" "$mode" | grep '^RESULT'
  "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir="logs_$mode" \
    "$repo/bench/parallel/dp_mlp.py" "$batch" "$steps" "$mode" >/dev/null
  grep '^RESULT' "logs_$mode/worker_0.log"
  "$repo/bin/mspython" "$repo/bench/parallel/dp_mlp.py" "$batch" "$steps" "$mode" | grep '^RESULT'
done
