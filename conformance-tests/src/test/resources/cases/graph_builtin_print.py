# Python's print() inside construct (MindSpore 2.10): in GRAPH_MODE the compiler makes it a Print
# operator, so every run of the graph writes the step's values, each item on its own line and tensors
# in graph-mode text, constants (a shape, a string, a number) included; a print inside a jit function
# too; in PYNATIVE_MODE it is Python's print of the tensor. Golden from MindSpore 2.10's CPU wheel.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def construct(self, x, y):
        z = x * y
        print("output:", z)
        print("sum", z.sum(), 3, "end")
        print(x.shape)
        return z + 1


@ms.jit
def scaled(x):
    y = x * 3
    print("in jit", y)
    return y


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = Net()
    for step in range(2):
        out = net(Tensor(np.full([2, 3], step + 1, np.float32)), Tensor(np.full([2, 1], 2.0, np.float32)))
        print("mode", mode, "step", step, "returned", out.sum(), flush=True)
    print("jit returned", scaled(Tensor(np.array([1.0, 2.0], np.float32))), flush=True)
