# Compile-only semi_auto_parallel as MindSpore's own parallel tests do it: device_num and global_rank
# set, no init(), `_cell_graph_executor.compile`, then `_get_shard_strategy` and
# `parameter_layout_dict` read; an invalid strategy is a RuntimeError; the world is left afterwards.
# MindSpore 2.10's CPU wheel refuses the compile ("Invalid communication backend: CPU"); the golden
# holds the layouts its Ascend UTs assert for these strategies (see DEVIATIONS.md).
import numpy as np
import mindspore as ms
from mindspore import Tensor, context, nn
from mindspore.common.api import _cell_graph_executor
from mindspore.communication._comm_helper import GlobalComm
from mindspore.ops import operations as P
from mindspore.parallel._auto_parallel_context import auto_parallel_context
from mindspore.parallel._utils import _reset_op_id
from _case_util import attempt


class Net(nn.Cell):
    def __init__(self, mm=((2, 4), (4, 1)), addn=((2, 2), (2, 2))):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones((32, 16), np.float32)), name="w")
        self.b = ms.Parameter(Tensor(np.zeros((16,), np.float32)), name="b")
        self.mm = P.MatMul().shard(mm)
        self.relu = P.ReLU().shard(((8, 1),))
        self.add = P.Add().shard(((4, 2), (2,)))
        self.addn = P.AddN().shard(addn)

    def construct(self, x, y):
        h = self.relu(self.mm(x, self.w))
        return self.addn([self.add(h, self.b), y])


x = Tensor(np.ones((64, 32), np.float32))
y = Tensor(np.ones((64, 16), np.float32))
context.set_context(mode=context.GRAPH_MODE)
ctx = auto_parallel_context()
ctx.set_enable_all_reduce_fusion(enable_all_reduce_fusion=True)
print("get_enable_all_reduce_fusion", ctx.get_enable_all_reduce_fusion())
for rank in (0, 3):
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8, global_rank=rank)
    print("get_parallel_mode", ctx.get_parallel_mode(), "get_device_num_is_set", ctx.get_device_num_is_set(),
          "get_global_rank_is_set", ctx.get_global_rank_is_set())
    _reset_op_id()
    net = Net()
    phase, fresh = _cell_graph_executor.compile(net, x, y)
    print("rank", rank, "compiled", fresh, "again", _cell_graph_executor.compile(net, x, y)[1])
    for name, strategy in sorted(_cell_graph_executor._get_shard_strategy(net).items()):
        print(" ", name, strategy)
    for name, layout in sorted(net.parameter_layout_dict.items()):
        print(" ", name, layout[:6])
    print("  INITED after compile:", GlobalComm.INITED)
    context.reset_auto_parallel_context()

context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8, global_rank=0)
attempt("AddN strategies that disagree",
        lambda: _cell_graph_executor.compile(Net(addn=((2, 2), (2, 1))), x, y)[1])
attempt("MatMul strategy over 16 devices",
        lambda: _cell_graph_executor.compile(Net(mm=((4, 4), (4, 1))), x, y)[1])
context.reset_auto_parallel_context()
net = Net()
print("stand_alone compiled", _cell_graph_executor.compile(net, x, y)[1],
      "strategies", _cell_graph_executor._get_shard_strategy(net))


class DataParallelNet(nn.Cell):
    """Cell.set_data_parallel: the calls without a strategy get the data-parallel one (input 0's
    first dimension, and the dimensions sharing it, over all devices); a sharded call keeps its own."""

    def __init__(self):
        super().__init__()
        self.matmul = P.MatMul()
        self.relu = P.ReLU()
        self.mul = P.Mul().shard(((2, 4), (2, 4)))

    def construct(self, a, b):
        return self.mul(self.relu(self.matmul(a, b)), a)


square = Tensor(np.ones((64, 64), np.float32))
for data_parallel in (False, True):
    context.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation", device_num=8,
                                      global_rank=0, dataset_strategy="full_batch")
    _reset_op_id()
    net = DataParallelNet()
    if data_parallel:
        net.set_data_parallel()
    _cell_graph_executor.compile(net, square, square)
    print("set_data_parallel" if data_parallel else "searched",
          sorted(_cell_graph_executor._get_shard_strategy(net).items()))
    context.reset_auto_parallel_context()
