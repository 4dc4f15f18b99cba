# The compute core's acceptance check: a tiny MLP (4-5-3, ReLU, sparse softmax cross entropy, SGD
# lr 0.1 written with ms.value_and_grad and P.Assign) trained 3 steps in PYNATIVE_MODE and in
# GRAPH_MODE (the whole step traced once and replayed), against the same computation in float64
# in plain Python. Losses must agree with the float64 reference to 2e-5.
import math

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.ops import operations as P

W1 = [[0.1, -0.2, 0.3, 0.05], [-0.3, 0.2, 0.1, -0.1], [0.25, 0.15, -0.05, 0.2],
      [0.05, -0.1, -0.2, 0.3], [-0.15, 0.3, 0.2, -0.25]]
B1 = [0.01, -0.02, 0.03, 0.0, 0.05]
W2 = [[0.2, -0.1, 0.05, 0.3, -0.2], [-0.25, 0.15, 0.1, -0.05, 0.2], [0.1, 0.2, -0.3, 0.05, 0.1]]
B2 = [0.0, 0.01, -0.01]
X = [[0.5, -1.0, 0.25, 2.0], [1.5, 0.5, -0.5, -1.0], [-0.75, 0.25, 1.0, 0.5], [0.0, -0.5, 1.5, -1.5]]
Y = [0, 2, 1, 2]
LR = 0.1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 5, weight_init=Tensor(W1), bias_init=Tensor(B1))
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(5, 3, weight_init=Tensor(W2), bias_init=Tensor(B2))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class TrainStep(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
        self.weights = net.trainable_params()
        self.grad_fn = ms.value_and_grad(self.forward, None, self.weights)
        self.assign = P.Assign()

    def forward(self, x, y):
        return self.loss_fn(self.net(x), y)

    def construct(self, x, y):
        loss, grads = self.grad_fn(x, y)
        for w, g in zip(self.weights, grads):
            self.assign(w, w - g * LR)
        return loss


def train(mode):
    ms.set_context(mode=mode)
    step = TrainStep(Net())
    x, y = Tensor(X), Tensor(Y, ms.int32)
    return [step(x, y).item() for _ in range(3)]


def reference():
    """The same three steps in float64 with plain Python lists."""
    w1, b1, w2, b2 = [r[:] for r in W1], B1[:], [r[:] for r in W2], B2[:]
    losses = []
    n = len(X)
    for _ in range(3):
        h = [[max(0.0, sum(w1[j][k] * x[k] for k in range(4)) + b1[j]) for j in range(5)] for x in X]
        z = [[sum(w2[c][j] * hi[j] for j in range(5)) + b2[c] for c in range(3)] for hi in h]
        loss, dz = 0.0, []
        for zi, yi in zip(z, Y):
            m = max(zi)
            e = [math.exp(v - m) for v in zi]
            s = sum(e)
            loss -= math.log(e[yi] / s) / n
            dz.append([(e[c] / s - (1.0 if c == yi else 0.0)) / n for c in range(3)])
        losses.append(loss)
        gw2 = [[sum(dz[i][c] * h[i][j] for i in range(n)) for j in range(5)] for c in range(3)]
        gb2 = [sum(dz[i][c] for i in range(n)) for c in range(3)]
        dh = [[sum(dz[i][c] * w2[c][j] for c in range(3)) * (1.0 if h[i][j] > 0 else 0.0) for j in range(5)]
              for i in range(n)]
        gw1 = [[sum(dh[i][j] * X[i][k] for i in range(n)) for k in range(4)] for j in range(5)]
        gb1 = [sum(dh[i][j] for i in range(n)) for j in range(5)]
        w1 = [[w1[j][k] - LR * gw1[j][k] for k in range(4)] for j in range(5)]
        b1 = [b1[j] - LR * gb1[j] for j in range(5)]
        w2 = [[w2[c][j] - LR * gw2[c][j] for j in range(5)] for c in range(3)]
        b2 = [b2[c] - LR * gb2[c] for c in range(3)]
    return losses


ref = reference()
pynative = train(ms.PYNATIVE_MODE)
graph = train(ms.GRAPH_MODE)
print("reference", [round(v, 6) for v in ref])
print("pynative ", [round(v, 6) for v in pynative])
print("graph    ", [round(v, 6) for v in graph])
print("pynative within 2e-5 of float64:", all(abs(a - b) <= 2e-5 for a, b in zip(pynative, ref)))
print("graph within 2e-5 of float64:", all(abs(a - b) <= 2e-5 for a, b in zip(graph, ref)))
print("graph == pynative:", graph == pynative)
print("loss decreases:", pynative[0] > pynative[1] > pynative[2])


def train_wrapped(mode):
    """The same network with MindSpore's own wrappers and a different batch each step."""
    ms.set_context(mode=mode)
    net = Net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')),
                               nn.SGD(net.trainable_params(), learning_rate=LR, momentum=0.9))
    losses = []
    for s in range(3):
        xs = Tensor(X[s:] + X[:s])
        ys = Tensor(Y[s:] + Y[:s], ms.int32)
        losses.append(step(xs, ys).item())
    return losses, [round(v, 5) for v in net.fc1.weight.reshape((-1,)).tolist()[:4]]


wp, wp_w = train_wrapped(ms.PYNATIVE_MODE)
wg, wg_w = train_wrapped(ms.GRAPH_MODE)
print("wrapped pynative", [round(v, 5) for v in wp], wp_w)
print("wrapped graph   ", [round(v, 5) for v in wg], wg_w)
print("wrapped graph within 1e-6 of pynative:", all(abs(a - b) <= 1e-6 for a, b in zip(wg, wp)))
