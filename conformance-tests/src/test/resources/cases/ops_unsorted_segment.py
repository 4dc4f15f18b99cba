# MindSpore's segment reductions UnsortedSegmentSum/Prod/Max/Min and their functional forms:
# values (repeated and negative ids, multi-dimensional ids, empty segments holding the reduction's
# identity or the dtype's extreme), dtypes, MindSpore's errors for ids, shapes and num_segments, and
# gradients in both modes (Max/Min share a tied gradient; Prod handles one zero and two zeros).
import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops import operations as P
from _case_util import attempt as _attempt, flush_errors, rounded


def show(r):
    if isinstance(r, (tuple, list)):
        return tuple(show(t) for t in r)
    return (str(r.dtype), r.shape, rounded(r.tolist()))


def attempt(label, fn):
    _attempt(label, lambda: show(fn()))
    flush_errors()


PRIMS = (P.UnsortedSegmentSum, P.UnsortedSegmentProd, P.UnsortedSegmentMax, P.UnsortedSegmentMin)
x = Tensor([[1.0, 2.0], [3.0, -4.0], [5.0, 6.0]], ms.float32)
ids = Tensor([0, 2, 0], ms.int32)
x3 = Tensor([[[float(a * 12 + b * 4 + c) for c in range(4)] for b in range(3)] for a in range(2)], ms.float32)
ids2 = Tensor([[0, 1, 1], [2, 0, 1]], ms.int32)

for prim in PRIMS:
    name = prim.__name__
    attempt(f"{name} rows", lambda: prim()(x, ids, 4))
    attempt(f"{name} 2-D ids", lambda: prim()(x3, ids2, 3))
    attempt(f"{name} int64 ids, negative dropped", lambda: prim()(x3, Tensor([1, -1], ms.int64), 2))
    attempt(f"{name} int32 values", lambda: prim()(Tensor([1, 2, 3], ms.int32), Tensor([0, 0, 1], ms.int32), 3))
    attempt(f"{name} float16", lambda: prim()(Tensor([1.5, 2.0, -3.0], ms.float16), Tensor([1, 1, 0], ms.int32), 3))
    attempt(f"{name} float64", lambda: prim()(Tensor([1.5, 2.0, -3.0], ms.float64), Tensor([1, 1, 0], ms.int32), 3))
    attempt(f"{name} int64 empty", lambda: prim()(Tensor([7, 9], ms.int64), Tensor([0, 0], ms.int32), 2))
    attempt(f"{name} ids shape", lambda: prim()(x, Tensor([0, 1], ms.int32), 3))
    attempt(f"{name} ids rank", lambda: prim()(x, Tensor([[[0]]], ms.int32), 3))
    attempt(f"{name} float ids", lambda: prim()(x, Tensor([0.0, 1.0, 0.0], ms.float32), 3))
    attempt(f"{name} int16 ids", lambda: prim()(x, Tensor([0, 1, 0], ms.int16), 3))
    attempt(f"{name} zero segments", lambda: prim()(x, ids, 0))
    attempt(f"{name} float num_segments", lambda: prim()(x, ids, 3.0))
    attempt(f"{name} bool num_segments", lambda: prim()(x, ids, True))
    attempt(f"{name} scalar input", lambda: prim()(Tensor(3.0), Tensor(0), 2))

attempt("unsorted_segment_sum", lambda: ops.unsorted_segment_sum(x, ids, 3))
attempt("unsorted_segment_prod", lambda: ops.unsorted_segment_prod(x, ids, 3))
attempt("unsorted_segment_max", lambda: ops.unsorted_segment_max(x, ids, 3))
attempt("unsorted_segment_min", lambda: ops.unsorted_segment_min(x, ids, 3))

weights = Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
tied = Tensor([[1.0, 3.0], [1.0, -4.0], [5.0, 6.0]], ms.float32)
zeros = Tensor([[1.0, 0.0], [3.0, 0.0], [0.0, 6.0], [2.0, 0.5]], ms.float32)
zero_ids = Tensor([0, 0, 1, -1], ms.int32)


class Weighted(nn.Cell):
    def __init__(self, prim, segment_ids, num):
        super().__init__()
        self.prim = prim()
        self.segment_ids = segment_ids
        self.num = num

    def construct(self, v):
        out = self.prim(v, self.segment_ids, self.num)
        return (out * weights[:self.num]).sum()


for mode, mode_name in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
    ms.set_context(mode=mode)
    for prim in PRIMS:
        name = prim.__name__
        attempt(f"{mode_name} grad {name}", lambda: ms.grad(Weighted(prim, ids, 3))(x))
        attempt(f"{mode_name} grad {name} ties", lambda: ms.grad(Weighted(prim, Tensor([0, 0, 1], ms.int32), 2))(tied))
        attempt(f"{mode_name} grad {name} zeros, negative id",
                lambda: ms.grad(Weighted(prim, zero_ids, 2))(zeros))
