# Primitive.shard(in_strategy, out_strategy): tuple strategies become the attributes
# in_strategy/out_strategy, Layout strategies in_layout/out_layout; the checks and messages of
# MindSpore 2.10 (ops/primitive.py), including the kinds it does not reject (a tuple strategy with
# a Layout after its first element). Also Cell.shard and mindspore.parallel.shard in a one-rank job
# (no-ops: Cell.shard returns None, shard returns the function itself).
import mindspore as ms
from mindspore import nn, ops
from mindspore.parallel import Layout, shard
from _case_util import attempt

layout = Layout((2, 2, 2), ("dp", "sp", "mp"))


def attrs(prim):
    return {k: v for k, v in prim.attrs.items() if k in ("in_strategy", "out_strategy", "in_layout", "out_layout")}


def sharded(label, prim, *args, **kwargs):
    def run():
        out = prim.shard(*args, **kwargs)
        return out is prim, attrs(prim)
    attempt(label, run)


sharded("matmul tuples", ops.MatMul(), ((2, 4), (4, 1)))
sharded("matmul in+out", ops.MatMul(), ((2, 4), (4, 1)), ((8, 1),))
sharded("keyword out", ops.MatMul(), in_strategy=((2, 1), (1, 4)), out_strategy=((2, 4),))
sharded("none none", ops.Add())
sharded("empty in", ops.Add(), ())
sharded("empty in, out", ops.Add(), (), ((2, 2),))
sharded("empty inner", ops.ReLU(), ((),))
sharded("bools", ops.ReLU(), ((True, 2),))
sharded("layouts", ops.MatMul(), (layout("dp", "sp"), layout("sp", "mp")))
sharded("layouts in+out", ops.MatMul(), (layout("dp", "sp"), layout("sp", "mp")), (layout("dp", "mp"),))
sharded("multi-axis layout", ops.ReLU(), (layout(("dp", "sp"), "mp"),))
mixed = ops.Add()
attempt("tuple then layout", lambda: [type(e).__name__ for e in mixed.shard(((2, 2), layout("dp", "mp"))).in_strategy])
sharded("layout then tuple", ops.Add(), (layout("dp", "mp"), (2, 2)))
sharded("in list", ops.Add(), [(2, 2), (2, 2)])
sharded("out list", ops.Add(), ((2, 2), (2, 2)), [(4, 1)])
sharded("in int", ops.Add(), 2)
sharded("element list", ops.Add(), ([2, 2], (2, 2)))
sharded("element int", ops.Add(), (2, 2))
sharded("float value", ops.Add(), ((2, 2.0), (2, 2)))
sharded("str value", ops.Add(), ((2, "2"),))
sharded("nested tuple value", ops.Add(), (((2,), 2),))
sharded("out without in", ops.MatMul(), None, ((8, 1),))
sharded("tuple in, layout out", ops.MatMul(), ((2, 4), (4, 1)), (layout("dp", "mp"),))
sharded("layout in, tuple out", ops.MatMul(), (layout("dp", "sp"), layout("sp", "mp")), ((8, 1),))
sharded("empty out", ops.MatMul(), ((2, 4), (4, 1)), ())
again = ops.MatMul().shard(((2, 4), (4, 1)))
sharded("shard twice", again, ((1, 8), (8, 1)))
print(repr(ops.Add().shard(((1, 2), (1, 2)), ((1, 2),))))

net = nn.Dense(4, 4)
print("Cell.shard on one rank ->", net.shard(((1, 2),)), "and", net.shard("not checked"))


def fn(x):
    return x


print("shard(fn) on one rank is fn:", shard(fn, in_strategy=((2, 1),)) is fn, shard(fn, 5) is fn)
print("shard(cell) on one rank is the cell:", shard(net, in_strategy=((2, 1),)) is net)
