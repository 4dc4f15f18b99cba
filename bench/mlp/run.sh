#!/usr/bin/env bash
# MLP training-step benchmark, all peers side by side in one run (bench/mlp/README.md).
# Usage: bench/mlp/run.sh [steps] [reps]      (defaults 500 timed steps, 3 repetitions)
#   Each (impl, mode, OPENBLAS_CORETYPE) row is run `reps` times, interleaved round-robin;
#   the table shows the median ms/step (steps/s and GFLOP/s derived from it), the max peak RSS and
#   the best run's ms/step (on a busy machine the best is the steadier number).
#   MLP_BENCH_REPORT_ONLY=1 MLP_BENCH_LOG=dir re-renders the table from an earlier run's raw logs.
#   OPENBLAS_CORETYPE: if the environment sets it, every row runs with that value and with it unset
#   (env -u); if it does not, rows run unset and with MLP_BENCH_CORETYPE (default Haswell) forced.
#   MSJVM_BENCH=1 and an executable bin/mspython also run our product on mlp_mindspore.py.
# Env: MLP_BENCH_THREADS (2), MLP_BENCH_WARMUP (50), MLP_BENCH_PYNATIVE (1: also PyNative rows,
#      MLP_BENCH_PYNATIVE_STEPS timed steps, default min(steps,100), 10 warm-up),
#      MSJVM_BENCH_HOME (~/.cache/msjvm-bench, from setup_peers.sh), MLP_BENCH_LOG (keep raw logs here).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
steps="${1:-500}"; reps="${2:-3}"
warmup="${MLP_BENCH_WARMUP:-50}"
pyn_steps="${MLP_BENCH_PYNATIVE_STEPS:-$(( steps < 100 ? steps : 100 ))}"   # PyNative is ~10x slower
threads="${MLP_BENCH_THREADS:-2}"
home="${MSJVM_BENCH_HOME:-$HOME/.cache/msjvm-bench}"
ms_py="$home/venv-mindspore/bin/python"; torch_py="$home/venv-torch/bin/python"
log="${MLP_BENCH_LOG:-$(mktemp -d)}"; mkdir -p "$log"
[ -n "${MLP_BENCH_LOG:-}" ] || trap 'rm -rf "$log"' EXIT

ncpu="$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)"   # nproc itself obeys OMP_NUM_THREADS
# Same thread count for every peer (the machine may have more cores than that).
export OMP_NUM_THREADS="$threads" OPENBLAS_NUM_THREADS="$threads" MKL_NUM_THREADS="$threads"
export MLP_BENCH_THREADS="$threads"
export GLOG_v="${GLOG_v:-3}"   # MindSpore: errors only on stderr
# MindSpore's CPU runtime sizes its kernel thread pool from the cores it may use, not from
# OMP_NUM_THREADS: with fewer threads than CPUs, pin every peer to the first $threads CPUs.
pin=""
if [ "$threads" -lt "$ncpu" ] && command -v taskset >/dev/null; then pin="taskset -c 0-$((threads - 1))"; fi

if [ -n "${OPENBLAS_CORETYPE:-}" ]; then coretypes=("$OPENBLAS_CORETYPE" "-"); ct_note="from the environment"
else coretypes=("-" "${MLP_BENCH_CORETYPE:-Haswell}"); ct_note="not set by the environment; forced value for comparison"
fi

# rows: id|label for failures|command...   (commands run from the repo root)
rows=()
add() { rows+=("$1"$'\t'"$2"$'\t'"$3"); }
if [ -x "$ms_py" ]; then
  add gemm "gemm-bound-numpy" "$ms_py bench/mlp/gemm_bound.py --steps $steps --warmup $warmup"
  add ms-graph "mindspore graph" "$ms_py bench/mlp/mlp_mindspore.py --steps $steps --warmup $warmup --mode graph"
  [ "${MLP_BENCH_PYNATIVE:-1}" = 1 ] && \
    add ms-pyn "mindspore pynative" "$ms_py bench/mlp/mlp_mindspore.py --steps $pyn_steps --warmup 10 --mode pynative"
else
  echo "run.sh: no $ms_py (run bench/mlp/setup_peers.sh); skipping MindSpore and the GEMM bound" >&2
fi
if [ -x "$torch_py" ] && "$torch_py" -c 'import torch' >/dev/null 2>&1; then
  add torch "torch eager" "$torch_py bench/mlp/mlp_torch.py --steps $steps --warmup $warmup --mode eager"
else
  echo "run.sh: torch not installed in $torch_py; skipping PyTorch" >&2
fi
if [ "${MSJVM_BENCH:-0}" = 1 ]; then
  if [ -x "$repo/bin/mspython" ]; then
    add msjvm "msjvm graph" "env MLP_BENCH_IMPL=msjvm bin/mspython bench/mlp/mlp_mindspore.py --steps $steps --warmup $warmup --mode graph"
    # Truffle's JIT compiles on the same 2 cores; the interpreter-only run shows its cost.
    add msjvm-nojit "msjvm graph, MSJVM_JIT=0" "env MLP_BENCH_IMPL=msjvm-nojit MSJVM_JIT=0 bin/mspython bench/mlp/mlp_mindspore.py --steps $steps --warmup $warmup --mode graph"
  else
    echo "run.sh: MSJVM_BENCH=1 but no bin/mspython" >&2
  fi
fi

cd "$repo"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
[ "${MLP_BENCH_REPORT_ONLY:-0}" = 1 ] && reps=0   # only re-render the table from $MLP_BENCH_LOG
for r in $(seq "$reps"); do
  for row in "${rows[@]}"; do
    IFS=$'\t' read -r id label cmd <<<"$row"
    for ct in "${coretypes[@]}"; do
      out="$log/$id.$ct.$r"
      if [ "$ct" = - ]; then $pin env -u OPENBLAS_CORETYPE $cmd >"$out" 2>"$out.err"
      else $pin env OPENBLAS_CORETYPE="$ct" $cmd >"$out" 2>"$out.err"; fi
      rc=$?
      [ $rc = 0 ] || { echo "FAILED rc=$rc" >>"$out"; echo "run.sh: '$label' (OPENBLAS_CORETYPE=$ct) failed rc=$rc; tail of stderr:" >&2; tail -3 "$out.err" >&2; }
      echo "rep $r/$reps $label CORETYPE=$ct: $(grep -h '^RESULT' "$out" | sed 's/^RESULT //' | tr '\n' ' ')" >&2
    done
  done
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
step_flops=$(( 3 * 2 * 32 * (784*512 + 512*512 + 512*10) ))

echo
echo "MLP 784-512-512-10, batch 32, float32, SGD; $steps timed steps after $warmup warm-up (PyNative: $pyn_steps after 10), median over the runs;"
echo "$threads threads for every peer${pin:+ (pinned: $pin)}; OPENBLAS_CORETYPE ${ct_note}. GFLOP/s = $step_flops FLOP/step / time"
echo "(from the median). Load average before/after: $load_before / $(cut -d' ' -f1-3 /proc/loadavg) on $ncpu CPUs."
echo
echo "| impl | mode | OPENBLAS_CORETYPE | ms/step | steps/s | GFLOP/s | peak RSS MB | best ms/step (runs) |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for row in "${rows[@]}"; do
  IFS=$'\t' read -r id label cmd <<<"$row"
  for ct in "${coretypes[@]}"; do
    ctl=$([ "$ct" = - ] && echo "(unset)" || echo "$ct")
    files=("$log/$id.$ct".[0-9]*); files=("${files[@]/%.err/}")
    impls=$(cat "$log/$id.$ct".[0-9]* 2>/dev/null | grep '^RESULT' | field impl | sort -u)
    if [ -z "$impls" ]; then
      echo "| ${label% *} | ${label##* } | $ctl | n/a (failed) | | | | |"; continue
    fi
    for impl in $impls; do
      lines=$(cat "$log/$id.$ct".[0-9]* | grep "^RESULT impl=$impl ")
      ms=$(echo "$lines" | field ms_per_step | median)
      mode=$(echo "$lines" | head -1 | field mode)
      rss=$(echo "$lines" | field peak_rss_mb | sort -g | tail -1)
      best=$(echo "$lines" | field ms_per_step | sort -g | head -1)
      n=$(echo "$lines" | wc -l); nf=$(grep -l '^FAILED' "$log/$id.$ct".[0-9]* 2>/dev/null | wc -l)
      note=$([ "$nf" -gt 0 ] && echo " ($nf of $reps runs failed)")
      awk -v i="$impl" -v m="$mode" -v c="$ctl" -v t="$ms" -v f="$step_flops" -v r="$rss" -v note="$note" \
        -v b="$best" -v n="$n" \
        'BEGIN {printf "| %s | %s | %s | %.3f%s | %.1f | %.2f | %d | %.3f (%d) |\n", i, m, c, t, note, 1000/t, f/(t*1e6), r, b, n}'
    done
  done
done
