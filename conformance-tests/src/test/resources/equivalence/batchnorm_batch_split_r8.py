# ranks: 8
# Training through BatchNorm with its batch (and H, W) split, on 8 ranks (semi_auto_parallel,
# Momentum), gives the stand-alone losses, weights and moving statistics: as MindSpore's BatchNormInfo
# substitutes SyncBatchNorm for it, each rank sums the per-channel statistics of its block over the
# ranks holding the rest of the batch, normalises with the whole batch's mean and variance, and
# sums the gradient's per-channel terms the same way (BatchNormGrad -> SyncBatchNormGrad). Covered:
# the batch split 8 ways after a batch-split convolution, batch x H x W after a convolution split
# along H and W (halo exchanges), batch x channel (only the batch synchronised), the default
# strategy of an unannotated BatchNorm2d (batch split), and BatchNorm1d on a batch-split Dense.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from _equiv import losses_match, rank_slice, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()


def values(shape, seed):
    n = int(np.prod(shape))
    return np.array([((i * 7 + seed * 3) % 17 - 8) / 16.0 for i in range(n)], np.float32).reshape(shape)


class Net2d(nn.Cell):
    def __init__(self, conv_strategy, bn_strategy):
        super().__init__()
        self.w = Parameter(Tensor(values((4, 3, 3, 3), 1)), name="w")
        self.conv = ops.Conv2D(out_channel=4, kernel_size=3, pad_mode="same")
        if conv_strategy is not None:
            self.conv.shard(conv_strategy)
        self.bn = nn.BatchNorm2d(4, momentum=0.8)
        if bn_strategy is not None:
            self.bn.bn_train.shard(bn_strategy)
        self.relu = ops.ReLU()
        self.mean = ops.ReduceMean()
        self.square = ops.Square()

    def construct(self, x, target):
        out = self.relu(self.bn(self.conv(x, self.w)))
        return self.mean(self.square(out - target))


class Net1d(nn.Cell):
    def __init__(self, mm_strategy, bn_strategy):
        super().__init__()
        self.w = Parameter(Tensor(values((6, 5), 1)), name="w")
        self.matmul = ops.MatMul()
        if mm_strategy is not None:
            self.matmul.shard(mm_strategy)
        self.bn = nn.BatchNorm1d(5, momentum=0.8)
        if bn_strategy is not None:
            self.bn.bn_train.shard(bn_strategy)
        self.mean = ops.ReduceMean()
        self.square = ops.Square()

    def construct(self, x, target):
        out = self.bn(self.matmul(x, self.w))
        return self.mean(self.square(out - target))


def run(net, xshape, yshape):
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x, target = Tensor(values(xshape, 2)), Tensor(values(yshape, 3))
    losses = [step(x, target).item() for _ in range(4)]
    return losses, {p.name: p for p in net.get_parameters()}, step


C = (1,)
CASES = [
    ("batch 8", Net2d, ((8, 1, 1, 1), (1, 1, 1, 1)), ((8, 1, 1, 1), C, C, C, C), (8, 3, 6, 6), (8, 4, 6, 6)),
    ("batch 2 x H 2 x W 2", Net2d, ((2, 1, 2, 2), (1, 1, 1, 1)), ((2, 1, 2, 2), C, C, C, C), (4, 3, 8, 8),
     (4, 4, 8, 8)),
    ("batch 4 x channel 2", Net2d, ((4, 1, 1, 1), (2, 1, 1, 1)), ((4, 2, 1, 1), (2,), (2,), (2,), (2,)),
     (8, 3, 4, 4), (8, 4, 4, 4)),
    ("unannotated BatchNorm2d", Net2d, ((8, 1, 1, 1), (1, 1, 1, 1)), None, (8, 3, 4, 4), (8, 4, 4, 4)),
    ("BatchNorm1d batch 8", Net1d, ((8, 1), (1, 1)), ((8, 1), C, C, C, C), (16, 6), (16, 5)),
]

for name, net, first, bn, xshape, yshape in CASES:
    ms.set_auto_parallel_context(parallel_mode="stand_alone")
    ref, ref_params, _ = run(net(None, None), xshape, yshape)
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    losses, params, step = run(net(first, bn), xshape, yshape)
    layouts = step.parameter_layout_dict
    same = []
    for pname in sorted(params):
        p, q = params[pname], ref_params[pname]
        same.append(slice_matches(p, rank_slice(q, layouts[pname], get_rank()) if pname in layouts else q))
    print("rank", get_rank(), name, "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
          "loss falls:", losses[-1] < losses[0], "parameters and moving statistics == stand-alone:", same)
    ms.reset_auto_parallel_context()
