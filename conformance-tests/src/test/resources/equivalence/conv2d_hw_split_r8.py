# ranks: 8
# Training through a Conv2D whose input is split along H and W, as conv2d_info.cc splits it, on 8
# ranks (semi_auto_parallel, Momentum), gives the stand-alone losses and weights: each rank exchanges
# the rows and columns its window overlaps with its neighbours (NeighborExchangeV2, the corners from
# the diagonal neighbours when both H and W are split), convolves its framed slice with its own
# pads, and sends the input gradient's frame back (NeighborExchangeV2Grad); the filter gradient is
# summed over the image blocks. Covered: 'same' with H and W split (corners), 'pad' with stride 2
# and MindSpore's trimmed bottom pad (only the top overlaps), dilation with W split 8 ways into
# 2-column slices (each rank sends its whole slice), a batch and c-out split beside H, a grouped
# convolution, 'valid' without overlap (no exchange), and MaxPool/AvgPool keeping the split after
# it. Splits MindSpore refuses give its errors.
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


class Net(nn.Cell):
    def __init__(self, conv, strategy, cin, cout, k, pool=None):
        super().__init__()
        self.w = Parameter(Tensor(values((cout, cin // conv.get("group", 1)) + k, 1)), name="w")
        self.conv = ops.Conv2D(out_channel=cout, kernel_size=k, **conv).shard(strategy)
        self.relu = ops.ReLU()
        self.pool = None
        if pool is not None:
            self.pool = pool[0](kernel_size=2, strides=2)
            if strategy is not None:
                self.pool.shard(pool[1])
        self.mean = ops.ReduceMean()
        self.square = ops.Square()

    def construct(self, x, target):
        out = self.relu(self.conv(x, self.w))
        if self.pool is not None:
            out = self.pool(out)
        return self.mean(self.square(out - target))


def run(conv, strategy, xshape, cout, k, steps=4, pool=None):
    net = Net(conv, strategy, xshape[1], cout, k, pool)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = Tensor(values(xshape, 2))
    y = ops.Conv2D(out_channel=cout, kernel_size=k, **conv)(x, net.w)
    if pool is not None:
        y = pool[0](kernel_size=2, strides=2)(y)
    target = Tensor(values(y.shape, 3))
    return [step(x, target).item() for _ in range(steps)], net.w, step


CASES = [
    ("same 3x3, H 2 x W 4", dict(pad_mode="same"), ((1, 1, 2, 4), (1, 1, 1, 1)), (2, 3, 8, 8), 4, (3, 3)),
    ("pad (1,1,1,1) stride 2, H 4", dict(pad_mode="pad", pad=1, stride=2), ((2, 1, 4, 1), (1, 1, 1, 1)),
     (2, 2, 16, 6), 3, (3, 3)),
    ("same dilation 2, W 8", dict(pad_mode="same", dilation=2), ((1, 1, 1, 8), (1, 1, 1, 1)), (1, 2, 5, 16), 2,
     (3, 3)),
    ("same 3x2, N 2 x c-out 2 x H 2", dict(pad_mode="same"), ((2, 1, 2, 1), (2, 1, 1, 1)), (4, 2, 6, 5), 4, (3, 2)),
    ("same group 2, H 2 x W 2", dict(pad_mode="same", group=2), ((2, 1, 2, 2), (1, 1, 1, 1)), (2, 4, 6, 6), 4,
     (3, 3)),
    ("valid 2x2 stride 2, H 2 x W 2", dict(pad_mode="valid", stride=2), ((2, 1, 2, 2), (1, 1, 1, 1)),
     (2, 3, 8, 8), 2, (2, 2)),
]

# Pooling 2x2 with stride 2 after the split convolution keeps H and W split (windows do not
# overlap: no exchange), forward and gradient.
POOLED = [("same 3x3 + MaxPool, H 2 x W 4", dict(pad_mode="same"), ((1, 1, 2, 4), (1, 1, 1, 1)), (2, 3, 8, 16), 4,
           (3, 3), (ops.MaxPool, ((1, 1, 2, 4),))),
          ("same 3x3 + AvgPool, N 2 x H 2 x W 2", dict(pad_mode="same"), ((2, 1, 2, 2), (1, 1, 1, 1)), (2, 3, 8, 8),
           4, (3, 3), (ops.AvgPool, ((2, 1, 2, 2),)))]

for name, conv, strategy, xshape, cout, k, *pool in CASES + POOLED:
    pool = pool[0] if pool else None
    ms.set_auto_parallel_context(parallel_mode="stand_alone")
    ref, ref_w, _ = run(conv, None, xshape, cout, k, pool=pool)
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    losses, w, step = run(conv, strategy, xshape, cout, k, pool=pool)
    layout = step.parameter_layout_dict["w"]
    print("rank", get_rank(), name, strategy, "losses == stand-alone within 1e-5 relative:",
          losses_match(losses, ref), "loss falls:", losses[-1] < losses[0],
          "w slice == stand-alone slice within 1e-5:", slice_matches(w, rank_slice(ref_w, layout, get_rank())))
    ms.reset_auto_parallel_context()

# MindSpore's refusals: a window overlapping a neighbour in 'valid' mode, an overlap larger than a
# slice, a negative overlap, a split c-in or c-out of a grouped convolution.
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
for name, conv, strategy, xshape, cout, k in [
        ("valid 3x3 H 2", dict(pad_mode="valid"), ((1, 1, 2, 1), (1, 1, 1, 1)), (1, 2, 8, 8), 2, (3, 3)),
        ("same 5x5 W 8", dict(pad_mode="same"), ((1, 1, 1, 8), (1, 1, 1, 1)), (1, 2, 8, 8), 2, (5, 5)),
        ("pad (3,0,0,0) stride 2 H 2", dict(pad_mode="pad", pad=(3, 0, 0, 0), stride=2),
         ((1, 1, 2, 1), (1, 1, 1, 1)), (1, 2, 14, 6), 2, (3, 3)),
        ("group 2 c-out 2", dict(pad_mode="same", group=2), ((1, 1, 1, 1), (2, 1, 1, 1)), (2, 4, 6, 6), 4,
         (3, 3))]:
    try:
        run(conv, strategy, xshape, cout, k, steps=1)
        print("rank", get_rank(), name, "accepted")
    except RuntimeError as e:
        print("rank", get_rank(), name, "RuntimeError", str(e).splitlines()[0], "|", str(e).splitlines()[1])
