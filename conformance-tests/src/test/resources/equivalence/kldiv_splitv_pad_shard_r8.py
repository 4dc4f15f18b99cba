# ranks: 8
# KLDivLoss, SplitV and PadV3 sharded on 8 ranks (semi_auto_parallel, rows 4 ways and columns 2 ways,
# Momentum): SplitV cuts the MatMul's output into uneven row blocks (the split dim whole, the other
# split), KLDivLoss with each reduction compares log-softmaxed blocks with targets (none: element-wise
# on the split layout; mean: the mean of the ranks' means; sum: partial sums; batchmean: each rank
# divides by the global batch), all four in one loss, plus a constant PadV3 of the MatMul's output
# (its padded last dim whole, the rows split) and an edge PadV3 of a 3-D view (rows split, both
# padded dims whole). Losses and weight slices equal the stand-alone
# run's; then the same network under auto_parallel, propagating from the one configured MatMul.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from mindspore.ops import operations as P
from _equiv import losses_match, rank_slice, shard, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()


class Net(nn.Cell):
    def __init__(self, dp, mp, configure_all=True):
        super().__init__()
        w = np.array([[((i * 7 + j * 3) % 11 - 5) / 10.0 for j in range(6)] for i in range(8)], np.float32)
        self.w = Parameter(Tensor(w), name="w")
        s = configure_all
        self.matmul = P.MatMul().shard(((dp, 1), (1, mp)))
        self.split = shard(P.SplitV([4, -1, 8], 0, 3), ((1, mp),) if s else None)
        self.losses = [shard(P.KLDivLoss(r), ((dp, mp), (dp, mp)) if s else None)
                       for r in ("mean", "sum", "batchmean")]
        self.pointwise = shard(P.KLDivLoss("none"), ((1, mp), (1, mp)) if s else None)
        self.pad = shard(P.PadV3(), ((dp, 1), (1,), ()) if s else None)
        self.edge = shard(P.PadV3("edge"), ((dp, 1, 1), (1,)) if s else None)
        self.paddings = Tensor([1, 2], ms.int64)
        self.edge_paddings = Tensor([2, 1], ms.int64)
        self.value = Tensor(0.5, ms.float32)
        self.log_softmax = ops.LogSoftmax(axis=1)
        self.mean = ops.ReduceMean()

    def construct(self, x, target):
        m = self.matmul(x, self.w)
        h = self.log_softmax(m)
        top, middle, rest = self.split(h)
        loss = self.losses[0](h, target) + self.losses[1](h, target) * 0.1 + self.losses[2](h, target)
        loss = loss + self.mean(self.pointwise(top, target[:4])) + self.mean(middle) * 0.01
        loss = loss + self.mean(self.pointwise(rest * 0.5, target[8:]))
        padded = self.pad(m, self.paddings, self.value)
        edged = self.edge(m.reshape((16, 2, 3)), self.edge_paddings)
        return loss + self.mean(padded * padded) * 0.1 + self.mean(edged * edged) * 0.05


def run(dp, mp, configure_all=True):
    net = Net(dp, mp, configure_all)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = Tensor([[((n * 5 + k * 3) % 13 - 6) / 6.0 for k in range(8)] for n in range(16)], ms.float32)
    t = np.array([[((n + 2 * j) % 5) + 0.5 for j in range(6)] for n in range(16)], np.float32)
    t[3, 2] = 0.0  # a zero label contributes 0
    target = Tensor(t / t.sum(axis=1, keepdims=True))
    return [step(x, target).item() for _ in range(6)], net.w, step


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_w, _ = run(1, 1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
losses, w, step = run(4, 2)
layout = step.parameter_layout_dict["w"]
print("rank", get_rank(), "semi_auto steps", len(losses), "losses == stand-alone within 1e-5 relative:",
      losses_match(losses, ref), "loss falls:", losses[-1] < losses[0])
print("rank", get_rank(), "w layout", layout[:3], "slice == stand-alone slice within 1e-5:",
      slice_matches(w, rank_slice(ref_w, layout, get_rank())))
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation",
                             dataset_strategy="full_batch")
losses, w, step = run(4, 2, configure_all=False)
layout = step.parameter_layout_dict["w"]
print("rank", get_rank(), "propagation losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
print("rank", get_rank(), "w layout", layout[:3], "slice == stand-alone slice within 1e-5:",
      slice_matches(w, rank_slice(ref_w, layout, get_rank())))
