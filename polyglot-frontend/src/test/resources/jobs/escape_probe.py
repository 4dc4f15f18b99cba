"""Tries every route from a job's Python to host Java that an attacker would try.

argv[1]: a path outside the job directory; a route that reaches java.lang.Runtime creates it.
Prints "held <route>" for each closed route and "ESCAPED <route>" for an open one.
"""
import sys

MARKER = sys.argv[1]
ESCAPES = []


def attempt(route, fn):
    try:
        result = fn()
    except BaseException as e:  # pylint: disable=broad-except
        print("held", route, "->", type(e).__name__)
        return None
    print("ESCAPED", route, "->", repr(result)[:200])
    ESCAPES.append(route)
    return result


# 1. The polyglot bindings and other languages.
import polyglot  # noqa: E402

for name in ("msjvm_host", "host", "Host", "runtime", "java"):
    attempt(f"bindings {name}", lambda n=name: polyglot.import_value(n))
attempt("polyglot.eval java", lambda: polyglot.eval(language="java", string="java.lang.Runtime"))
attempt("import java", lambda: __import__("java").type("java.lang.Runtime"))
attempt("__graalpython__ host lookup", lambda: __graalpython__.java_type("java.lang.Runtime"))  # noqa: F821

# 2. Every host object the shim hands out, and what their accessors return, with reflection.
import mindspore as ms  # noqa: E402
from mindspore import _host, nn, ops  # noqa: E402

raw = _host._HOST  # pylint: disable=protected-access
ms.set_context(mode=ms.GRAPH_MODE)
net = nn.Dense(3, 2)
x = ops.ones((4, 3), ms.float32)
net(x)  # a traced graph and a compiled step exist now
seeds = {
    "host": raw,
    "session": raw.session(),
    "tensor": x._java,  # pylint: disable=protected-access
    "parameter": net.weight._java if hasattr(net.weight, "_java") else None,  # pylint: disable=protected-access
    "checkpoints": raw.checkpoints(),
    "datasets": raw.datasets(),
    "initializers": raw.initializers(),
    "bound op": raw.prepare("Add", []),
    "shape list": raw.tensorShape(x._java),  # pylint: disable=protected-access
}
try:
    raw.tensorOf("NOT_A_DTYPE", [1], [1])
except polyglot.ForeignException as exc:
    seeds["java exception"] = exc

REFLECT = ("getClass", "class", "static", "getClassLoader", "forName", "getRuntime", "exec",
           "invoke", "getDeclaredMethods", "getMethods", "newInstance", "getContextClassLoader",
           "currentThread", "getProtectionDomain", "getModule")
ACCESSOR = ("get", "as", "to", "session", "comm", "auto", "run", "value", "shape", "dtype",
            "checkpoints", "datasets", "initializers", "graph", "last", "plan", "layout")
seen = set()
queue = [(k, v) for k, v in seeds.items() if v is not None]
visited = 0
while queue and visited < 400:
    path, obj = queue.pop(0)
    if id(obj) in seen or not isinstance(obj, polyglot.ForeignObject):
        continue
    seen.add(id(obj))
    visited += 1
    for member in REFLECT:
        attempt(f"{path}.{member}", lambda o=obj, m=member: getattr(o, m))
    if path.count(".") >= 3:
        continue
    try:
        names = [n for n in dir(obj) if not n.startswith("_")]
    except BaseException:  # pylint: disable=broad-except
        names = []
    for name in names:
        if name.startswith(ACCESSOR) and not name.startswith(("tape", "run1")):
            try:
                queue.append((f"{path}.{name}()", getattr(obj, name)()))
            except BaseException:  # pylint: disable=broad-except
                pass
print("objects probed:", visited)

# 3. The process and environment routes, which must raise (not end the rank).
import os  # noqa: E402

attempt("os.system", lambda: os.system(f"touch {MARKER}"))
attempt("subprocess", lambda: __import__("subprocess").run(["touch", MARKER]))
attempt("write outside", lambda: open(MARKER, "w").write("x"))
print("environment:", sorted(os.environ))
print("escapes:", ESCAPES)
