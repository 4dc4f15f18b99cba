# A gradient reuses the forward a set_grad() cell has just run on the same inputs (MindSpore's
# PYNATIVE grad executor; one forward in a GRAPH_MODE step): a BatchNorm's moving statistics
# update once per TrainOneStepCell step in both modes. PYNATIVE: the same input objects only, the
# latest call only, used once, and only for a cell marked by set_grad(); GRAPH_MODE: with or
# without set_grad().
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        w = Tensor(np.array([[0.5, -1, 2, 0], [1, 1, -0.5, 2], [-2, 0.5, 1, 1]], np.float32))
        self.fc = nn.Dense(4, 3, weight_init=w, bias_init="zeros")
        self.bn = nn.BatchNorm1d(3)
        self.k = Tensor(np.array([[1, 2, 3], [4, 5, 7], [-1, 0, 2], [3, -2, 1]], np.float32))

    def construct(self, x):
        return (self.bn(self.fc(x)) * self.k).sum()


def fresh(set_grad):
    net = Net()
    net.set_train()
    if set_grad:
        net.set_grad()
    return net


def fmt(a):
    return " ".join(f"{v:.3f}" for v in np.asarray(a).ravel())


def stats(net):
    return f"mean [{fmt(net.bn.moving_mean.asnumpy())}] var [{fmt(net.bn.moving_variance.asnumpy())}]"


x = Tensor(np.array([[0, 1, 2, 3], [4, -5, 6, 1], [2, 2, -1, 0], [1, 0, 3, -2]], np.float32) * 1.13)
y = x * 2
grad = ops.GradOperation(get_by_list=True)

for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = Net()
    step = nn.TrainOneStepCell(nn.WithLossCell(nn.SequentialCell([net.fc, net.bn]), nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.01))
    step.set_train()
    for i in range(2):
        loss = step(x, Tensor(np.zeros((4, 3), np.float32)))
        print(mode, "TrainOneStepCell", i, fmt(loss.asnumpy()), stats(net))

ms.set_context(mode=ms.PYNATIVE_MODE)
for set_grad in (False, True):
    def run(tag, calls):
        net = fresh(set_grad)
        for c in calls:
            g = c(net)
        print("set_grad", set_grad, tag, stats(net), "grad", fmt(g[0].asnumpy()))

    weights = lambda n: n.trainable_params()
    fwd = lambda n: (n(x), None)[1]
    run("forward then grad", [fwd, lambda n: grad(n, weights(n))(x)])
    run("grad on another tensor", [fwd, lambda n: grad(n, weights(n))(Tensor(x.asnumpy()))])
    run("grad on other values", [fwd, lambda n: grad(n, weights(n))(y)])
    run("forward, forward, grad", [fwd, fwd, lambda n: grad(n, weights(n))(x)])
    run("forward, grad, grad", [fwd, lambda n: grad(n, weights(n))(x), lambda n: grad(n, weights(n))(x)])
    run("grad alone", [lambda n: grad(n, weights(n))(x)])
    run("weights changed between", [fwd, lambda n: (n.fc.weight.set_data(n.fc.weight * 2), None)[1],
                                     lambda n: grad(n, weights(n))(x)])
    run("value_and_grad", [fwd, lambda n: ms.value_and_grad(n, None, weights(n))(x)[1]])


class Step(nn.Cell):
    """A hand-written training step: loss, then the gradient on the same or on other inputs."""

    def __init__(self, net, other):
        super().__init__()
        self.net = net
        self.other = other
        self.weights = net.trainable_params()
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, a):
        loss = self.net(a)
        grads = self.grad(self.net, self.weights)(a + 1.0 if self.other else a)
        return loss, grads[0]


ms.set_context(mode=ms.GRAPH_MODE)
for set_grad, other in ((True, False), (True, True), (False, False)):
    net = fresh(set_grad)
    loss, g = Step(net, other)(x)
    print("graph step, set_grad", set_grad, "other inputs", other, fmt(loss.asnumpy()), stats(net), "grad", fmt(g.asnumpy()))

# The wrappers that take a loss and its gradient: ForwardValueAndGrad marks its network set_grad().
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = fresh(False)
    loss, g = nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_by_list=True)(x)
    print(mode, "ForwardValueAndGrad", fmt(loss.asnumpy()), stats(net), "grad", fmt(g[0].asnumpy()))
    net = fresh(False)
    loss, (gx, gw) = nn.ForwardValueAndGrad(net, weights=net.trainable_params(), get_all=True, get_by_list=True,
                                            sens_param=True)(x, Tensor(2.0, ms.float32))
    print(mode, "ForwardValueAndGrad sens", fmt(loss.asnumpy()), stats(net), "dx", fmt(gx[0].asnumpy()),
          "dw", fmt(gw[0].asnumpy()))
    net = fresh(False)
    g = nn.WithGradCell(net)(x)
    print(mode, "WithGradCell", stats(net), "grad", fmt(g[0].asnumpy()))
try:
    nn.ForwardValueAndGrad(net, get_by_list=True)
except TypeError as e:
    print("TypeError", e)
