# ops.Print, ops.print_, ops.Depend, ops.depend (MindSpore 2.10): eagerly a tensor prints as its repr; inside a
# GRAPH_MODE cell Print writes each time the graph runs, in graph-mode text (no commas, 0-d tensors as values,
# True as 1); Depend returns its first input.
import mindspore as ms
from mindspore import nn, ops, Tensor

x = Tensor([[1.0, 2.0], [3.0, 4.0]], ms.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.print = ops.Print()

    def construct(self, a):
        b = a * 2
        self.print("b is", b, 3, True, Tensor(2.5, ms.float32))
        return ops.depend(b + 1, b)


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    print("mode", mode, flush=True)
    print("returned", ops.Print()("x:", x, Tensor([1, 22, 3], ms.int32)), flush=True)
    ops.print_("print_", x[0])
    net = Net()
    print("net", net(x), flush=True)
    print("again", net(x + 1), flush=True)
    print("depend", ops.Depend()(x, x * 2), flush=True)
