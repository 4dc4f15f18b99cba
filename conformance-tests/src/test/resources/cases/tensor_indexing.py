# Tensor indexing: ints, slices, None, Ellipsis, integer lists/Tensors, bounds errors, and the
# gradient through a slice. (Negative slice steps are left out: see DEVIATIONS.md.)
import mindspore as ms
from mindspore import Tensor
from _case_util import attempt

x = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]])
i = Tensor([[1, 2], [3, 4]], ms.int32)
cases = [
    ("x[1]", lambda: x[1]),
    ("x[-1]", lambda: x[-1]),
    ("x[1:3]", lambda: x[1:3]),
    ("x[:, 1]", lambda: x[:, 1]),
    ("x[::2]", lambda: x[::2]),
    ("x[1::2, 0:3:2]", lambda: x[1::2, 0:3:2]),
    ("x[None, 1:, -2]", lambda: x[None, 1:, -2]),
    ("x[..., 0]", lambda: x[..., 0]),
    ("x[1, ...]", lambda: x[1, ...]),
    ("x[1, 2]", lambda: x[1, 2]),
    ("x[[0, 2]]", lambda: x[[0, 2]]),
    ("x[Tensor([3, 1])]", lambda: x[Tensor([3, 1])]),
    ("x[-3:-1, :2]", lambda: x[-3:-1, :2]),
    ("x[2:10]", lambda: x[2:10]),
    ("i[1][0]", lambda: i[1][0]),
    ("i[:, -1]", lambda: i[:, -1]),
]
for name, fn in cases:
    r = fn()
    print(name, r.dtype, r.shape, r.tolist())
attempt("x[5]", lambda: x[5].tolist())
attempt("x[0, 0, 0]", lambda: x[0, 0, 0].tolist())
print("grad", ms.grad(lambda t: (t[1:3, ::2] * 2).sum())(x).tolist())
print("grad gather", ms.grad(lambda t: t[Tensor([0, 0, 3])].sum())(x).tolist())
