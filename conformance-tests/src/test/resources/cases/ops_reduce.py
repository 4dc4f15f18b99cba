# ReduceSum/ReduceMean/ReduceMax/ReduceMin, ops.sum/ops.mean and Tensor.sum/mean/max/min: axes,
# keep_dims, result dtypes, values, errors.
import mindspore as ms
from mindspore import Tensor, ops
from _case_util import attempt, rounded

try:
    # MindSpore 2.10 fails the first reduction with a tuple axis in a process (a SystemError about
    # NumPy 1.x modules); later calls work. Warm it up silently.
    str(ops.ReduceSum()(Tensor([[1.0]]), (0, 1)))
    str(ops.sum(Tensor([[1.0]]), (0, 1)))
except (SystemError, ImportError):
    pass

x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
i = Tensor([[1, 2, 3], [4, 5, 6]], ms.int32)
i8 = Tensor([[100, 100]], ms.int8)
b = Tensor([[True, False], [True, True]])
h = Tensor([1.0, 2.0], ms.float16)
d = Tensor([[0.1, 0.2], [0.3, 0.4]], ms.float64)
w = Tensor([[0.1 * k - 3.3 for k in range(40)] for _ in range(5)])
cases = []
for name in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"):
    op = getattr(ops, name)
    cases += [
        (f"{name}()(x)", lambda op=op: op()(x)),
        (f"{name}()(x, 1)", lambda op=op: op()(x, 1)),
        (f"{name}(True)(x, -1)", lambda op=op: op(keep_dims=True)(x, -1)),
        (f"{name}()(x, (0, 1))", lambda op=op: op()(x, (0, 1))),
        (f"{name}()(x, [0])", lambda op=op: op()(x, [0])),
        (f"{name}()(i, 0)", lambda op=op: op()(i, 0)),
        (f"{name}()(i8, 1)", lambda op=op: op()(i8, 1)),
        (f"{name}()(h)", lambda op=op: op()(h)),
        (f"{name}()(d, 0)", lambda op=op: op()(d, 0)),
        (f"{name}(True)(w, 1)", lambda op=op: op(True)(w, 1)),
        (f"{name}()(Tensor(3.0), 0)", lambda op=op: op()(Tensor(3.0), 0)),
        (f"{name}()(x, 2)", lambda op=op: op()(x, 2)),
        (f"{name}()(x, -3)", lambda op=op: op()(x, -3)),
        (f"{name}()(x, 1.5)", lambda op=op: op()(x, 1.5)),
        (f"{name}(keep_dims=1)(x)", lambda op=op: op(keep_dims=1)(x)),
        (f"{name}()([1, 2])", lambda op=op: op()([1, 2])),
    ]
cases += [
    ("ReduceSum()(b, 0)", lambda: ops.ReduceSum()(b, 0)),
    ("sum(x)", lambda: ops.sum(x)), ("sum(x, 1, True)", lambda: ops.sum(x, 1, True)),
    ("sum(x, dim=(0, 1))", lambda: ops.sum(x, dim=(0, 1))), ("sum(i)", lambda: ops.sum(i)),
    ("sum(b)", lambda: ops.sum(b)), ("sum(int8 [100, 100])", lambda: ops.sum(Tensor([100, 100], ms.int8))),
    ("sum(i, dtype=float32)", lambda: ops.sum(i, dtype=ms.float32)),
    ("mean(x)", lambda: ops.mean(x)), ("mean(x, 0, True)", lambda: ops.mean(x, 0, True)),
    ("mean(i)", lambda: ops.mean(i)), ("mean(x, axis=1)", lambda: ops.mean(x, axis=1)),
    ("x.sum()", lambda: x.sum()), ("x.sum(1)", lambda: x.sum(1)),
    ("x.sum(axis=0, keepdims=True)", lambda: x.sum(axis=0, keepdims=True)),
    ("i.sum()", lambda: i.sum()), ("b.sum()", lambda: b.sum()),
    ("x.mean()", lambda: x.mean()), ("x.mean(1)", lambda: x.mean(1)), ("i.mean()", lambda: i.mean()),
    ("x.max()", lambda: x.max()), ("x.max(axis=0, keepdims=True)", lambda: x.max(axis=0, keepdims=True)),
    ("x.min()", lambda: x.min()), ("i.max()", lambda: i.max()), ("h.min()", lambda: h.min()),
    ("ReduceMax()(x, (0, 0))", lambda: ops.ReduceMax()(x, (0, 0))),
    ("ReduceMean()(b, 0)", lambda: ops.ReduceMean()(b, 0)),
]


# Floats are compared to 5 significant digits (summation order may differ in the last float32 bits).


for label, fn in cases:
    attempt(label, lambda fn=fn: (lambda r: (str(r.dtype), r.shape, rounded(r.tolist())))(fn()))
