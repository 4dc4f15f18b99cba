# The exact (erf) GELU and ops.erf (MindSpore 2.10): nn.GELU(approximate=False), ops.erf over the ranges
# where its series and continued fraction take over, and their gradients (rounded: MindSpore's fused
# GeLUGrad kernel and the composed gradient differ in the 7th digit), in both modes.
import mindspore as ms
from mindspore import nn, ops, Tensor

x = Tensor([[1.0, -2.0, 3.0], [0.5, 5.0, -0.1]], ms.float32)
z = Tensor([0.0, 1e-3, -0.37, 1.2345, 2.4999, 2.5001, -3.7, 5.9, 6.5, -40.0], ms.float32)


def gelu_sum(a):
    return nn.GELU(approximate=False)(a).sum()


def erf_sum(a):
    return ops.erf(a).sum()


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    print("mode", mode)
    print("gelu", nn.GELU(approximate=False)(x))
    print("erf", ops.erf(x), ops.erf(z))
    print("erf of float16", ops.erf(z.astype(ms.float16)))
    print("gelu grad", [round(v, 5) for v in ms.grad(gelu_sum)(x).reshape(-1).tolist()])
    print("erf grad", [round(v, 6) for v in ms.grad(erf_sum)(z).tolist()])
