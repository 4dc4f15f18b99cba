# ranks: 8
# ms.parallel.shard on plain functions (mint.matmul and mint.nn.functional.relu inside a Cell, as the
# docs' mint operator-parallel samples write it): the functions' in_strategy reaches the planner
# (the weight the sharded matmul reads is split 4 ways by rows, as its (4, 1) strategy says; before,
# function strategies were dropped and it stayed whole) and the result equals the stand-alone run.
import numpy as np
import mindspore as ms
from mindspore import nn, mint
from mindspore.communication import init

ms.set_context(mode=ms.GRAPH_MODE)
init()


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.arange(64 * 32, dtype=np.float32).reshape(64, 32) / 1000), name="w")
        self.mm = ms.parallel.shard(mint.matmul, in_strategy=((2, 4), (4, 1)))
        self.relu = ms.parallel.shard(mint.nn.functional.relu, in_strategy=((8, 1),))

    def construct(self, x):
        return self.relu(self.mm(x, self.w)).sum()


x = ms.Tensor(np.arange(16 * 64, dtype=np.float32).reshape(16, 64) / 100 - 3)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref = float(Net()(x))
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)
net = Net()
out = float(net(x))
layout = net.parameter_layout_dict["w"]
print("w slice shape", layout[2], "rows split", 64 // layout[2][0], "ways")
print("result == stand-alone within 1e-6 relative:", abs(out - ref) <= 1e-6 * abs(ref))
