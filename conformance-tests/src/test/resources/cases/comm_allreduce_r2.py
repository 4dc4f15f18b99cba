# ranks: 2
# ops.AllReduce called by the script: PYNATIVE on the world group (float32 and int32 inputs), and
# inside a GRAPH_MODE cell that is called twice (the second call replays). Only float32 "sum":
# MindSpore's CPU kernel refuses other reductions ("AllReduce only support reduce sum on CPU") and
# int32 inputs (TypeError); ours reduces both.
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.communication import init, get_rank

init()
rank = get_rank()
x = Tensor([1.0 + rank, 2.0 * (rank + 1), -3.0 + rank], ms.float32)
ms.set_context(mode=ms.PYNATIVE_MODE)
total = ops.AllReduce(op="sum")(x)
print(f"sum {total}")
print(f"input unchanged {x}")


class Reduce(nn.Cell):
    def __init__(self):
        super().__init__()
        self.allreduce = ops.AllReduce()

    def construct(self, t):
        return self.allreduce(t * 2)


ms.set_context(mode=ms.GRAPH_MODE)
net = Reduce()
first = net(x)
print(f"graph 1 {first}")
second = net(x + 1)
print(f"graph 2 {second}")
