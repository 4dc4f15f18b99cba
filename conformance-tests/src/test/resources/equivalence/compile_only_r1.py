# ranks: 1
# MindSpore's compile-only entry point, stand-alone: _cell_graph_executor.compile(step, x, y) traces
# the training step on shapes alone (no kernel runs, the weights do not move), returns (phase, True)
# the first time and (phase, False) after; the calls that follow replay the compiled graph and give
# exactly the losses of a plain GRAPH_MODE run. A construct with data-dependent Python control flow
# compiles (it will run eagerly, as a GRAPH_MODE call would); a non-cell is MindSpore's
# AttributeError.
import mindspore as ms
from mindspore import nn, Tensor
from mindspore.common.api import _cell_graph_executor
from mindspore._host import host

ms.set_context(mode=ms.GRAPH_MODE)


def make():
    ms.set_seed(3)
    net = nn.Dense(4, 3)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    return net, step


x = Tensor([[0.1 * (i + j) for j in range(4)] for i in range(5)], ms.float32)
y = Tensor([[0.2 * (i - j) for j in range(3)] for i in range(5)], ms.float32)
net, step = make()
before = net.weight.value().tolist()
k0 = host().kernelCalls()
phase, compiled = _cell_graph_executor.compile(step, x, y)
print("compiled:", compiled, "kernels run by the compile:", host().kernelCalls() - k0)
print("weights unchanged by the compile:", net.weight.value().tolist() == before)
print("compiled again:", _cell_graph_executor.compile(step, x, y)[1])
losses = [step(x, y).item() for _ in range(4)]
net2, step2 = make()
ref = [step2(x, y).item() for _ in range(4)]
print("losses after compile-only == plain GRAPH_MODE run:", losses == ref, "and fall:", losses[3] < losses[0])


class Reads(nn.Cell):
    def construct(self, a):
        if a.sum() > 0:
            return a * 2
        return a


r = Reads()
print("a data-dependent construct compiles:", _cell_graph_executor.compile(r, x)[1],
      "then runs:", r(x).sum().item() > 0)
try:
    _cell_graph_executor.compile(object(), x)
except AttributeError as e:
    print("AttributeError:", e)
