# nn.Conv2d: default initializers (seeded), parameter names/shapes, forward in each pad mode,
# gradients w.r.t. input and weights, GRAPH_MODE equal to PYNATIVE, constructor errors.
import mindspore as ms
from mindspore import Tensor, nn
from _case_util import attempt, fix, vals


class SumOf(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, inp):
        return self.net(inp).sum()


def params(net):
    return [(p.name, p.shape, p.requires_grad) for p in net.get_parameters()]


x = Tensor([[[[float((i * 7 + j * 3 + c * 5) % 11) / 5.0 - 1.0 for j in range(5)] for i in range(5)]
              for c in range(2)]])

ms.set_seed(1)
conv = nn.Conv2d(2, 3, 3)
convb = nn.Conv2d(2, 3, 3, stride=2, pad_mode='pad', padding=1, has_bias=True)
convv = nn.Conv2d(2, 2, (2, 3), pad_mode='valid', dilation=(1, 2), has_bias=True, bias_init='ones')
convp = nn.Conv2d(2, 1, 3, pad_mode='pad', padding=(1, 0, 2, 1), weight_init='ones')
for name, net in (("conv", conv), ("convb", convb), ("convv", convv), ("convp", convp)):
    print(name, params(net))
    for p in net.get_parameters():
        print(" ", p.name, vals(p))


def run_all():
    for name, net in (("conv", conv), ("convb", convb), ("convv", convv), ("convp", convp)):
        y = net(x)
        print(name, "forward", y.shape, vals(y))
        gx, gw = ms.grad(SumOf(net), grad_position=0, weights=net.trainable_params())(x)
        print(name, "grad x", vals(gx))
        print(name, "grad w", [vals(g) for g in gw])


run_all()
ms.set_context(mode=ms.GRAPH_MODE)
print("GRAPH_MODE")
run_all()
ms.set_context(mode=ms.PYNATIVE_MODE)

errors = [
    ("in_channels=0", lambda: nn.Conv2d(0, 3, 3)),
    ("out_channels=-1", lambda: nn.Conv2d(2, -1, 3)),
    ("kernel_size=0", lambda: nn.Conv2d(2, 3, 0)),
    ("kernel_size=(1, 2, 3)", lambda: nn.Conv2d(2, 3, (1, 2, 3))),
    ("kernel_size=1.5", lambda: nn.Conv2d(2, 3, 1.5)),
    ("stride=0", lambda: nn.Conv2d(2, 3, 3, stride=0)),
    ("dilation=(1, 0)", lambda: nn.Conv2d(2, 3, 3, dilation=(1, 0))),
    ("padding=-1", lambda: nn.Conv2d(2, 3, 3, pad_mode='pad', padding=-1)),
    ("padding=1.0", lambda: nn.Conv2d(2, 3, 3, pad_mode='pad', padding=1.0)),
    ("group=0", lambda: nn.Conv2d(2, 4, 3, group=0)),
    ("group=3", lambda: nn.Conv2d(2, 4, 3, group=3)),
    ("has_bias=1", lambda: nn.Conv2d(2, 3, 3, has_bias=1)),
    ("data_format='NC'", lambda: nn.Conv2d(2, 3, 3, data_format='NC')),
]
for label, fn in errors:
    attempt(label, lambda fn=fn: fn() and None)
