#!/usr/bin/env bash
# The GPU check (issue 23): on a machine with an NVIDIA GPU, runs the kernel suite on the CUDA
# backend against the reference backend, the device-memory cap check and, unless --no-bench, the
# benchmarks beside PyTorch CUDA on the same GPU in the same run. Prints `N passed, N failed`.
# Needs .gpu/ from tests/gpu-bundle.sh (or Java 21+ on PATH and .gpu/lib); finds the machine's CUDA
# 13 runtime, cuBLAS and NVRTC in the usual places. Exit: 0 all passed, 1 failures, 3 no GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
bench=--bench
[[ "${1:-}" == --no-bench ]] && bench=
if [[ -f .gpu/jre.tgz && ! -x /tmp/msjvm-jre/bin/java ]]; then
  mkdir -p /tmp/msjvm-jre && tar xzf .gpu/jre.tgz -C /tmp/msjvm-jre --strip-components=1
fi
JAVA=java
[[ -x /tmp/msjvm-jre/bin/java ]] && JAVA=/tmp/msjvm-jre/bin/java
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
# Directories holding the CUDA 13 libraries the JNI bindings link against.
libdirs=()
for lib in libcuda.so.1 libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libnvrtc.so.13; do
  dir=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l {print $NF; exit}' | xargs -r dirname)
  if [[ -z "$dir" ]]; then
    found=$(find /usr/local/nvidia /usr/local/cuda* /usr/lib/x86_64-linux-gnu /opt \
      -name "$lib" 2>/dev/null | head -1)
    dir=${found:+$(dirname "$found")}
  fi
  echo "$lib: ${dir:-not found}"
  [[ -n "$dir" ]] && libdirs+=("$dir")
done
LD_LIBRARY_PATH=$(printf '%s:' "${libdirs[@]}")${LD_LIBRARY_PATH:-}
export LD_LIBRARY_PATH
"$JAVA" --enable-native-access=ALL-UNNAMED -cp ".gpu/lib/*" dev.msjvm.cuda.GpuCheck $bench
rc=$?
if [[ -n "$bench" && $rc -ne 3 ]] && python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  python3 bench/gpu/mlp_torch_cuda.py
fi
exit $rc
