# A small CNN of the new layers (Conv2d -> BatchNorm2d -> ReLU -> MaxPool2d -> Flatten -> Dense,
# Embedding + LayerNorm): parameter names, value_and_grad in train mode, moving statistics, eval
# output, a few SGD-like steps through Parameter updates, GRAPH_MODE equal to PYNATIVE, repr.
import mindspore as ms
from mindspore import Tensor, nn
from mindspore.ops import operations as P
from _case_util import fix, vals


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.avg = nn.AvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.avg(self.pool(self.relu(self.bn(self.conv(x)))))))


class Text(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 4)
        self.norm = nn.LayerNorm((4,))
        self.head = nn.SequentialCell([nn.Dense(4, 2), nn.Tanh()])

    def construct(self, ids):
        return self.head(self.norm(self.emb(ids))).sum(axis=1)


x = Tensor([[[[float((i * 5 + j * 3 + n) % 7) / 3.0 - 1.0 for j in range(4)] for i in range(4)]]
            for n in range(3)])
labels = Tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
ids = Tensor([[0, 5, 2], [3, 3, 1]], ms.int32)
target = Tensor([[0.5, -0.5], [-1.0, 1.0]])


assign = P.Assign()


def train(net, inp, tgt, steps):
    loss_fn = nn.MSELoss()
    forward = lambda a, b: loss_fn(net(a), b)
    vg = ms.value_and_grad(forward, grad_position=None, weights=net.trainable_params())
    for step in range(steps):
        loss, grads = vg(inp, tgt)
        print("  step", step, "loss", fix(loss.item()), "grad norms",
              [fix(float((g * g).sum().item())) for g in grads])
        for p, g in zip(net.trainable_params(), grads):
            assign(p, p - g * 0.1)


def run(mode_label):
    print(mode_label)
    ms.set_seed(7)
    net = Net()
    print([(p.name, p.shape, p.requires_grad) for p in net.get_parameters()])
    net.set_train()
    train(net, x, labels, 3)
    print("  moving", vals(net.bn.moving_mean), vals(net.bn.moving_variance))
    net.set_train(False)
    print("  eval", vals(net(x)))
    text = Text()
    print([(p.name, p.shape) for p in text.get_parameters()])
    text.set_train()
    train(text, ids, target, 3)
    print("  eval", vals(text(ids)))


run("PYNATIVE_MODE")
ms.set_context(mode=ms.GRAPH_MODE)
run("GRAPH_MODE")
ms.set_context(mode=ms.PYNATIVE_MODE)
print(nn.MaxPool2d(2, 2))
print(nn.AvgPool2d((2, 3), 1, 'same'))
print(nn.LayerNorm((4,), epsilon=1e-5).normalized_shape)
print(nn.SequentialCell([nn.MaxPool2d(2, 2), nn.ReLU(), nn.AvgPool2d()]))
