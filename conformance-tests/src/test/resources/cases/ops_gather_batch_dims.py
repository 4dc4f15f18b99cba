# Gather with batch_dims (the leading dimensions of the table and the indices are batches, each
# gathering its own slice): values, shapes, MindSpore's errors (axis below batch_dims, batch shapes
# that differ, batch_dims out of range), negative batch_dims and axis, ops.gather's keyword, and the
# gradient in both modes.
import mindspore as ms
from mindspore import Tensor, nn, ops
from _case_util import attempt as _attempt, flush_errors


def show(r):
    return (str(r.dtype), r.shape, r.tolist())


def attempt(label, fn):
    _attempt(label, lambda: show(fn()))
    flush_errors()


p = Tensor([[[float(a * 12 + b * 4 + c) for c in range(4)] for b in range(3)] for a in range(2)], ms.float32)
i = Tensor([[0, 2], [1, 1]], ms.int32)
attempt("batch_dims=1 axis=1", lambda: ops.Gather(batch_dims=1)(p, i, 1))
attempt("batch_dims=1 axis=2", lambda: ops.Gather(batch_dims=1)(p, i, 2))
attempt("ops.gather batch_dims=1", lambda: ops.gather(p, i, 2, batch_dims=1))
attempt("axis below batch_dims", lambda: ops.Gather(batch_dims=1)(p, i, 0))
attempt("batch shapes differ", lambda: ops.Gather(batch_dims=2)(p, i, 2))
attempt("batch dim 0 differs", lambda: ops.Gather(batch_dims=1)(p, Tensor([[0, 0], [0, 0], [0, 0]], ms.int32), 1))
attempt("batch_dims=-1", lambda: ops.Gather(batch_dims=-1)(p, i, 1))
attempt("axis=-1", lambda: ops.Gather(batch_dims=1)(p, i, -1))
attempt("batch_dims out of range", lambda: ops.Gather(batch_dims=3)(p, i, 2))
attempt("int64 indices, 3-D batch", lambda: ops.Gather(batch_dims=2)(
    p, Tensor([[[1], [0], [3]], [[2], [2], [0]]], ms.int64), 2))


class Picked(nn.Cell):
    def __init__(self, axis):
        super().__init__()
        self.gather = ops.Gather(batch_dims=1)
        self.axis = axis

    def construct(self, x):
        return (self.gather(x, i, self.axis) * self.gather(x, i, self.axis)).sum()


for mode, name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
    ms.set_context(mode=mode)
    attempt(f"{name} grad axis=1", lambda: ms.grad(Picked(1))(p))
    attempt(f"{name} grad axis=2", lambda: ms.grad(Picked(2))(p))
