# ops.PadV3 (MindSpore 2.10): constant (with a value, negative amounts cropping), reflect, edge and circular
# modes on a 4-D tensor, paddings_contiguous=False, the gradients MindSpore gives, and its infer checks and
# texts. Golden from MindSpore 2.10's CPU wheel.
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
x = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4))
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
for mode, pads in (("constant", [1, 2]), ("constant", [0, 1, 2, 0]), ("reflect", [1, 2, 2, 1]), ("edge", [2, 1, 0, 2]),
                   ("circular", [1, 3, 2, 1]), ("constant", [-1, 1, 0, 0, 1, 0])):
    op = ops.PadV3(mode) if mode != "constant" else ops.PadV3()
    args = (x, Tensor(pads, ms.int64)) + ((Tensor(0.5, ms.float32),) if mode == "constant" else ())
    out = op(*args)
    print(mode, pads, out.shape, out.asnumpy().tolist())
    g = ops.grad(lambda a: (op(a, *args[1:]) * Tensor(np.arange(out.size, dtype=np.float32).reshape(out.shape))).sum())(x)
    print("grad", g.asnumpy().tolist())
print(ops.PadV3("constant", False)(Tensor([[0., 1., 2.]]), Tensor([1, 0, 1, 0]), Tensor(1.5)))
attempt(lambda: ops.PadV3()(x, Tensor([1, 2, 3]), Tensor(0.5)))
attempt(lambda: ops.PadV3()(x, Tensor([1] * 10), Tensor(0.5)))
attempt(lambda: ops.PadV3("reflect")(Tensor(np.ones((3, 4), np.float32)), Tensor([1, 1])))
attempt(lambda: ops.PadV3("reflect")(x, Tensor([1, 1])))
attempt(lambda: ops.PadV3("reflect")(x, Tensor([4, 1, 0, 0])))
attempt(lambda: ops.PadV3()(x, Tensor([-3, -3]), Tensor(0.5)))
attempt(lambda: ops.PadV3("same"))
attempt(lambda: ops.PadV3("constant", 1))
