# Seed 001 (r1.2 programming guide), snippet "fusion" on a Cell/Parameter (uses numpy, as the seed does).
# The seed snippet relies on `ops` and `np` imported by earlier snippets; they are imported here.
import numpy as np
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor, Parameter
from mindspore import context


class Net(nn.Cell):
    """Net definition"""
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = ops.MatMul()
        self.fc2 = ops.MatMul()
        self.p1 = Parameter(Tensor(np.ones([48, 64]).astype(np.float32)), name="weight1")
        self.p1.comm_fusion = 2
        self.p2 = Parameter(Tensor(np.ones([64, 16]).astype(np.float32)), name="weight2")

    def construct(self, x, y):
        x = self.fc1(x, self.p1)
        x = self.fc2(x, self.p2)
        return x - y


context.set_context(mode=context.GRAPH_MODE)
context.set_auto_parallel_context(parallel_mode="auto_parallel", device_num=8)
net = Net().set_comm_fusion(2)
print(type(net).__name__)
for p in net.trainable_params():
    print(p.name, p.comm_fusion)
net.set_comm_fusion(3)
print([p.comm_fusion for p in net.get_parameters()])
print(context.get_auto_parallel_context("parallel_mode"), context.get_auto_parallel_context("device_num"))
