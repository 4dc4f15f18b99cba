# TraceV2 (ops.auto_generate.TraceV2, what MindSpore's test_tracev2 builds): the sums of the `offset`
# diagonals of the (axis1, axis2) planes, input[..., i, i + offset] with i along axis1, checked against
# numpy.trace (the same definition); integers narrower than int64 sum to int64, `dtype` chooses the
# output type; its gradient puts the output's gradient on those diagonals (GRAPH_MODE and PYNATIVE);
# MindSpore's errors.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.ops import auto_generate as P

x = np.arange(2 * 3 * 4).reshape(2, 3, 4).astype(np.int32)
for off, a1, a2 in ((0, -2, -1), (1, 1, 2), (-1, 2, 1), (0, 0, 2), (5, 1, 2)):
    got = P.TraceV2()(Tensor(x), off, a1, a2)
    print("int32 offset", off, "axes", (a1, a2), got.shape, got.dtype, "== numpy.trace:",
          np.array_equal(got.asnumpy(), np.trace(x, off, a1, a2)))
xf = np.random.default_rng(5).standard_normal((3, 4, 5)).astype(np.float32)
got = P.TraceV2()(Tensor(xf), 1, 0, 2, ms.float64)
print("float32 -> float64", got.dtype, np.allclose(got.asnumpy(), np.trace(xf.astype(np.float64), 1, 0, 2)))
got = P.TraceV2()(Tensor(xf.astype(np.float16)), -2, 1, 2)
print("float16", got.dtype, np.allclose(got.asnumpy(), np.trace(xf.astype(np.float16), -2, 1, 2), atol=1e-2))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.trace = P.TraceV2()
        self.w = Tensor(np.array([1.0, 2.0, 3.0], np.float32))

    def construct(self, t):
        return (self.trace(t, 1, 1, 2) * self.w).sum()


want = np.zeros_like(xf)
for b in range(3):
    for i in range(4):
        want[b, i, i + 1] = b + 1
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    g = ops.GradOperation()(Net())(Tensor(xf))
    print("gradient", "GRAPH_MODE" if mode == ms.GRAPH_MODE else "PYNATIVE_MODE", g.shape,
          "== the weights on diagonal 1:", np.array_equal(g.asnumpy(), want))
ms.set_context(mode=ms.PYNATIVE_MODE)


def error(name, fn):
    try:
        fn()
        print(name, "no error")
    except (TypeError, ValueError, RuntimeError) as e:
        print(name, type(e).__name__, e)


error("rank 1", lambda: P.TraceV2()(Tensor(np.ones(3, np.float32))))
error("same axes", lambda: P.TraceV2()(Tensor(xf), 0, 1, -2))
error("axis out of range", lambda: P.TraceV2()(Tensor(xf), 0, 3, 1))
error("offset type", lambda: P.TraceV2()(Tensor(xf), 1.5))
