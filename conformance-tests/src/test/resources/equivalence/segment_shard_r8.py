# ranks: 8
# Training through MindSpore's segment reductions sharded as unsorted_segment_op_info.cc shards them:
# UnsortedSegmentSum/Max/Min/Prod with their ids split along x's rows (4 ways) and x's columns split
# 2 ways or whole, on 8 ranks (semi_auto_parallel, Momentum), gives the stand-alone losses and
# weights. Split ids leave each rank a partial result over its rows (an AllReduce sum/max/min/prod);
# a negative id drops its row; the gradients (MindSpore's bprops: gather, tie-sharing for Max/Min,
# the product of the others for Prod) flow back to the weight through the same sharded graph.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from _equiv import losses_match, rank_slice, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()
SEGMENTS = 5


class Net(nn.Cell):
    def __init__(self, dp, mp):
        super().__init__()
        w = np.array([[((i * 7 + j * 3) % 11 - 5) / 10.0 for j in range(6)] for i in range(8)], np.float32)
        self.w = Parameter(Tensor(w), name="w")
        self.matmul = ops.MatMul().shard(((dp, 1), (1, mp)))
        self.seg_sum = ops.UnsortedSegmentSum().shard(((dp, mp), (dp,)))
        self.seg_max = ops.UnsortedSegmentMax().shard(((dp, mp), (dp,)))
        self.seg_min = ops.UnsortedSegmentMin().shard(((dp, 1), (dp,)))
        self.seg_prod = ops.UnsortedSegmentProd().shard(((dp, 1), (dp,)))
        self.tanh = ops.Tanh()
        self.mean = ops.ReduceMean()
        self.square = ops.Square()

    def construct(self, x, ids, target):
        h = self.matmul(x, self.w)
        out = self.seg_sum(h, ids, SEGMENTS) + self.seg_max(h, ids, SEGMENTS) - self.seg_min(h, ids, SEGMENTS)
        out = out + self.seg_prod(1.0 + 0.5 * self.tanh(h), ids, SEGMENTS)
        return self.mean(self.square(out - target))


def run(dp, mp):
    net = Net(dp, mp)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.02, 0.9))
    step.set_train()
    x = Tensor([[((n * 5 + k * 3) % 13 - 6) / 6.0 for k in range(8)] for n in range(16)], ms.float32)
    ids = Tensor([n % SEGMENTS if n != 6 else -1 for n in range(16)], ms.int32)
    target = Tensor([[((s + j) % 4) / 2.0 for j in range(6)] for s in range(SEGMENTS)], ms.float32)
    return [step(x, ids, target).item() for _ in range(6)], net.w, step


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_w, _ = run(1, 1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
losses, w, step = run(4, 2)
layout = step.parameter_layout_dict["w"]
print("rank", get_rank(), "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
      "loss falls:", losses[-1] < losses[0])
print("rank", get_rank(), "w layout", layout[:3], "slice == stand-alone slice within 1e-5:",
      slice_matches(w, rank_slice(ref_w, layout, get_rank())))
