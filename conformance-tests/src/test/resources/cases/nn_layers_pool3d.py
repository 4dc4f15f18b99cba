# ops.AvgPool3D, nn.AvgPool3d, nn.MaxPool3d and nn.AvgPool2d's pad path (AvgPool3D over one plane):
# valid/same/pad windows, ceil_mode, count_include_pad, divisor_override, 4-D and 3-D inputs,
# gradients, GRAPH_MODE equal to PYNATIVE, constructor and shape errors.
import mindspore as ms
from mindspore import Tensor, nn, ops
from _case_util import attempt, fix, vals


class SumOf(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, inp):
        y = self.net(inp)
        return (y * y).sum()


x5 = Tensor([[[[[float((d * 13 + h * 7 + w * 3 + c * 5) % 11) / 4.0 - 1.0 for w in range(5)]
                for h in range(6)] for d in range(4)] for c in range(2)]])
x4 = Tensor([[[[float((c * 3 + h * 5 + w) % 7) / 2.0 for w in range(5)] for h in range(6)]
              for c in range(2)]])

prims = [
    ("AvgPool3D()", ops.AvgPool3D()),
    ("AvgPool3D(2, 2)", ops.AvgPool3D(2, 2)),
    ("AvgPool3D(3, 1, 'same')", ops.AvgPool3D(3, 1, "same")),
    ("AvgPool3D((2, 3, 2), (1, 2, 2), 'same')", ops.AvgPool3D((2, 3, 2), (1, 2, 2), "same")),
    ("AvgPool3D(3, 2, 'pad', 1)", ops.AvgPool3D(3, 2, "pad", 1)),
    ("AvgPool3D(3, 2, 'pad', 1, ceil_mode=True)", ops.AvgPool3D(3, 2, "pad", 1, ceil_mode=True)),
    ("AvgPool3D(3, 2, 'pad', 1, True, False)", ops.AvgPool3D(3, 2, "pad", 1, True, False)),
    ("AvgPool3D(3, 1, 'pad', (1, 0, 1, 1, 0, 1), divisor_override=5)",
     ops.AvgPool3D(3, 1, "pad", (1, 0, 1, 1, 0, 1), divisor_override=5)),
]
# forward only: MindSpore 2.10's CPU gradient of a valid-mode ceil window fails ("Unknown Error!")
valid_ceil = ops.AvgPool3D(2, 2, ceil_mode=True)
layers = [
    ("nn.AvgPool3d(2, 2)", nn.AvgPool3d(2, 2)),
    ("nn.AvgPool3d(3, 2, 'pad', 1, True, False)", nn.AvgPool3d(3, 2, "pad", 1, True, False)),
    ("nn.AvgPool3d(3, 1, 'pad', (1, 1, 0), divisor_override=4)",
     nn.AvgPool3d(3, 1, "pad", (1, 1, 0), divisor_override=4)),
    ("nn.MaxPool3d(2, 2)", nn.MaxPool3d(2, 2)),
    ("nn.MaxPool3d(3, 1, 'same')", nn.MaxPool3d(3, 1, "same")),
    ("nn.MaxPool3d(3, 2, 'pad', 1, ceil_mode=True)", nn.MaxPool3d(3, 2, "pad", 1, ceil_mode=True)),
]
flat = [
    ("nn.AvgPool2d(3, 2, 'pad', 1)", nn.AvgPool2d(3, 2, "pad", 1)),
    ("nn.AvgPool2d(3, 2, 'pad', (1, 0), ceil_mode=True)", nn.AvgPool2d(3, 2, "pad", (1, 0), ceil_mode=True)),
    ("nn.AvgPool2d(2, count_include_pad=False)", nn.AvgPool2d(2, count_include_pad=False)),
    ("nn.AvgPool2d(3, 1, 'pad', 1, count_include_pad=False)",
     nn.AvgPool2d(3, 1, "pad", 1, count_include_pad=False)),
    ("nn.AvgPool2d(2, 2, divisor_override=3)", nn.AvgPool2d(2, 2, divisor_override=3)),
]


def run_all():
    for label, net in prims + layers:
        y = net(x5)
        print(label, y.shape, vals(y))
        print("  grad", vals(ms.grad(SumOf(net))(x5)))
    for label, net in flat:
        y = net(x4)
        print(label, y.shape, vals(y))
        print("  grad", vals(ms.grad(SumOf(net))(x4)))
    print("AvgPool3D(2, 2, ceil_mode=True)", vals(valid_ceil(x5)))
    print("nn.AvgPool3d 4-D", vals(layers[0][1](x5[0])))
    print("nn.MaxPool3d 4-D", vals(layers[3][1](x5[0])))
    print("nn.AvgPool2d 3-D", vals(flat[0][1](x4[0])))


p = ops.AvgPool3D(3, (1, 2, 1), "pad", (1, 0, 1, 1, 0, 0), True, False, 2)
print("attrs", p.kernel_size, p.strides, p.pad_mode, p.pad_list, p.ceil_mode, p.count_include_pad,
      p.divisor_override, p.format)
run_all()
ms.set_context(mode=ms.GRAPH_MODE)
print("GRAPH_MODE")
run_all()
ms.set_context(mode=ms.PYNATIVE_MODE)

errors = [
    ("AvgPool3D(0)", lambda: ops.AvgPool3D(0)),
    ("AvgPool3D((2, 2))", lambda: ops.AvgPool3D((2, 2))),
    ("AvgPool3D(2.0)", lambda: ops.AvgPool3D(2.0)),
    ("AvgPool3D(pad_mode='full')", lambda: ops.AvgPool3D(pad_mode="full")),
    ("AvgPool3D(pad=1)", lambda: ops.AvgPool3D(pad=1)),
    ("AvgPool3D(pad=(1, 1))", lambda: ops.AvgPool3D(pad_mode="pad", pad=(1, 1))),
    ("AvgPool3D(pad=-1)", lambda: ops.AvgPool3D(pad_mode="pad", pad=-1)),
    ("AvgPool3D(ceil_mode=1)", lambda: ops.AvgPool3D(ceil_mode=1)),
    ("AvgPool3D(count_include_pad=0)", lambda: ops.AvgPool3D(count_include_pad=0)),
    ("AvgPool3D(divisor_override=-1)", lambda: ops.AvgPool3D(divisor_override=-1)),
    ("AvgPool3D(data_format='NCHW')", lambda: ops.AvgPool3D(data_format="NCHW")),
    ("AvgPool3D 4-D input", lambda: ops.AvgPool3D(2)(x4)),
    ("AvgPool3D kernel larger than input", lambda: ops.AvgPool3D(5)(x5)),
    ("AvgPool3D pads over kernel", lambda: ops.AvgPool3D(2, 1, "pad", (2, 1, 0, 0, 0, 0))(x5)),
    ("AvgPool3D int input", lambda: ops.AvgPool3D(2)(Tensor([[[[[1, 2], [3, 4]]]]]))),
    ("nn.AvgPool3d(divisor_override=0)", lambda: nn.AvgPool3d(2, divisor_override=0)),
    ("nn.AvgPool3d(padding=(1, 2))", lambda: nn.AvgPool3d(2, pad_mode="pad", padding=(1, 2))),
    ("nn.AvgPool3d(padding=(1, -1, 0))", lambda: nn.AvgPool3d(2, pad_mode="pad", padding=(1, -1, 0))),
    ("nn.AvgPool3d(padding=1)", lambda: nn.AvgPool3d(2, padding=1)),
    ("nn.MaxPool3d(padding=(1, 2))", lambda: nn.MaxPool3d(2, pad_mode="pad", padding=(1, 2))),
    ("nn.MaxPool3d(ceil_mode=True) valid", lambda: nn.MaxPool3d(2, ceil_mode=True)),
    ("nn.MaxPool3d(dilation=2) valid", lambda: nn.MaxPool3d(2, dilation=2)),
    ("nn.AvgPool2d(padding=(1, 2, 3))", lambda: nn.AvgPool2d(2, pad_mode="pad", padding=(1, 2, 3))),
    ("nn.AvgPool2d(kernel_size=(1, 2, 3), pad)", lambda: nn.AvgPool2d((1, 2, 3), pad_mode="pad")),
]
for label, fn in errors:
    attempt(label, lambda fn=fn: fn() and None)
