# Dynamic-shape inputs declared with Cell.set_inputs, as MindSpore's dynamic-shape samples write them:
# Tensor(shape=[Symbol(...)/None, ...], dtype=...) placeholders (shape -1 where dynamic, dtype, repr),
# GRAPH_MODE calls with batches of several sizes (values and a training step), and every check
# MindSpore makes of a call against the declaration, in its words: count, rank, static dimension,
# dtype, a Symbol's divisor/min/max/unique, and set_inputs' own checks. (msjvm compiles a graph per
# shape where MindSpore compiles one dynamic graph; the results are the same.)
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Symbol

ms.set_context(mode=ms.GRAPH_MODE)


def flush():
    # MindSpore's CPU wheel reports a failed call's error again at the next operator
    for _ in range(3):
        try:
            ops.Add()(Tensor(1.0), Tensor(1.0))
        except Exception:  # pylint: disable=broad-except
            pass


def attempt(f):
    try:
        f()
        print("ok")
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
    flush()


s0 = Symbol(divisor=4)
x_dyn = Tensor(shape=[s0, 1, 3], dtype=ms.float32)
print(x_dyn.shape, x_dyn.dtype, x_dyn.ndim)
print(repr(Tensor(shape=[None, 2], dtype=ms.int32)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2) / 10), name="w")

    def construct(self, x):
        return ops.matmul(ops.reshape(x, (-1, 3)), self.w)


net = Net()
net.set_inputs(x_dyn)
print("inputs:", [t.shape for t in net.get_inputs()])
for batch in (4, 8, 4, 12):
    x = Tensor(np.arange(batch * 3, dtype=np.float32).reshape(batch, 1, 3))
    out = net(x)
    print(batch, out.shape, np.round(out.asnumpy().sum(), 4))

loss_net = nn.WithLossCell(Net(), nn.MSELoss())
step = nn.TrainOneStepCell(loss_net, nn.SGD(loss_net.trainable_params(), 0.1))
step.set_inputs(Tensor(shape=[None, 1, 3], dtype=ms.float32), Tensor(shape=[None, 2], dtype=ms.float32))
for batch in (2, 5, 2):
    x = Tensor(np.linspace(-1, 1, batch * 3, dtype=np.float32).reshape(batch, 1, 3))
    y = Tensor(np.ones((batch, 2), np.float32))
    print("train", batch, round(float(step(x, y).asnumpy()), 5))

attempt(lambda: net(Tensor(np.ones((6, 1, 3), np.float32))))
attempt(lambda: net(Tensor(np.ones((2, 1, 3), np.float32))))
attempt(lambda: net(Tensor(np.ones((8, 2, 3), np.float32))))
attempt(lambda: net(Tensor(np.ones((8, 1, 3, 1), np.float32))))
attempt(lambda: net(Tensor(np.ones((8, 1, 3), np.int32))))


class Two(nn.Cell):
    def construct(self, x, y):
        return x * 2 + y


for first, shape in ((Symbol(min=4, max=16), (2, 3)), (Symbol(min=4, max=16), (20, 3))):
    two = Two()
    two.set_inputs(Tensor(shape=[first, 3], dtype=ms.float32), Tensor(shape=[None, 3], dtype=ms.float32))
    attempt(lambda: two(Tensor(np.ones(shape, np.float32)), Tensor(np.ones((3, 3), np.float32))))
shared = Symbol(unique=True)
two = Two()
two.set_inputs(Tensor(shape=[shared, 3], dtype=ms.float32), Tensor(shape=[shared, 3], dtype=ms.float32))
attempt(lambda: two(Tensor(np.ones((4, 3), np.float32)), Tensor(np.ones((5, 3), np.float32))))
attempt(lambda: print(two(Tensor(np.ones((4, 3), np.float32)), Tensor(np.ones((4, 3), np.float32))).shape))
attempt(lambda: two(Tensor(np.ones((4, 3), np.float32))))
attempt(lambda: Two().set_inputs(Tensor(shape=[None, 3], dtype=ms.float32)))
attempt(lambda: Two().set_inputs(Tensor(shape=[None, 3], dtype=ms.float32), Tensor(shape=[None, 3], dtype=ms.float32),
                                 Tensor(shape=[None, 3], dtype=ms.float32)))
attempt(lambda: Two().set_inputs(Tensor(shape=[None, 3], dtype=ms.float32), y=Tensor(shape=[None, 3],
                                                                                     dtype=ms.float32)))
