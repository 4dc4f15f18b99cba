#!/usr/bin/env bash
# Cold-start and call-overhead numbers of the launchers, side by side in one run.
# Usage: bench/startup.sh [repeats]   (prints a markdown table; run on an idle machine)
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps="${1:-3}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
echo 'print("hi")' > "$work/one.py"
printf 'from mindspore.communication import init, get_rank\ninit()\nprint(get_rank())\n' > "$work/ranks.py"
"$repo/bin/mspython" "$work/one.py" >/dev/null 2>&1   # build if needed, unpack caches

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
wall() { # command... -> seconds
  local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

# Three ways to start: the default (Truffle JIT on), interpreter-only from the JDK 25 AOT cache
# (bin/msjvm-env.sh, trained by the warm-up run above when missing), interpreter-only without it.
echo "| what | JIT | AOT cache | median wall s (n=$reps) |"
echo "|---|---|---|---:|"
for mode in "1 on" "0 on" "0 off"; do
  read -r jit aot <<<"$mode"
  MSJVM_JIT=$jit MSJVM_AOT=$aot "$repo/bin/mspython" "$work/one.py" >/dev/null 2>&1  # trains a missing cache
  for what in mspython msrun8; do
    for i in $(seq "$reps"); do
      if [ "$what" = mspython ]; then
        MSJVM_JIT=$jit MSJVM_AOT=$aot wall "$repo/bin/mspython" "$work/one.py"
      else
        (cd "$work" && MSJVM_JIT=$jit MSJVM_AOT=$aot wall "$repo/bin/msrun" --worker_num=8 \
          --local_worker_num=8 --log_dir=logs "$work/ranks.py")
      fi
    done | median | xargs printf "| %s | %s | %s | %.2f |\n" \
      "$([ $what = mspython ] && echo 'bin/mspython one-line script' || echo 'bin/msrun 8 ranks (init + get_rank)')" \
      "$([ $jit = 1 ] && echo on || echo off)" "$([ $jit = 1 ] && echo '-' || echo $aot)"
  done
done
echo
for jit in 1 0; do
  echo "### call overhead, JIT $([ $jit = 1 ] && echo on || echo off)"
  MSJVM_JIT=$jit "$repo/bin/mspython" "$repo/bench/call_overhead.py" 2>/dev/null
  echo
done
