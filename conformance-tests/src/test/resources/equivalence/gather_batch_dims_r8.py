# ranks: 8
# Training through a Gather with batch_dims=1 (gather_info.cc's BATCH mode: the batch dimension
# split alike in the table and the indices, the gathered axis whole, the table's other dimensions
# and the indices' free one split too) on 8 ranks (semi_auto_parallel, Momentum) gives the
# stand-alone losses and every rank's table slice equals the stand-alone table's. Strategies
# MindSpore refuses in BATCH mode are refused with its texts.
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from _equiv import losses_match, rank_slice, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()


class Net(nn.Cell):
    def __init__(self, strategy):
        super().__init__()
        self.table = Parameter(Tensor([[[((b * 7 + r * 5 + c * 3) % 17 - 8) / 8.0 for c in range(8)]
                                        for r in range(16)] for b in range(4)], ms.float32), name="table")
        self.gather = ops.Gather(batch_dims=1).shard(strategy)
        self.w = Parameter(Tensor([[((k * 7 + c) % 9 - 4) / 9.0 for c in range(4)] for k in range(48)],
                                  ms.float32), name="w")
        self.matmul = ops.MatMul()
        self.reshape = ops.Reshape()
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, ids, labels):
        rows = self.gather(self.table, ids, 1)  # (4, 6, 8)
        return self.loss(self.matmul(self.reshape(rows, (4, 48)), self.w), labels)


def run(strategy):
    net = Net(strategy)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    ids = Tensor([[(b * 5 + k * 3) % 16 for k in range(6)] for b in range(4)], ms.int32)
    labels = Tensor([b % 4 for b in range(4)], ms.int32)
    losses = [step(ids, labels).item() for _ in range(5)]
    return losses, net.table, step.parameter_layout_dict.get("table")


for strategy in (((4, 1, 2), (4, 1)), ((2, 1, 2), (2, 2)), ((1, 1, 8), (1, 1))):
    ms.set_auto_parallel_context(parallel_mode="stand_alone")
    ref, ref_table, _ = run(strategy)
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    losses, table, layout = run(strategy)
    ms.reset_auto_parallel_context()
    print(strategy, "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
          "loss falls:", losses[-1] < losses[0])
    print(" ", "table layout", layout[:3], "slice == stand-alone slice within 1e-5:",
          slice_matches(table, rank_slice(ref_table, layout, get_rank())))

for strategy in (((1, 2, 1), (1, 1)), ((2, 1, 1), (4, 1))):
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
    try:
        run(strategy)
        print(strategy, "-> compiled")
    except RuntimeError as e:
        print(strategy, "->", type(e).__name__, str(e).splitlines()[-1])
    ms.reset_auto_parallel_context()
