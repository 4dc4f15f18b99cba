# ranks: 2
# Cell.shard and mindspore.parallel.shard in a 2-rank job: the checks and messages of MindSpore 2.10's
# Shard (parallel/shard.py) and what the cell records (_in_strategy, _out_strategy; Layouts as dicts).
import mindspore as ms
from mindspore import nn
from mindspore.communication import init
from mindspore.parallel import Layout, shard
from _case_util import attempt

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
init()
layout = Layout((2, 1), ("dp", "mp"))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def cell_shard(label, *args, **kwargs):
    def run():
        net = Net()
        out = net.shard(*args, **kwargs)
        return out, net._in_strategy, net._out_strategy
    attempt(label, run)


cell_shard("tuples", ((2, 1),))
cell_shard("tuples with out", ((2, 1),), ((2, 1),))
cell_shard("layouts", (layout("dp", "mp"),), (layout("dp", "None"),))
cell_shard("in list", [(2, 1)])
cell_shard("in int element", (2, 1))
cell_shard("float in tuple", ((2, 1.0),))
cell_shard("mixed kinds", ((2, 1), layout("dp", "mp")))
cell_shard("empty in", ())
cell_shard("out list", ((2, 1),), [(2, 1)])
cell_shard("out mixed", ((2, 1),), ((2, 1), layout("dp", "mp")))
cell_shard("plan ok", ((2, 1),), parameter_plan={"self.dense.weight": (2, 1)})
cell_shard("plan layout", ((2, 1),), parameter_plan={"dense.weight": layout("dp", "mp")})
cell_shard("plan unknown name", ((2, 1),), parameter_plan={"nothing": (2, 1)})
cell_shard("plan list", ((2, 1),), parameter_plan=[(2, 1)])
cell_shard("plan int key", ((2, 1),), parameter_plan={1: (2, 1)})
cell_shard("plan list value", ((2, 1),), parameter_plan={"dense.weight": [2, 1]})
cell_shard("plan wrong rank", ((2, 1),), parameter_plan={"dense.weight": (2,)})
cell_shard("plan not dividing", ((2, 1),), parameter_plan={"dense.weight": (3, 1)})
twice = Net()
twice.shard(((2, 1),))
twice.shard(((1, 2),))
print("shard twice keeps the last:", twice._in_strategy)


def add(x, y):
    return x + y


attempt("shard(fn) callable", lambda: callable(shard(add, ((2, 1), (2, 1)))) and shard(add, ((2, 1), (2, 1))) is not add)
attempt("shard(fn) in list", lambda: shard(add, [(2, 1)]))
attempt("shard(fn) out int", lambda: shard(add, ((2, 1),), 3))
attempt("shard(fn) plan on a function", lambda: shard(add, ((2, 1),), parameter_plan={"w": (2, 1)}))
attempt("shard(cell) returns a function", lambda: type(shard(Net(), ((2, 1),))).__name__)
