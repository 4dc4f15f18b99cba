# PReLU (ops.PReLU, ops.prelu, nn.PReLU), L2Normalize and FastGeLU (nn.FastGelu, get_activation): values,
# dtypes, errors and gradients in both modes (MindSpore's parallel tests build them: test_prelu,
# test_l2normalize, test_auto_parallel_*, the fast_gelu activations of their Dense layers).
import numpy as np
import mindspore as ms
from mindspore import Tensor, Parameter, nn, ops
from mindspore.ops import operations as P
from _case_util import attempt as _attempt, flush_errors, rounded


def attempt(label, fn):
    _attempt(label, fn)
    flush_errors()


def show(r):
    if isinstance(r, (tuple, list)):
        return tuple(show(t) for t in r)
    if isinstance(r, Tensor):
        return (str(r.dtype), r.shape, rounded(r.tolist()))
    return r


x = Tensor(np.array([[[-1.0, 2.0], [0.5, -3.0]], [[1.5, -0.5], [-2.0, 4.0]]], np.float32))
w = Tensor(np.array([0.25, -0.5], np.float32))
attempt("PReLU", lambda: show(P.PReLU()(x, w)))
attempt("PReLU one weight", lambda: show(P.PReLU()(x, Tensor(np.array([0.1], np.float32)))))
attempt("PReLU float16", lambda: show(P.PReLU()(Tensor(np.array([[-1.0, 2.0], [0.5, -3.0]], np.float16)),
                                                 Tensor(np.array([0.25, 0.5], np.float16)))))
attempt("PReLU float16 weight", lambda: show(P.PReLU()(x, w.astype(ms.float16))))
attempt("PReLU 1-D", lambda: show(P.PReLU()(Tensor(np.array([-1.0, 2.0], np.float32)),
                                             Tensor(np.array([0.1], np.float32)))))
attempt("PReLU 4-D", lambda: show(P.PReLU()(Tensor(np.arange(-8, 8, dtype=np.float32).reshape(2, 2, 2, 2)), w)))
attempt("PReLU float64", lambda: show(P.PReLU()(x.astype(ms.float64), w.astype(ms.float64))))
attempt("PReLU int32", lambda: show(P.PReLU()(x.astype(ms.int32), w.astype(ms.int32))))
attempt("PReLU weight length", lambda: show(P.PReLU()(x, Tensor(np.array([0.1, 0.2, 0.3], np.float32)))))
attempt("ops.prelu", lambda: show(ops.prelu(x, w)))

net = nn.PReLU(channel=2, w=0.2)
print("nn.PReLU params:", [(p.name, p.shape, rounded(p.asnumpy().tolist())) for p in net.get_parameters()])
attempt("nn.PReLU", lambda: show(net(x)))
attempt("nn.PReLU(w=list)", lambda: show(nn.PReLU(2, [0.1, 0.3])(x)))
attempt("nn.PReLU(w=Tensor)", lambda: show(nn.PReLU(2, Tensor(np.array([0.5, 0.1], np.float32)))(x)))
attempt("nn.PReLU(channel=0)", lambda: nn.PReLU(0))
attempt("nn.PReLU(w=list of 3)", lambda: nn.PReLU(2, [0.1, 0.2, 0.3]))
attempt("nn.PReLU(w=int list)", lambda: nn.PReLU(2, [1, 2]))
attempt("nn.PReLU(w='a')", lambda: nn.PReLU(2, 'a'))
attempt("nn.PReLU(w=int32 tensor)", lambda: nn.PReLU(2, Tensor(np.array([1, 2], np.int32))))
attempt("nn.PReLU(w=2-D tensor)", lambda: nn.PReLU(2, Tensor(np.ones((2, 1), np.float32))))

for axis in (0, 1, -1, (1,), [2]):
    attempt(f"L2Normalize(axis={axis})", lambda axis=axis: show(P.L2Normalize(axis=axis)(x)))
attempt("L2Normalize(epsilon=4.0)", lambda: show(P.L2Normalize(axis=1, epsilon=4.0)(x)))
attempt("L2Normalize(epsilon=1)", lambda: show(P.L2Normalize(axis=1, epsilon=1)(x)))
attempt("L2Normalize(zeros)", lambda: show(P.L2Normalize()(Tensor(np.zeros((2, 2), np.float32)))))
attempt("L2Normalize(float64)", lambda: show(P.L2Normalize(axis=1)(x.astype(ms.float64))))
attempt("L2Normalize(float16)", lambda: show(P.L2Normalize(axis=1)(Tensor(np.array([[3.0, 4.0], [1.0, 1.0]], np.float16)))))
attempt("L2Normalize(int32)", lambda: show(P.L2Normalize()(x.astype(ms.int32))))
attempt("L2Normalize(axis=3)", lambda: show(P.L2Normalize(axis=3)(x)))
attempt("L2Normalize(axis=(0, 1))", lambda: P.L2Normalize(axis=(0, 1)))
attempt("L2Normalize(axis=1.0)", lambda: P.L2Normalize(axis=1.0))
attempt("L2Normalize(epsilon='a')", lambda: P.L2Normalize(epsilon='a'))


g = Tensor(np.array([-3.0, -1.0, -0.2, 0.0, 0.5, 2.0], np.float32))
attempt("FastGeLU", lambda: show(P.FastGeLU()(g)))
attempt("FastGeLU(float16)", lambda: show(P.FastGeLU()(Tensor(np.array([-1.0, -0.2, 0.0, 0.5, 2.0], np.float16)))))
attempt("FastGeLU(float64)", lambda: show(P.FastGeLU()(g.astype(ms.float64))))
attempt("FastGeLU(int32)", lambda: show(P.FastGeLU()(g.astype(ms.int32))))
attempt("nn.FastGelu / ops.fast_gelu / get_activation", lambda: show((nn.FastGelu()(g), ops.fast_gelu(g),
                                                                      nn.get_activation('fast_gelu')(g))))
print("get_activation:", nn.get_activation('fast_gelu'), nn.get_activation('prelu'))
attempt("grad FastGeLU", lambda: show(ms.grad(lambda a: P.FastGeLU()(a).sum())(g)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.3, -0.2], np.float32)), name="w")
        self.prelu = P.PReLU()
        self.l2 = P.L2Normalize(axis=1)
        self.scale = Tensor(np.array([[[1.0, -2.0]], [[0.5, 3.0]]], np.float32))

    def construct(self, t):
        h = self.prelu(t, self.w)
        return (self.l2(h * t + 0.5) * self.scale).sum() + (h * h).sum() * 0.1 + P.FastGeLU()(h).sum()


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    m = Net()
    grads = ms.grad(m, grad_position=0, weights=m.trainable_params())(x)
    print("mode", mode, "loss", rounded(m(x).tolist()))
    print("  d/dx", rounded(grads[0].tolist()))
    print("  d/dw", rounded(grads[1][0].tolist()))
