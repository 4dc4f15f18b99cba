# GatherNd and ScatterNd (P.GatherNd, P.ScatterNd, ops.gather_nd, ops.scatter_nd) as MindSpore 2.10's CPU
# kernels run them: index tuples of 1-3 values, leading index dimensions, integer tables, a scalar
# index, repeated tuples accumulating in ScatterNd, GatherNd's gradient, and the errors of
# out-of-range and negative tuples, too long tuples, float indices, bad shapes.
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P
x = Tensor(np.arange(24).reshape(2, 3, 4).astype(np.float32))
def t(name, f):
    try:
        r = f()
        print(name, r.shape, r.dtype, r.asnumpy().ravel().tolist()[:12])
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0][:300])
t("basic", lambda: P.GatherNd()(x, Tensor(np.array([[0, 1], [1, 2]]), ms.int32)))
t("k1", lambda: P.GatherNd()(x, Tensor(np.array([[1], [0]]), ms.int64)))
t("k3", lambda: P.GatherNd()(x, Tensor(np.array([[1, 2, 3]]), ms.int32)))
t("nd", lambda: P.GatherNd()(x, Tensor(np.zeros((2, 2, 2)), ms.int32)))
t("neg", lambda: P.GatherNd()(x, Tensor(np.array([[-1, 0]]), ms.int32)))
t("oob", lambda: P.GatherNd()(x, Tensor(np.array([[2, 0]]), ms.int32)))
t("k4", lambda: P.GatherNd()(x, Tensor(np.array([[1, 2, 3, 0]]), ms.int32)))
t("float idx", lambda: P.GatherNd()(x, Tensor(np.array([[1.0, 0]]), ms.float32)))
t("int x", lambda: P.GatherNd()(Tensor(np.arange(6).reshape(2,3), ms.int32), Tensor(np.array([[1, 2]]), ms.int32)))
t("scalar idx", lambda: P.GatherNd()(x, Tensor(1, ms.int32)))
t("fn", lambda: ops.gather_nd(x, Tensor(np.array([[0, 1]]), ms.int32)))
t("scatter", lambda: P.ScatterNd()(Tensor(np.array([[0], [2], [0]]), ms.int32), Tensor(np.ones((3, 4), np.float32)), (3, 4)))
t("scatter oob", lambda: P.ScatterNd()(Tensor(np.array([[5]]), ms.int32), Tensor(np.ones((1, 4), np.float32)), (3, 4)))
t("scatter neg", lambda: P.ScatterNd()(Tensor(np.array([[-1]]), ms.int32), Tensor(np.ones((1, 4), np.float32)), (3, 4)))
t("scatter badshape", lambda: P.ScatterNd()(Tensor(np.array([[1]]), ms.int32), Tensor(np.ones((1, 3), np.float32)), (3, 4)))
g = ms.grad(lambda a: P.GatherNd()(a, Tensor(np.array([[0, 1], [0, 1], [1, 2]]), ms.int32)).sum())(x)
print("grad", g.asnumpy().ravel().tolist())
