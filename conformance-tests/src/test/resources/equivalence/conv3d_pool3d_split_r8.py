# ranks: 8
# Training through a Conv3D and a MaxPool3D whose NCDHW inputs are split along D and H, as
# conv3d_info.cc and max_avg_pool_3d_info.cc split them, on 8 ranks (semi_auto_parallel, Momentum),
# gives the stand-alone losses and weights: each rank exchanges the planes and rows its windows
# overlap with its neighbours (NeighborExchangeV2 over D and H, W carried along, the corner blocks
# from the diagonal neighbours), runs its framed slice with its own pads, and sends the input
# gradient's frame back. Covered: Conv3D 'same' with D 2 x H 4 (a 3-D U-Net block: Conv3D, ReLU,
# MaxPool3D 'same' keeping the split), 'pad' 1 with stride 2 and MindSpore's trimmed tail pads (only
# the leading overlap), a batch and c-out split beside D, a grouped Conv3D, 'valid' without overlap,
# MaxPool3D 'pad' with stride 2 (its tail pad trimmed), MaxPool3D and AvgPool3D with ceil_mode (a last
# window past the padding, counted or not), AvgPool3D without counting the pads; then sharding
# propagation from a configured ReLU.
# Splits MindSpore refuses give its errors (the W dimension, an overlapping 'valid' window, a
# negative overlap, an output not divisible by the split).
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


def pool_op(pool):
    """The pooling primitive of a case's (attributes, strategy[, name]); MaxPool3D by default."""
    return getattr(ops, pool[2] if len(pool) > 2 else "MaxPool3D")


class Net(nn.Cell):
    def __init__(self, conv, strategy, cin, cout, k, pool=None, relu=None):
        super().__init__()
        group = conv.get("group", 1)
        self.w = Parameter(Tensor(values((cout, cin // group) + k, 1)), name="w")
        self.conv = ops.Conv3D(out_channel=cout, kernel_size=k, **conv)
        if strategy is not None:
            self.conv.shard(strategy)
        self.relu = ops.ReLU()
        if relu is not None:
            self.relu.shard(relu)
        self.pool = None
        if pool is not None:
            self.pool = pool_op(pool)(**pool[0])
            if pool[1] is not None:
                self.pool.shard(pool[1])
        self.mean = ops.ReduceMean()
        self.square = ops.Square()

    def construct(self, x, target):
        out = self.relu(self.conv(x, self.w))
        if self.pool is not None:
            out = self.pool(out)
        return self.mean(self.square(out - target))


def run(conv, strategy, xshape, cout, k, steps=3, pool=None, relu=None):
    net = Net(conv, strategy, xshape[1], cout, k, pool, relu)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = Tensor(values(xshape, 2))
    y = ops.Conv3D(out_channel=cout, kernel_size=k, **conv)(x, net.w)
    if pool is not None:
        y = pool_op(pool)(**pool[0])(y)
    target = Tensor(values(y.shape, 3))
    return [step(x, target).item() for _ in range(steps)], net.w, step


WHOLE = ((1, 1, 1, 1, 1), (1, 1, 1, 1, 1))
CASES = [
    ("same 3x3x3, D 2 x H 4", dict(pad_mode="same"), ((1, 1, 2, 4, 1), (1, 1, 1, 1, 1)), (1, 2, 8, 8, 3), 3,
     (3, 3, 3), None),
    ("U-Net block: same 3x3x3 + MaxPool3D same 3, D 2 x H 4", dict(pad_mode="same"),
     ((1, 1, 2, 4, 1), (1, 1, 1, 1, 1)), (1, 2, 8, 8, 3), 2, (3, 3, 3),
     (dict(kernel_size=3, strides=1, pad_mode="same"), ((1, 1, 2, 4, 1),))),
    ("pad 1 stride 2, D 2 x H 2", dict(pad_mode="pad", pad=1, stride=2), ((2, 1, 2, 2, 1), (1, 1, 1, 1, 1)),
     (2, 2, 8, 8, 4), 2, (3, 3, 3), None),
    ("same 3x2x2, N 2 x c-out 2 x D 2", dict(pad_mode="same"), ((2, 1, 2, 1, 1), (2, 1, 1, 1, 1)),
     (2, 2, 6, 5, 3), 4, (3, 2, 2), None),
    ("same group 2, D 2 x H 2", dict(pad_mode="same", group=2), ((2, 1, 2, 2, 1), (1, 1, 1, 1, 1)),
     (2, 4, 6, 6, 2), 4, (3, 3, 1), None),
    ("valid 2x2x2 stride 2, D 2 x H 2", dict(pad_mode="valid", stride=2), ((2, 1, 2, 2, 1), (1, 1, 1, 1, 1)),
     (2, 3, 8, 8, 4), 2, (2, 2, 2), None),
    ("same 3x3x3 + MaxPool3D pad 1 stride 2 (tail pad trimmed), H 4", dict(pad_mode="same"),
     ((1, 1, 1, 4, 1), (1, 1, 1, 1, 1)), (1, 2, 6, 16, 3), 2, (3, 3, 3),
     (dict(kernel_size=3, strides=2, pad_mode="pad", pad_list=1), ((1, 1, 1, 4, 1),))),
    ("same 3x3x3 + MaxPool3D pad 1 stride 2 ceil_mode, D 2 x H 2", dict(pad_mode="same"),
     ((1, 1, 2, 2, 1), (1, 1, 1, 1, 1)), (1, 2, 6, 6, 3), 2, (3, 3, 3),
     (dict(kernel_size=3, strides=2, pad_mode="pad", pad_list=1, ceil_mode=True), ((1, 1, 2, 2, 1),))),
    ("same 3x3x3 + AvgPool3D pad 1 stride 2 ceil_mode, D 2 x H 2", dict(pad_mode="same"),
     ((1, 1, 2, 2, 1), (1, 1, 1, 1, 1)), (1, 2, 6, 6, 3), 2, (3, 3, 3),
     (dict(kernel_size=3, strides=2, pad_mode="pad", pad=1, ceil_mode=True), ((1, 1, 2, 2, 1),), "AvgPool3D")),
    ("same 3x3x3 + AvgPool3D pad 1 not counting pads, D 2 x H 4", dict(pad_mode="same"),
     ((1, 1, 2, 4, 1), (1, 1, 1, 1, 1)), (1, 2, 8, 8, 3), 2, (3, 3, 3),
     (dict(kernel_size=3, strides=1, pad_mode="pad", pad=1, count_include_pad=False), ((1, 1, 2, 4, 1),),
      "AvgPool3D")),
]

for name, conv, strategy, xshape, cout, k, pool in CASES:
    ms.set_auto_parallel_context(parallel_mode="stand_alone")
    ref, ref_w, _ = run(conv, None, xshape, cout, k, pool=(pool[0], None) + pool[2:] if pool else None)
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    losses, w, step = run(conv, strategy, xshape, cout, k, pool=pool)
    layout = step.parameter_layout_dict["w"]
    print("rank", get_rank(), name, strategy, "losses == stand-alone within 1e-5 relative:",
          losses_match(losses, ref), "loss falls:", losses[-1] < losses[0],
          "w slice == stand-alone slice within 1e-5:", slice_matches(w, rank_slice(ref_w, layout, get_rank())))
    ms.reset_auto_parallel_context()

# Sharding propagation: only the ReLU after the Conv3D is configured; the Conv3D takes its D and H
# split from it and exchanges as above.
conv, xshape, k = dict(pad_mode="pad", pad=1, stride=2), (2, 2, 8, 8, 4), (3, 3, 3)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_w, _ = run(conv, None, xshape, 2, k)
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation",
                             dataset_strategy="full_batch")
losses, w, step = run(conv, None, xshape, 2, k, relu=((1, 1, 2, 4, 1),))
print("rank", get_rank(), "propagated from ReLU (1, 1, 2, 4, 1): losses == stand-alone within 1e-5 relative:",
      losses_match(losses, ref), "w slice == stand-alone slice within 1e-5:",
      slice_matches(w, rank_slice(ref_w, step.parameter_layout_dict["w"], get_rank())))
ms.reset_auto_parallel_context()

# MindSpore's refusals.
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
for name, conv, strategy, xshape, cout, k, pool in [
        ("Conv3D W split", dict(pad_mode="same"), ((1, 1, 1, 4, 2), (1, 1, 1, 1, 1)), (1, 2, 8, 8, 4), 2,
         (3, 3, 3), None),
        ("Conv3D valid 3x3x3 D 2", dict(pad_mode="valid"), ((1, 1, 2, 1, 1), (1, 1, 1, 1, 1)), (1, 2, 8, 8, 4), 2,
         (3, 3, 3), None),
        ("Conv3D pad (3,0,...) stride 2 D 2", dict(pad_mode="pad", pad=(3, 0, 0, 0, 0, 0), stride=2),
         ((1, 1, 2, 1, 1), (1, 1, 1, 1, 1)), (1, 2, 14, 6, 4), 2, (3, 3, 3), None),
        ("MaxPool3D kernel 4 stride 5 pad 3, D 4 x H 2", dict(pad_mode="valid"), WHOLE, (1, 2, 16, 16, 4), 2,
         (1, 1, 1), (dict(kernel_size=4, strides=5, pad_mode="pad", pad_list=(3, 0, 3, 0, 3, 0)),
                     ((1, 1, 4, 2, 1),))),
        ("MaxPool3D valid kernel 2 stride 4, H 8", dict(pad_mode="valid"), WHOLE, (1, 2, 16, 16, 4), 2, (1, 1, 1),
         (dict(kernel_size=2, strides=4, pad_mode="valid"), ((1, 1, 1, 8, 1),)))]:
    try:
        run(conv, strategy, xshape, cout, k, steps=1, pool=pool)
        print("rank", get_rank(), name, "accepted")
    except RuntimeError as e:
        print("rank", get_rank(), name, "RuntimeError", str(e).splitlines()[0], "|", str(e).splitlines()[1])
