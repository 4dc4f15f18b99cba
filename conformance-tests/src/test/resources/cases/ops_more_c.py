# AddN, Argmax, AssignAdd, LogicalNot, ReduceAll/Any, Slice, Stack/Unstack, Eye/Fill/Ones/Zeros, DType,
# InvertPermutation, MaxPoolWithArgmax, ResizeBilinearV2 and the gradient primitives of
# ops.operations._grad_ops: values, dtypes, shapes and errors; gradients through them.
import mindspore as ms
from mindspore import Tensor, Parameter, ops
from mindspore.ops import operations as P
from mindspore.ops.operations import _grad_ops as G
from _case_util import attempt, rounded

try:
    # MindSpore 2.10 fails the first Softmax in a process (a SystemError); warm it up silently.
    str(ops.Softmax()(Tensor([1.0])))
except (SystemError, ImportError):
    pass


def show(r):
    if isinstance(r, (tuple, list)):
        return tuple(show(t) for t in r)
    if isinstance(r, Tensor):
        return (str(r.dtype), r.shape, rounded(r.tolist()))
    return r


x = Tensor([[1.0, 3.0, 3.0], [5.0, 2.0, -1.0]])
y = Tensor([[0.5, 0.5, 0.5], [1.0, 1.0, 1.0]])
b = Tensor([[True, False], [True, True]])
img = Tensor([[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]])
grid = Tensor([[[[float((7 * r + 3 * c) % 11) for c in range(4)] for r in range(4)]]])
cases = [
    ("AddN()([x, y, x])", lambda: P.AddN()([x, y, x])),
    ("AddN()((int, int))", lambda: P.AddN()((Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32)))),
    ("AddN()([x, x.T])", lambda: P.AddN()([x, x.T])),
    ("AddN()([x, int])", lambda: P.AddN()([x, Tensor([[1, 2, 3], [4, 5, 6]], ms.int32)])),
    ("LogicalNot()(b)", lambda: P.LogicalNot()(b)),
    ("LogicalNot()(x)", lambda: P.LogicalNot()(Tensor([0.0, 2.0]))),
    ("ReduceAll()(b)", lambda: P.ReduceAll()(b)),
    ("ReduceAll(True)(b, 1)", lambda: P.ReduceAll(keep_dims=True)(b, 1)),
    ("ReduceAny()(b, 0)", lambda: P.ReduceAny()(b, 0)),
    ("ReduceAny()(~b, (0, 1))", lambda: P.ReduceAny()(P.LogicalNot()(b), (0, 1))),
    ("ReduceAll()(x, 1)", lambda: P.ReduceAll()(Tensor([[1.0, 0.0], [2.0, 3.0]]), 1)),
    ("Argmax()(x)", lambda: P.Argmax()(x)),
    ("Argmax(0, int64)(x)", lambda: P.Argmax(axis=0, output_type=ms.int64)(x)),
    ("Argmax(output_type=float32)", lambda: P.Argmax(output_type=ms.float32)(x)),
    ("Argmax(5)(x)", lambda: P.Argmax(axis=5)(x)),
    ("Slice()(x, (0, 1), (2, -1))", lambda: P.Slice()(x, (0, 1), (2, -1))),
    ("Slice()(x, (1, 0), (1, 2))", lambda: P.Slice()(x, (1, 0), (1, 2))),
    ("Slice()(x, (0, 1), (3, 1))", lambda: P.Slice()(x, (0, 1), (3, 1))),
    ("Stack(1)([x, y])", lambda: P.Stack(axis=1)([x, y])),
    ("Stack(-1)((x, y, x))", lambda: P.Stack(axis=-1)((x, y, x))),
    ("Stack()([x, x.T])", lambda: P.Stack()([x, x.T])),
    ("Stack(4)([x, y])", lambda: P.Stack(axis=4)([x, y])),
    ("Unstack(1)(x)", lambda: P.Unstack(axis=1)(x)),
    ("Unstack()(x)", lambda: P.Unstack()(x)),
    ("Unstack(3)(x)", lambda: P.Unstack(axis=3)(x)),
    ("Eye()(2, 3, int32)", lambda: P.Eye()(2, 3, ms.int32)),
    ("Fill()(float32, (2, 2), 3)", lambda: P.Fill()(ms.float32, (2, 2), 3)),
    ("FillV2()((2, 1), Tensor(2.5))", lambda: P.FillV2()((2, 1), Tensor(2.5, ms.float32))),
    ("Ones()((2, 2), int32)", lambda: P.Ones()((2, 2), ms.int32)),
    ("Zeros()(3, float32)", lambda: P.Zeros()(3, ms.float32)),
    ("DType()(x)", lambda: P.DType()(x)),
    ("InvertPermutation()((3, 1, 0, 2))", lambda: P.InvertPermutation()((3, 1, 0, 2))),
    ("Conj()(x)", lambda: P.Conj()(x)),
    ("MaxPoolWithArgmax(2, 2)(grid)", lambda: P.MaxPoolWithArgmax(kernel_size=2, strides=2)(grid)),
    ("MaxPoolWithArgmax(3, 1, same)(grid)",
     lambda: P.MaxPoolWithArgmax(kernel_size=3, strides=1, pad_mode="same")(grid)),
    ("MaxPoolGradWithArgmax(3, 1, same)", lambda: G.MaxPoolGradWithArgmax(kernel_size=3, strides=1, pad_mode="same")(
        grid, Tensor([[[[1.0] * 4] * 4]]),
        P.MaxPoolWithArgmax(kernel_size=3, strides=1, pad_mode="same")(grid)[1])),
    ("MaxPoolGrad(2, 2)", lambda: G.MaxPoolGrad(kernel_size=2, strides=2)(
        grid, P.MaxPool(kernel_size=2, strides=2)(grid), Tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))),
    ("AvgPoolGrad(2, 2)", lambda: G.AvgPoolGrad(kernel_size=2, strides=2)(
        grid, P.AvgPool(kernel_size=2, strides=2)(grid), Tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))),
    ("ReluGrad()", lambda: G.ReluGrad()(y, P.ReLU()(Tensor([[1.0, -1.0, 0.0], [2.0, 3.0, -4.0]])))),
    ("BiasAddGrad()", lambda: G.BiasAddGrad()(Tensor([[[[1.0, 2.0]], [[3.0, 4.0]]]]))),
]
for ac, hp in ((False, False), (True, False), (False, True)):
    cases.append((f"ResizeBilinearV2({ac}, {hp})(img, (4, 5))",
                  lambda ac=ac, hp=hp: P.ResizeBilinearV2(align_corners=ac, half_pixel_centers=hp)(img, (4, 5))))
    cases.append((f"ResizeBilinearGrad({ac}, {hp})",
                  lambda ac=ac, hp=hp: G.ResizeBilinearGrad(align_corners=ac, half_pixel_centers=hp)(
                      Tensor([[[[float(v) for v in range(5 * r, 5 * r + 5)] for r in range(4)]]]), img)))
cases.append(("ResizeBilinearV2(True, True)", lambda: P.ResizeBilinearV2(True, True)(img, (4, 5))))
for label, fn in cases:
    attempt(label, lambda fn=fn: show(fn()))

p = Parameter(Tensor([1.0, 2.0]), name="p")
attempt("AssignAdd()(p, [0.5, 0.5])", lambda: show(P.AssignAdd()(p, Tensor([0.5, 0.5]))))
print("p after AssignAdd:", p.asnumpy().tolist())


class Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([[1.0, -2.0, 0.5], [0.25, 1.5, -1.0]]), name="w")

    def construct(self, a, c):
        s = P.Stack(axis=0)([a * self.w, c])
        u0, u1 = P.Unstack(axis=0)(s)
        t = P.AddN()([u0, u1, P.Slice()(self.w, (0, 0), (2, 3))])
        r = P.ResizeBilinearV2()(t.reshape(1, 1, 2, 3), (3, 5))
        m, _ = P.MaxPoolWithArgmax(kernel_size=2, strides=1)(r)
        return m.sum()


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = Net()
    grads = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params())(x, y)
    print("mode", mode, "loss", rounded(net(x, y).tolist()))
    print("  d/da", rounded(grads[0][0].tolist()), "d/dc", rounded(grads[0][1].tolist()))
    print("  d/dw", rounded(grads[1][0].tolist()))
