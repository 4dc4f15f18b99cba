#!/usr/bin/env bash
# Creates the peer venvs for bench/mlp/run.sh under ~/.cache/msjvm-bench/ (idempotent):
#   ~/.cache/msjvm-bench/venv-mindspore  : mindspore (latest that installs) + numpy
#   ~/.cache/msjvm-bench/venv-torch      : CPU-only torch (download.pytorch.org/whl/cpu, else PyPI) + numpy
# One peer failing does not stop the other. Prints what got installed.
# Env: MSJVM_BENCH_PY (interpreter to use; default: python3 if it is 3.11, else python3.11, else pyenv's 3.11).
set -uo pipefail
root="${MSJVM_BENCH_HOME:-$HOME/.cache/msjvm-bench}"
mkdir -p "$root"

pick_python() {
  if [ -n "${MSJVM_BENCH_PY:-}" ]; then echo "$MSJVM_BENCH_PY"; return; fi
  if python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then echo python3; return; fi
  for p in /usr/bin/python3.11 /usr/local/bin/python3.11; do [ -x "$p" ] && { echo "$p"; return; }; done
  if command -v pyenv >/dev/null 2>&1; then
    v="$(pyenv versions --bare 2>/dev/null | grep '^3\.11' | tail -1)"
    [ -n "$v" ] && { echo "$(pyenv root)/versions/$v/bin/python3"; return; }
  fi
  echo python3
}
py="$(pick_python)"
echo "setup_peers: base interpreter $py ($("$py" --version 2>&1))"

mkvenv() { # dir
  if [ ! -x "$1/bin/python" ]; then "$py" -m venv "$1" || return 1; fi
  "$1/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
}

status=0
# --- MindSpore -----------------------------------------------------------------
ms="$root/venv-mindspore"
if [ -x "$ms/bin/python" ] && "$ms/bin/python" -c 'import mindspore, numpy' >/dev/null 2>&1; then
  echo "setup_peers: mindspore venv already present"
else
  if mkvenv "$ms" && "$ms/bin/python" -m pip install -q numpy mindspore; then :; else
    echo "setup_peers: FAILED to install mindspore into $ms" >&2; status=1
  fi
fi
# --- PyTorch (CPU) -------------------------------------------------------------
tv="$root/venv-torch"
if [ -x "$tv/bin/python" ] && "$tv/bin/python" -c 'import torch, numpy' >/dev/null 2>&1; then
  echo "setup_peers: torch venv already present"
else
  if mkvenv "$tv"; then
    "$tv/bin/python" -m pip install -q numpy || true
    if ! "$tv/bin/python" -m pip install -q torch --index-url https://download.pytorch.org/whl/cpu; then
      echo "setup_peers: CPU wheel index not usable, trying plain 'pip install torch'" >&2
      "$tv/bin/python" -m pip install -q torch || { echo "setup_peers: FAILED to install torch into $tv" >&2; status=1; }
    fi
  else
    echo "setup_peers: FAILED to create $tv" >&2; status=1
  fi
fi

# --- report --------------------------------------------------------------------
for v in "$ms" "$tv"; do
  [ -x "$v/bin/python" ] || { echo "$(basename "$v"): (no venv)"; continue; }
  echo "$(basename "$v"): $("$v/bin/python" --version 2>&1); $("$v/bin/python" -m pip list 2>/dev/null \
    | grep -iE '^(mindspore|torch|numpy) ' | awk '{printf "%s %s; ", $1, $2}')"
done
exit $status
