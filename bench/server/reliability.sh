#!/usr/bin/env bash
# Reliability of bin/msserver against hostile scripts (issue 19): runs reliability.py against a
# thread-isolated server (process-isolated jobs through memoryMb), then times a SIGTERM with a job
# spinning in a rank thread, and a kill -9 of a process-isolated server until its job's child JVM
# is gone. Prints one table. Usage: bench/server/reliability.sh   (MSJVM_JIT=0 for interpreter-only)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
srv=""
trap '[ -n "$srv" ] && kill -9 $srv 2>/dev/null; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
"$repo/bin/msserver" --port "$port" --data-dir "$work/a" --token bench --isolation thread \
  --max-queued-jobs 8 >"$work/a.log" 2>&1 &
srv=$!
python3 "$repo/tests/server_probe.py" health "$port"
python3 "$repo/bench/server/reliability.py" "http://127.0.0.1:$port" bench 8
python3 "$repo/tests/server_probe.py" start "$port" bench "while True:\n    pass\n" >/dev/null
t0=$(date +%s%N); kill -TERM "$srv"; wait "$srv" 2>/dev/null || true; srv=""
echo "| SIGTERM with a job spinning in a rank thread: server exit, s | $(python3 -c "print(f'{($(date +%s%N) - $t0) / 1e9:.2f}')") |"
port=$(free_port)
"$repo/bin/msserver" --port "$port" --data-dir "$work/b" --token bench >"$work/b.log" 2>&1 &
srv=$!
python3 "$repo/tests/server_probe.py" start "$port" bench "print('child up', flush=True)\nwhile True:\n    pass\n" "child up" >/dev/null
child=$(pgrep -P "$srv" -f dev.msjvm.frontend.ServerChild | head -1)
t0=$(date +%s%N); kill -9 "$srv"; wait "$srv" 2>/dev/null || true; srv=""
while kill -0 "$child" 2>/dev/null; do sleep 0.1; done
echo "| kill -9 of the server: its job's child JVM gone after, s | $(python3 -c "print(f'{($(date +%s%N) - $t0) / 1e9:.2f}')") |"
