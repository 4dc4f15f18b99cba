#!/usr/bin/env bash
# Starts bin/msserver on a free port with a fresh data directory, runs load.py against it (50 jobs
# from 8 concurrent clients by default), stops the server.
# Usage: bench/server/run.sh [JOBS=50] [CLIENTS=8] [MAX_CONCURRENT_JOBS=2] [ISOLATION=thread]
#        (MSJVM_JIT=0 for interpreter-only; ISOLATION=process starts a child JVM per job, the server's
#        default for untrusted scripts)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$repo/bin/msserver" --port "$port" --data-dir "$work/data" --token bench \
  --max-concurrent-jobs "${3:-2}" --isolation "${4:-thread}" >"$work/server.log" 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 240); do
  python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1])" "http://127.0.0.1:$port/q/health" >/dev/null 2>&1 && break
  sleep 0.5
done
python3 "$repo/bench/server/load.py" "http://127.0.0.1:$port" bench "${1:-50}" "${2:-8}"
