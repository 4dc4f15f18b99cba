# ops.KLDivLoss (every reduction the CPU target takes: values, the gradient MindSpore's bprop gives,
# non-positive labels contributing 0) and ops.SplitV (uneven parts, one -1, its gradient; its
# attribute and infer checks). Golden from MindSpore 2.10's CPU wheel, except SplitV's values, which
# that wheel cannot compute (no CPU kernel): those lines compare with numpy's split.
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

x = Tensor(np.array([[0.2, -0.7, 0.1], [1.5, 0.3, -2.0]], np.float32))
y = Tensor(np.array([[0.0, 1.0, 0.5], [0.25, 2.0, -1.0]], np.float32))
for r in ("none", "mean", "sum", "batchmean"):
    print(r, ops.KLDivLoss(r)(x, y))
    dx, dy = ops.grad(lambda a, b, r=r: ops.KLDivLoss(r)(a, b).sum(), grad_position=(0, 1))(x, y)
    print(r, "grad", dx, dy.asnumpy().tolist())


def attempt(f):
    try:
        print(f())
    except Exception as e:  # pylint: disable=broad-except
        print(type(e).__name__, str(e).split("\n")[0])


attempt(lambda: ops.KLDivLoss("sum")(x, y[0]))
attempt(lambda: ops.KLDivLoss("sum")(x.astype(ms.int32), y))
attempt(lambda: ops.KLDivLoss("sum")(x, y.astype(ms.float16)))
attempt(lambda: ops.KLDivLoss("batchmean")(Tensor(1.0), Tensor(2.0)))
attempt(lambda: ops.KLDivLoss("avg"))
attempt(lambda: ops.KLDivLoss(3))
attempt(lambda: ops.SplitV([2, 0], 1, 2))
attempt(lambda: ops.SplitV((2, 2.0), 1, 2))
attempt(lambda: ops.SplitV([2, 2], 1, 0))
attempt(lambda: ops.SplitV([2, 2], 1.0, 2))

data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
for sizes, dim in (([2, -1], 2), ([1, 1, 1], 1), ([-1, 1], -3)):
    parts = ops.SplitV(sizes, dim, len(sizes))(Tensor(data))
    cut = np.cumsum([s if s != -1 else data.shape[dim] - sum(v for v in sizes if v != -1) for s in sizes])[:-1]
    print("SplitV", sizes, dim, [p.shape for p in parts], "== numpy:",
          all(np.array_equal(p.asnumpy(), q) for p, q in zip(parts, np.split(data, cut, axis=dim))))
grad = ops.grad(lambda a: ops.SplitV([1, 3], 2, 2)(a)[1].sum() * 2)(Tensor(data))
print("SplitV grad == 2 on the second part:", np.array_equal(grad.asnumpy()[..., 1:], np.full((2, 3, 3), 2.0)),
      "and 0 on the first:", not grad.asnumpy()[..., 0].any())
