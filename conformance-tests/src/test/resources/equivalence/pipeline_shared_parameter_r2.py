# ranks: 2
# A parameter that cells of both pipeline stages read (MindSpore's test_pipeline_split shared-parameter
# network: each stage's MatMulCell multiplies by the same `param`, behind a Cast). As MindSpore's
# HandleSharedParameter, the lowest stage using it holds it and sends its value to the other stage; the
# other stage's gradient comes back, and the sum over micro-batches and stages is made where the
# parameter lives. Before, that sum alternated between the stages term by term and no schedule could
# run it ("stage 0 would wait forever for Cast from stage 1"). Each run (1F1B and GPipe, 4
# micro-batches, Momentum) must equal the stand-alone network on whole batches: the shared parameter
# on stage 0, each stage's own parameter on its stage, the last stage's losses (the sum of the
# micro-batches' losses).
from _equiv import losses_match, slice_matches
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from mindspore.train import Model
from _par_common import dataset, LossLog

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
MICRO = 4


class MatMulCell(nn.Cell):
    def __init__(self, param, k):
        super().__init__()
        self.param = param
        self.param1 = Parameter(Tensor([[0.1 * ((i * 7 + j * 3 + k) % 11 - 5) for j in range(16)]
                                        for i in range(16)], ms.float32), name="param1")
        self.matmul = ops.MatMul()
        self.matmul1 = ops.MatMul()
        self.cast = ops.Cast()

    def construct(self, x):
        out = self.matmul(self.cast(x, ms.float32), self.cast(self.param, ms.float32))
        return self.matmul1(ops.relu(out), self.cast(self.param1, ms.float32))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor([[0.03 * ((i * 5 + j) % 9 - 4) for j in range(16)] for i in range(16)],
                                      ms.float32), name="param")
        self.block = nn.CellList([MatMulCell(self.param, 0), MatMulCell(self.param, 1)])
        self.block[0].pipeline_stage = 0
        self.block[1].pipeline_stage = 1

    def construct(self, x, label):
        for i in range(2):
            x = self.block[i](x)
        return ((x - label) ** 2).mean()


xs = [[((s * 13 + i * 3) % 10) / 10 for i in range(16)] for s in range(24)]
ys = [[(s + i) % 4 for i in range(16)] for s in range(24)]  # int32 labels (dataset casts them)


def run(pipeline):
    net = Net()
    wrapped = nn.PipelineCell(net, MICRO) if pipeline else net
    log = LossLog()
    Model(wrapped, optimizer=nn.Momentum(net.trainable_params(), 0.02, 0.9)).train(
        2, dataset(xs, ys, 8), callbacks=[log], dataset_sink_mode=False)
    return net, log.losses


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_losses = run(False)
stage = get_rank()
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=2, dataset_strategy="full_batch")
for scheduler in ("1f1b", "gpipe"):
    ms.set_auto_parallel_context(pipeline_config={"pipeline_interleave": scheduler == "gpipe",
                                                  "pipeline_scheduler": scheduler})
    net, losses = run(True)
    print(scheduler, "steps", len(losses))
    if stage == 0:
        moved = ops.ReduceMax()(ops.abs(net.param - Net().param)).item()
        print("  shared param (held by stage 0) == stand-alone:", slice_matches(net.param, ref.param),
              "moved by more than 1e-3:", moved > 1e-3)
    else:
        # PipelineCell adds the micro-batches' losses (MindSpore's): MICRO times the whole batch's mean.
        print("  losses == stand-alone x micro-batches within 1e-5 relative:",
              losses_match(losses, [v * MICRO for v in ref_losses]))
    print("  stage", stage, "param1 == stand-alone:",
          slice_matches(net.block[stage].param1, ref.block[stage].param1))
ms.reset_auto_parallel_context()
