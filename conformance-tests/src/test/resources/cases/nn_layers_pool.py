# nn.MaxPool2d / nn.AvgPool2d: defaults, 'valid'/'same' windows, strides, 3-D input, gradients,
# GRAPH_MODE equal to PYNATIVE, constructor errors.
import mindspore as ms
from mindspore import Tensor, nn
from _case_util import attempt, fix, vals


class SumOf(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, inp):
        return (self.net(inp) * self.net(inp)).sum()


x = Tensor([[[[float((i * 7 + j * 3 + c * 5) % 11) / 4.0 - 1.0 for j in range(5)] for i in range(6)]
              for c in range(2)]])
x3 = Tensor([[[float((i * 5 + j) % 7) for j in range(4)] for i in range(4)]])

nets = [
    ("MaxPool2d()", nn.MaxPool2d()),
    ("MaxPool2d(2)", nn.MaxPool2d(2)),
    ("MaxPool2d(2, 2)", nn.MaxPool2d(2, 2)),
    ("MaxPool2d(3, 2, 'same')", nn.MaxPool2d(3, 2, 'same')),
    ("MaxPool2d((2, 3), (1, 2), 'SAME')", nn.MaxPool2d((2, 3), (1, 2), 'SAME')),
    ("AvgPool2d()", nn.AvgPool2d()),
    ("AvgPool2d(2, 2)", nn.AvgPool2d(2, 2)),
    ("AvgPool2d(3, 2, 'same')", nn.AvgPool2d(3, 2, 'same')),
    ("AvgPool2d((3, 2), (2, 1))", nn.AvgPool2d((3, 2), (2, 1))),
    ("AvgPool2d(kernel_size=(2,), stride=(2,))", nn.AvgPool2d(kernel_size=(2,), stride=(2,))),
]


def run_all():
    for label, net in nets:
        y = net(x)
        print(label, y.shape, vals(y))
        print("  grad", vals(ms.grad(SumOf(net))(x)))
    for label, net in (nets[2], nets[6]):
        y = net(x3)
        print(label, "3-D", y.shape, vals(y))


for label, net in nets[:3]:
    print(label, net.kernel_size, net.stride, net.pad_mode)
run_all()
ms.set_context(mode=ms.GRAPH_MODE)
print("GRAPH_MODE")
run_all()
ms.set_context(mode=ms.PYNATIVE_MODE)

errors = [
    ("MaxPool2d(0)", lambda: nn.MaxPool2d(0)),
    ("MaxPool2d(2.0)", lambda: nn.MaxPool2d(2.0)),
    ("MaxPool2d((2, 0))", lambda: nn.MaxPool2d((2, 0))),
    ("MaxPool2d(2, -1)", lambda: nn.MaxPool2d(2, -1)),
    ("MaxPool2d(pad_mode='full')", lambda: nn.MaxPool2d(pad_mode='full')),
    ("MaxPool2d(pad_mode=1)", lambda: nn.MaxPool2d(pad_mode=1)),
    ("MaxPool2d(padding=1)", lambda: nn.MaxPool2d(2, padding=1)),
    ("MaxPool2d(ceil_mode=True)", lambda: nn.MaxPool2d(2, ceil_mode=True)),
    ("MaxPool2d(return_indices=True)", lambda: nn.MaxPool2d(2, pad_mode='same', return_indices=True)),
    ("MaxPool2d(dilation=2)", lambda: nn.MaxPool2d(2, dilation=2)),
    ("MaxPool2d(data_format='NCDHW')", lambda: nn.MaxPool2d(2, data_format='NCDHW')),
    ("AvgPool2d(-2)", lambda: nn.AvgPool2d(-2)),
    ("AvgPool2d(stride=(1, 1.0))", lambda: nn.AvgPool2d(stride=(1, 1.0))),
    ("AvgPool2d(pad_mode='pads')", lambda: nn.AvgPool2d(pad_mode='pads')),
    ("AvgPool2d(divisor_override=0)", lambda: nn.AvgPool2d(2, divisor_override=0)),
    ("AvgPool2d(padding=1)", lambda: nn.AvgPool2d(2, padding=1)),
    ("AvgPool2d(padding=(1, 2), 'same')", lambda: nn.AvgPool2d(2, pad_mode='same', padding=(1, 2))),
]
for label, fn in errors:
    attempt(label, lambda fn=fn: fn() and None)
