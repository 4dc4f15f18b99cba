# ranks: 8
# Classes model parallel through OneHot (onehot_info.cc): a softmax cross-entropy written out of
# primitives, its classifier's weight split over the classes, and OneHot's depth split with it
# ((1, 8), (), ()), with the batch as well ((2, 4), (), ()), and along axis 0 ((8, 1), (), ()). On 8
# ranks (semi_auto_parallel, Momentum) the losses equal the stand-alone losses and every rank's
# weight slice equals the stand-alone weight's. Each rank builds only its block of the classes, an
# index outside the block giving off_value, as OneHotInfo's replace graph does (before:
# "dimension 1 of input 0 can not be split"). Strategies MindSpore refuses are refused with its texts.
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from _equiv import losses_match, rank_slice, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()
BATCH, FEATURES, CLASSES = 16, 8, 64


class Net(nn.Cell):
    def __init__(self, dp, mp, axis):
        super().__init__()
        self.w = Parameter(Tensor([[((k * 7 + c * 3) % 11 - 5) / 11.0 for c in range(CLASSES)]
                                   for k in range(FEATURES)], ms.float32), name="w")
        self.matmul = ops.MatMul().shard(((dp, 1), (1, mp)))
        self.max = ops.ReduceMax(keep_dims=True).shard(((dp, mp),))
        self.sub = ops.Sub().shard(((dp, mp), (dp, 1)))
        self.exp = ops.Exp().shard(((dp, mp),))
        self.sum = ops.ReduceSum(keep_dims=True).shard(((dp, mp),))
        self.div = ops.Div().shard(((dp, mp), (dp, 1)))
        self.log = ops.Log().shard(((dp, mp),))
        self.axis = axis
        self.onehot = ops.OneHot(axis).shard(((mp, dp) if axis == 0 else (dp, mp), (), ()))
        self.transpose = ops.Transpose().shard(((mp, dp),))
        self.mul = ops.Mul().shard(((dp, mp), (dp, mp)))
        self.ce = ops.ReduceSum(keep_dims=False).shard(((dp, mp),))
        self.mean = ops.ReduceMean(keep_dims=False)
        self.on = Tensor(1.0, ms.float32)
        self.off = Tensor(0.0, ms.float32)

    def construct(self, x, labels):
        logits = self.matmul(x, self.w)
        e = self.exp(self.sub(logits, self.max(logits, -1)))
        log_p = self.log(self.div(e, self.sum(e, -1)))
        target = self.onehot(labels, CLASSES, self.on, self.off)
        if self.axis == 0:
            target = self.transpose(target, (1, 0))
        return self.mean(-self.ce(self.mul(log_p, target), -1), -1)


def run(dp, mp, axis=-1, labels=None):
    net = Net(dp, mp, axis)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.5, 0.9))
    step.set_train()
    x = Tensor([[((n * 5 + k * 3) % 13 - 6) / 6.0 for k in range(FEATURES)] for n in range(BATCH)],
               ms.float32)
    if labels is None:
        labels = Tensor([(n * 9 + 2) % CLASSES for n in range(BATCH)], ms.int32)
    losses = [step(x, labels).item() for _ in range(5)]
    return losses, net.w, step.parameter_layout_dict.get("w")


FORMS = [
    ("classes split 8", 1, 8, -1),
    ("batch 2, classes 4", 2, 4, -1),
    ("axis 0, classes split 8", 1, 8, 0),
]
for title, dp, mp, axis in FORMS:
    ms.set_auto_parallel_context(parallel_mode="stand_alone")
    ref, ref_w, _ = run(dp, mp, axis)
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    losses, w, layout = run(dp, mp, axis)
    ms.reset_auto_parallel_context()
    print(title, "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
          "loss falls:", losses[-1] < losses[0])
    print(" ", "w layout", layout[:3], "slice == stand-alone slice within 1e-5:",
          slice_matches(w, rank_slice(ref_w, layout, get_rank())))


class TwoDim(nn.Cell):
    def __init__(self, strategy, axis):
        super().__init__()
        self.onehot = ops.OneHot(axis).shard(strategy)
        self.on = Tensor(1.0, ms.float32)
        self.off = Tensor(0.0, ms.float32)

    def construct(self, labels):
        return self.onehot(labels, 8, self.on, self.off)


for title, strategy, axis in [("2-D indices, classes split", ((2, 1, 4), (), ()), -1),
                              ("2-D indices, axis 0", ((8, 1, 1), (), ()), 0)]:
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    try:
        TwoDim(strategy, axis)(Tensor([[n % 8, (n + 3) % 8] for n in range(8)], ms.int32))
        print(title, "-> ran")
    except RuntimeError as e:
        print(title, "->", type(e).__name__, str(e).splitlines()[-1])
    ms.reset_auto_parallel_context()
