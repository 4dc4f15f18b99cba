# Grouped Conv2D and Conv2DTranspose, forward and both gradients, in PYNATIVE_MODE: group 2 splits
# the channels into two independent convolutions; Conv2DTranspose(x, w, input_size) is the gradient
# of the Conv2D that maps an input_size input to x's shape, in 'valid', 'same' and 'pad' modes, with
# stride and dilation. Printed: shapes, sums and leading values (3 decimals).
import numpy as np
import mindspore as ms
from mindspore import ops, Tensor

ms.set_context(mode=ms.PYNATIVE_MODE)


def values(shape, seed):
    n = int(np.prod(shape))
    return np.array([((i * 7 + seed * 3) % 17 - 8) / 16.0 for i in range(n)], np.float32).reshape(shape)


def show(name, t):
    a = t.asnumpy()
    print(name, a.shape, round(float(a.sum()), 3), [round(float(v), 3) for v in a.reshape(-1)[:6]])


x = Tensor(values((2, 4, 6, 5), 1))
w = Tensor(values((6, 2, 3, 3), 2))
for mode, pad in (("valid", 0), ("same", 0), ("pad", (1, 0, 2, 1))):
    conv = ops.Conv2D(out_channel=6, kernel_size=3, group=2, pad_mode=mode, pad=pad, stride=(1, 2))
    y = conv(x, w)
    show(f"group 2 {mode} y", y)
    dx, dw = ops.GradOperation(get_all=True)(lambda a, b: (conv(a, b) * conv(a, b)).sum())(x, w)
    show(f"group 2 {mode} dx", dx)
    show(f"group 2 {mode} dw", dw)

w2 = Tensor(values((4, 3, 3, 2), 4))
for mode, pad, stride, dilation, size in (("valid", 0, 2, 1, (2, 3, 9, 8)), ("same", 0, 2, 1, (2, 3, 8, 8)),
                                          ("pad", (1, 2, 0, 1), 1, 2, (2, 3, 7, 6))):
    tconv = ops.Conv2DTranspose(out_channel=4, kernel_size=(3, 2), pad_mode=mode, pad=pad, stride=stride,
                                dilation=dilation)
    fwd = ops.Conv2D(out_channel=4, kernel_size=(3, 2), pad_mode=mode, pad=pad, stride=stride, dilation=dilation)
    dout_shape = fwd(Tensor(np.zeros(size, np.float32)), w2).shape
    d = Tensor(values(dout_shape, 5))
    out = tconv(d, w2, size)
    show(f"transpose {mode} out", out)
    dd, dw2 = ops.GradOperation(get_all=True)(lambda a, b: (tconv(a, b, size) * tconv(a, b, size)).sum())(d, w2)
    show(f"transpose {mode} dd", dd)
    show(f"transpose {mode} dw", dw2)
