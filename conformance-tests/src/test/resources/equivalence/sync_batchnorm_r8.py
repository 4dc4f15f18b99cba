# ranks: 8
# nn.SyncBatchNorm in data-parallel training on 8 ranks, each rank holding a block of the batch:
# with every rank in one sync group, 4 Momentum steps give the stand-alone BatchNorm2d's losses
# (the mean of the ranks' losses), weights, scale, bias and moving statistics; the scale and bias
# gradients are the group's mean (MindSpore's SyncBatchNormGrad), so the reducer's average is the
# stand-alone gradient. With process_groups, a training forward normalises each rank's block with
# its own group's statistics (the stand-alone BatchNorm of that group's blocks) and updates the
# moving statistics from them; a one-rank group is a plain BatchNorm. 2-D inputs as BatchNorm1d.
# Group names are MindSpore's (size and SHA-256 of the rank list).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from _equiv import losses_match, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()
rank = get_rank()


def values(shape, seed):
    n = int(np.prod(shape))
    return np.array([((i * 7 + seed * 3) % 17 - 8) / 16.0 for i in range(n)], np.float32).reshape(shape)


class Net(nn.Cell):
    def __init__(self, bn):
        super().__init__()
        self.w = Parameter(Tensor(values((4, 3, 3, 3), 1)), name="w")
        self.conv = ops.Conv2D(out_channel=4, kernel_size=3, pad_mode="same")
        self.bn = bn
        self.relu = ops.ReLU()
        self.mean = ops.ReduceMean()
        self.square = ops.Square()

    def construct(self, x, target):
        out = self.relu(self.bn(self.conv(x, self.w)))
        return self.mean(self.square(out - target))


def train(net, x, target):
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    return [step(x, target).item() for _ in range(4)], {p.name: p for p in net.get_parameters()}


x_all, y_all = values((16, 3, 6, 6), 2), values((16, 4, 6, 6), 3)
block = slice(2 * rank, 2 * rank + 2)

ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_params = train(Net(nn.BatchNorm2d(4, momentum=0.8)), Tensor(x_all), Tensor(y_all))
ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
net = Net(nn.SyncBatchNorm(4, momentum=0.8))
losses, params = train(net, Tensor(x_all[block]), Tensor(y_all[block]))
mean_losses = [(ops.AllReduce()(Tensor(np.float32(v))) / 8).item() for v in losses]
same = [slice_matches(params[n], ref_params[n]) for n in sorted(params)]
print("rank", rank, "global group", net.bn.group_name, net.bn.is_global,
      "mean loss == stand-alone within 1e-5 relative:", losses_match(mean_losses, ref),
      "loss falls:", mean_losses[-1] < mean_losses[0], "parameters and moving statistics == stand-alone:", same)
ms.reset_auto_parallel_context()


def forward(bn, x):
    bn.set_train()
    y = bn(Tensor(x))
    return y, bn.moving_mean, bn.moving_variance


data4 = values((16, 4, 3, 3), 5)
data2 = values((32, 6), 7)
for groups in ([[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 1], [2, 3], [4, 5], [6, 7]], [[r] for r in range(8)],
               [[0, 3, 5], [1, 2, 4, 6, 7]]):
    members = next(g for g in groups if rank in g)
    for data, plain, width in ((data4, nn.BatchNorm2d, 2), (data2, nn.BatchNorm1d, 4)):
        feats = data.shape[1]
        sync = nn.SyncBatchNorm(feats, momentum=0.7, process_groups=groups)
        mine = data[width * rank:width * (rank + 1)]
        y, mm, mv = forward(sync, mine)
        group_batch = np.concatenate([data[width * r:width * (r + 1)] for r in members])
        ry, rmm, rmv = forward(plain(feats, momentum=0.7), group_batch)
        at = members.index(rank)
        ok = [slice_matches(y, ry[width * at:width * (at + 1)]), slice_matches(mm, rmm), slice_matches(mv, rmv)]
        print("rank", rank, "groups", groups, len(data.shape), "-D: global", sync.is_global, "group",
              sync.group_name, "output, moving mean, moving variance == stand-alone BatchNorm of the group:", ok)

try:
    nn.SyncBatchNorm(4, process_groups=[[0, 1], [1, 2]])
except ValueError as e:
    print("rank", rank, "ValueError", e)
try:
    nn.SyncBatchNorm(4, process_groups=[[0, 8]])
except ValueError as e:
    print("rank", rank, "ValueError", e)
try:
    nn.SyncBatchNorm(4, process_groups=(0, 1))
except ValueError as e:
    print("rank", rank, "ValueError", e)
