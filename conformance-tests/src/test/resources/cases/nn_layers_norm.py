# nn.BatchNorm1d / nn.BatchNorm2d / nn.LayerNorm: parameters, training-mode output and moving
# statistics, eval-mode output, use_batch_statistics, gradients, GRAPH_MODE equal to PYNATIVE,
# constructor errors.
import mindspore as ms
from mindspore import Tensor, nn
from _case_util import attempt, fix, vals


def params(net):
    return [(p.name, p.shape, p.requires_grad) for p in net.get_parameters()]


class Weighted(nn.Cell):
    """sum(net(x) * w): a loss whose gradient does not vanish through the normalization."""

    def __init__(self, net, w):
        super().__init__()
        self.net = net
        self.w = w

    def construct(self, inp):
        return (self.net(inp) * self.w).sum()


x4 = Tensor([[[[float((i * 7 + j * 3 + c * 5 + n * 2) % 11) / 4.0 - 1.0 for j in range(3)] for i in range(2)]
               for c in range(3)] for n in range(2)])
w4 = Tensor([[[[float((i + 2 * j + c + n) % 5) - 2.0 for j in range(3)] for i in range(2)]
               for c in range(3)] for n in range(2)])
x2 = Tensor([[1.0, 2.0, -1.0], [3.0, -2.0, 0.5], [0.0, 1.5, 2.5], [-1.0, 0.25, 4.0]])
w2 = Tensor([[1.0, -1.0, 2.0], [0.5, 3.0, -2.0], [-1.0, 1.0, 1.0], [2.0, 0.0, -0.5]])
x3 = Tensor([[[1.0, 2.0], [-1.0, 3.0]], [[0.5, -2.0], [2.0, 0.0]], [[4.0, 1.0], [1.0, -3.0]]])
w3 = Tensor([[[1.0, -2.0], [0.5, 1.0]], [[2.0, 1.0], [-1.0, 0.0]], [[1.0, 3.0], [2.0, -1.0]]])


def bn_report(label, net, x, w):
    y = net(x)
    print(label, "out", y.shape, vals(y))
    print(label, "moving", vals(net.moving_mean), vals(net.moving_variance))
    gx, gw = ms.grad(Weighted(net, w), grad_position=0, weights=net.trainable_params())(x)
    print(label, "grad x", vals(gx))
    print(label, "grad w", [vals(g) for g in gw])
    print(label, "moving after grad", vals(net.moving_mean), vals(net.moving_variance))


def run_all(mode_label):
    print(mode_label)
    bn2 = nn.BatchNorm2d(3)
    print("bn2", params(bn2), bn2.momentum)
    bn2.set_train()
    bn_report("bn2 train", bn2, x4, w4)
    bn_report("bn2 train again", bn2, x4 * 2.0, w4)
    bn2.set_train(False)
    bn_report("bn2 eval", bn2, x4, w4)

    bnm = nn.BatchNorm2d(3, eps=1e-3, momentum=0.5, gamma_init=2.0, beta_init='ones', moving_mean_init=0.5,
                         moving_var_init=2.0, affine=False)
    print("bnm", params(bnm), [p.name for p in bnm.trainable_params()])
    bnm.set_train()
    y = bnm(x4)
    print("bnm train", vals(y), vals(bnm.moving_mean), vals(bnm.moving_variance))
    bnm.set_train(False)
    print("bnm eval", vals(bnm(x4)))

    bn1 = nn.BatchNorm1d(3)
    bn1.set_train()
    bn_report("bn1 train", bn1, x2, w2)
    bn1.set_train(False)
    bn_report("bn1 eval", bn1, x2, w2)
    bn13 = nn.BatchNorm1d(2, momentum=0.8)
    bn13.set_train()
    bn_report("bn1 3-D train", bn13, x3, w3)
    bn13.set_train(False)
    bn_report("bn1 3-D eval", bn13, x3, w3)

    ubs = nn.BatchNorm1d(3, use_batch_statistics=True)
    print("ubs eval-mode", vals(ubs(x2)), vals(ubs.moving_mean), vals(ubs.moving_variance))
    ubf = nn.BatchNorm1d(3, use_batch_statistics=False, moving_mean_init=1.0, moving_var_init=4.0)
    ubf.set_train()
    print("ubf train-mode", vals(ubf(x2)), vals(ubf.moving_mean), vals(ubf.moving_variance))

    ln = nn.LayerNorm((3,))
    print("ln", params(ln))
    y = ln(x2)
    print("ln out", vals(y))
    gx, gw = ms.grad(Weighted(ln, w2), grad_position=0, weights=ln.trainable_params())(x2)
    print("ln grad", vals(gx), [vals(g) for g in gw])
    ln2 = nn.LayerNorm((2, 3), begin_norm_axis=2, begin_params_axis=2, gamma_init=2.0, beta_init=0.5,
                       epsilon=1e-5)
    y = ln2(x4)
    print("ln2 out", y.shape, vals(y))
    gx, gw = ms.grad(Weighted(ln2, w4), grad_position=0, weights=ln2.trainable_params())(x4)
    print("ln2 grad", vals(gx), [vals(g) for g in gw])
    ln3 = nn.LayerNorm([3, 2, 3], begin_norm_axis=1, begin_params_axis=1)
    y = ln3(x4)
    print("ln3 out", vals(y))
    gx, gw = ms.grad(Weighted(ln3, w4), grad_position=0, weights=ln3.trainable_params())(x4)
    print("ln3 grad", vals(gx), [vals(g) for g in gw])


run_all("PYNATIVE_MODE")
ms.set_context(mode=ms.GRAPH_MODE)
run_all("GRAPH_MODE")
ms.set_context(mode=ms.PYNATIVE_MODE)

errors = [
    ("BatchNorm2d(0)", lambda: nn.BatchNorm2d(0)),
    ("BatchNorm2d(2.0)", lambda: nn.BatchNorm2d(2.0)),
    ("BatchNorm2d(2, momentum=1.5)", lambda: nn.BatchNorm2d(2, momentum=1.5)),
    ("BatchNorm2d(2, momentum=-0.1)", lambda: nn.BatchNorm2d(2, momentum=-0.1)),
    ("BatchNorm2d(2, use_batch_statistics=1)", lambda: nn.BatchNorm2d(2, use_batch_statistics=1)),
    ("BatchNorm2d(2, data_format='NCL')", lambda: nn.BatchNorm2d(2, data_format='NCL')),
    ("BatchNorm1d(-3)", lambda: nn.BatchNorm1d(-3)),
    ("BatchNorm2d(3)(x2)", lambda: nn.BatchNorm2d(3)(x2)),
    ("BatchNorm1d(3)(x4)", lambda: nn.BatchNorm1d(3)(x4)),
    ("LayerNorm(3)", lambda: nn.LayerNorm(3)),
    ("LayerNorm(())", lambda: nn.LayerNorm(())),
    ("LayerNorm([])", lambda: nn.LayerNorm([])),
]
for label, fn in errors:
    attempt(label, lambda fn=fn: fn() and None)
