# ranks: 8
# Training through the elementwise and reduction primitives MindSpore's parallel tests build (case
# ops_math_e has their values against real MindSpore), sharded on 8 ranks (semi_auto_parallel, rows 4
# ways and columns 2 ways, Momentum): Atan2 against a column-split bias, Mish, Asinh, Cosh, Erfinv,
# BesselI0e, SeLU, SquaredDifference, Hypot, Xlogy, MaskedFill with a tensor and with a number,
# AddcmulExt, ReduceProd over the split columns (partial products, an AllReduce prod),
# ArgMaxWithValue and CumProd along whole columns, and SquareSumAll over the split tensor (partial
# sums), PReLU with its weight split as the channels, L2Normalize over whole rows, and RmsNorm over
# whole and over split rows (SyncRmsNorm sums the squares over the ranks) give the stand-alone losses
# and weights, and so do TensorScatterAdd/Mul into a tensor split along both indexed dims (each rank
# applies the tuples in its block) and GatherD along its split dim (partial sums). Then the same network under auto_parallel with sharding propagation
# from the one configured MatMul.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from mindspore.ops import operations as P
from mindspore.ops.auto_generate.gen_ops_prim import AddcmulExt
from _equiv import losses_match, rank_slice, shard, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()


class Net(nn.Cell):
    def __init__(self, dp, mp, configure_all=True):
        super().__init__()
        w = np.array([[((i * 7 + j * 3) % 11 - 5) / 10.0 for j in range(6)] for i in range(8)], np.float32)
        self.w = Parameter(Tensor(w), name="w")
        self.b = Parameter(Tensor(np.array([0.5, -0.25, 1.0, 0.75, -0.5, 0.3], np.float32)), name="b")
        self.slope = Parameter(Tensor(np.array([0.2, -0.1, 0.3, 0.05, 0.25, -0.2], np.float32)), name="slope")
        self.gamma = Parameter(Tensor(np.array([1.0, 0.5, 1.5, 0.75, 1.25, 2.0], np.float32)), name="gamma")
        self.scattered = Parameter(Tensor(np.array([0.5, -1.0, 0.25, 2.0, 0.75], np.float32)), name="scattered")
        self.tuples = Tensor(np.array([[1, 2], [5, 0], [9, 5], [14, 3], [5, 0]], np.int32))
        self.picks = Tensor(np.array([[(n * 5 + j * 2) % 6 - (j % 2) * 6 for j in range(6)] for n in range(16)], np.int32))
        s = configure_all
        two = ((dp, mp), (dp, mp)) if s else None
        one = ((dp, mp),) if s else None
        self.matmul = P.MatMul().shard(((dp, 1), (1, mp)))
        self.atan2 = shard(P.Atan2(), ((dp, mp), (mp,)) if s else None)
        self.mish = shard(P.Mish(), one)
        self.asinh = shard(P.Asinh(), one)
        self.cosh = shard(P.Cosh(), one)
        self.erfinv = shard(P.Erfinv(), one)
        self.bessel = shard(P.BesselI0e(), one)
        self.selu = shard(P.SeLU(), one)
        self.sqdiff = shard(P.SquaredDifference(), two)
        self.hypot = shard(P.Hypot(), two)
        self.xlogy = shard(P.Xlogy(), two)
        self.fill = shard(P.MaskedFill(), ((dp, mp), (dp, mp), ()) if s else None)
        self.fill_number = shard(P.MaskedFill(), two)
        self.addcmul = shard(AddcmulExt(), ((dp, mp), (dp, mp), (mp,)) if s else None)
        self.prod = shard(P.ReduceProd(), one)
        self.argmax = shard(P.ArgMaxWithValue(axis=1), ((dp, 1),) if s else None)
        self.cumprod = shard(P.CumProd(), ((dp, 1),) if s else None)
        self.square_sums = shard(P.SquareSumAll(), two)
        self.prelu = shard(P.PReLU(), ((dp, mp), (mp,)) if s else None)
        self.l2 = shard(P.L2Normalize(axis=1), ((dp, 1),) if s else None)
        self.rms = shard(P.RmsNorm(), ((dp, 1), (1,)) if s else None)
        self.rms_split = shard(P.RmsNorm(), ((dp, mp), (mp,)) if s else None)
        self.scatter_add = shard(P.TensorScatterAdd(), ((dp, mp), (1, 1), (1,)) if s else None)
        self.scatter_mul = shard(P.TensorScatterMul(), ((dp, mp), (1, 1), (1,)) if s else None)
        self.gatherd = shard(P.GatherD(), ((dp, mp), (dp, 1)) if s else None)
        self.tanh = ops.Tanh()
        self.mean = ops.ReduceMean()

    def construct(self, x, target, mask):
        h = self.matmul(x, self.w)
        a = self.atan2(h, self.b) + self.mish(h) * 0.5 + self.asinh(h) + self.cosh(h * 0.3)
        a = a + self.erfinv(self.tanh(h) * 0.8) + self.bessel(h) + self.selu(h * 0.2)
        a = a + self.hypot(h, target) * 0.1 + self.xlogy(target, 1.5 + self.tanh(h))
        a = self.fill(a, mask, Tensor(0.25, ms.float32)) + self.fill_number(h, mask, -0.5)
        a = self.addcmul(a, h, self.b, 0.1)
        a = a + self.prelu(h, self.slope) + self.l2(h) + self.rms(h, self.gamma)[0] * 0.5
        a = a + self.rms_split(h * 0.5 + 0.1, self.gamma)[0] * 0.25
        a = self.scatter_add(a, self.tuples, self.scattered) + self.scatter_mul(h, self.tuples, self.scattered)
        a = a + self.gatherd(h * self.b, 1, self.picks)
        p = self.prod(1.0 + 0.1 * self.tanh(h), 1)
        _, top = self.argmax(a)
        c = self.cumprod(1.0 + 0.05 * self.tanh(a), 1)
        sq_a, sq_t = self.square_sums(a * 0.1, target)
        loss = self.mean(self.sqdiff(a, target)) + self.mean(p) + self.mean(top) * 0.1 + self.mean(c)
        return loss + sq_a * 0.01 + sq_t * 0.0


def run(dp, mp, configure_all=True):
    net = Net(dp, mp, configure_all)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.02, 0.9))
    step.set_train()
    x = Tensor([[((n * 5 + k * 3) % 13 - 6) / 6.0 for k in range(8)] for n in range(16)], ms.float32)
    target = Tensor([[((n + j) % 4) / 2.0 + 0.25 for j in range(6)] for n in range(16)], ms.float32)
    mask = Tensor([[(n * 3 + j) % 5 == 0 for j in range(6)] for n in range(16)])
    return [step(x, target, mask).item() for _ in range(6)], net.w, net.b, step


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_w, ref_b, _ = run(1, 1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
losses, w, b, step = run(4, 2)
layout = step.parameter_layout_dict["w"]
print("rank", get_rank(), "semi_auto steps", len(losses), "losses == stand-alone within 1e-5 relative:",
      losses_match(losses, ref), "loss falls:", losses[-1] < losses[0])
print("rank", get_rank(), "w layout", layout[:3], "slice == stand-alone slice within 1e-5:",
      slice_matches(w, rank_slice(ref_w, layout, get_rank())),
      "b slice:", slice_matches(b, rank_slice(ref_b, step.parameter_layout_dict["b"], get_rank())))
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation",
                             dataset_strategy="full_batch")
losses, w, b, step = run(4, 2, configure_all=False)
layout = step.parameter_layout_dict["w"]
print("rank", get_rank(), "propagation losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
print("rank", get_rank(), "w layout", layout[:3], "slice == stand-alone slice within 1e-5:",
      slice_matches(w, rank_slice(ref_w, layout, get_rank())))
