"""Python-to-Java call overhead inside bin/mspython: ns per call, steady state.

Run: bin/mspython bench/call_overhead.py            (JIT on where the JDK allows)
     MSJVM_JIT=0 bin/mspython bench/call_overhead.py (interpreter only)
"""
import sys
import time

t0 = time.perf_counter()
import mindspore  # noqa: E402  (timed on purpose)
from mindspore import _host  # noqa: E402

IMPORT_S = time.perf_counter() - t0
N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 8

raw_host = _host._HOST  # pylint: disable=protected-access
wrapped_host = _host.host()
apc = _host.session().autoParallelContext()


def py_fn(x):
    return x


def loop_python(n):
    for i in range(n):
        py_fn(i)


def loop_raw(n):
    f = raw_host.pythonTypeOf
    for _ in range(n):
        f(None)


def loop_wrapped(n):
    f = wrapped_host.pythonTypeOf
    for _ in range(n):
        f(None)


def loop_get(n):
    for _ in range(n):
        mindspore.get_auto_parallel_context("device_num")


def best_ns(fn, n):
    times = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        fn(n)
        times.append(time.perf_counter() - t)
    steady = sorted(times[ROUNDS // 2:])  # later rounds, after warm-up and compilation
    return steady[0] / n * 1e9


print(f"import mindspore: {IMPORT_S:.3f} s")
print("| call | ns/call |")
print("|---|---:|")
for name, fn in [("Python function call (baseline)", loop_python),
                 ("raw host method (polyglot)", loop_raw),
                 ("host method through the shim wrapper", loop_wrapped),
                 ("get_auto_parallel_context('device_num')", loop_get)]:
    print(f"| {name} | {best_ns(fn, N):.0f} |")
