#!/usr/bin/env bash
# Latency of one small job on an idle process-isolated bin/msserver (the default isolation), with
# warm child JVMs (--warm-processes 2) and without (0), side by side: for each, a fresh server, 40 s
# for it to settle, then REPEATS one-rank jobs (init, a print) each submitted when the server is
# idle again; prints submission-to-SUCCEEDED seconds.
# Usage: bench/server/latency.sh [REPEATS=3]   (MSJVM_JIT=0 for interpreter-only)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
srv=""
trap '[ -n "$srv" ] && kill $srv 2>/dev/null; rm -rf "$work"' EXIT
echo "| warm child JVMs | one-rank job, submission to SUCCEEDED, s |"
echo "|---:|---|"
for warm in 2 0; do
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$repo/bin/msserver" --port "$port" --data-dir "$work/data-$warm" --token bench \
    --warm-processes "$warm" >"$work/server-$warm.log" 2>&1 &
  srv=$!
  python3 "$repo/tests/server_probe.py" health "$port"
  sleep 40
  times=$(python3 - "$port" "${1:-3}" <<'PY'
import json, sys, time, urllib.request
base, n = f"http://127.0.0.1:{sys.argv[1]}", int(sys.argv[2])
auth = {"Authorization": "Bearer bench", "Content-Type": "application/json"}
def call(method, path, body=None):
    req = urllib.request.Request(base + path, json.dumps(body).encode() if body else None, auth, method=method)
    return json.load(urllib.request.urlopen(req))
out = []
for _ in range(n):
    t0 = time.perf_counter()
    job = call("POST", "/v1/jobs", {"script": "from mindspore.communication import init, get_rank\ninit()\nprint(get_rank())\n"})
    while (r := call("GET", "/v1/jobs/" + job["id"]))["state"] not in ("SUCCEEDED", "FAILED", "CANCELLED"):
        time.sleep(0.05)
    assert r["state"] == "SUCCEEDED", r
    out.append(f"{time.perf_counter() - t0:.2f}")
    time.sleep(25)  # idle again: the replacement child has warmed up
print(" / ".join(out))
PY
)
  echo "| $warm | $times |"
  kill "$srv"; wait "$srv" 2>/dev/null || true; srv=""
done
