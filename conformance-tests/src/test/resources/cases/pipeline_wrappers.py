# mindspore.parallel.nn's micro-batch wrappers on one device: argument errors of Pipeline/PipelineCell,
# GradAccumulation and MicroBatchInterleaved, stage_config applied to cells (and its KeyError), the micro
# batch split along dimension 0 (and its ValueError), the summed outputs; PipelineGradReducer's construction
# (MindSpore 2.10 accepts it in both modes).
import mindspore as ms
from mindspore import nn, Tensor
from mindspore.parallel.nn import GradAccumulation, MicroBatchInterleaved, Pipeline, PipelineCell, PipelineGradReducer
from _case_util import attempt


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.layer2(self.relu1(self.layer1(x)))


def errors(cls, name):
    attempt(f"{name}(list, 2)", lambda: cls([1], 2))
    attempt(f"{name}(net, '2')", lambda: cls(Net(), "2"))
    attempt(f"{name}(net, 2.0)", lambda: cls(Net(), 2.0))
    attempt(f"{name}(net, 0)", lambda: cls(Net(), 0))
    attempt(f"{name}(net, -1)", lambda: cls(Net(), -1))


for mode, label in ((ms.PYNATIVE_MODE, "PYNATIVE"), (ms.GRAPH_MODE, "GRAPH")):
    ms.set_context(mode=mode)
    print(f"== {label}")
    errors(Pipeline, "Pipeline")
    errors(PipelineCell, "PipelineCell")
    errors(GradAccumulation, "GradAccumulation")
    attempt("MicroBatchInterleaved(net, '2')", lambda: MicroBatchInterleaved(Net(), "2"))
    attempt("MicroBatchInterleaved(net, 0)", lambda: MicroBatchInterleaved(Net(), 0))

    loss = nn.WithLossCell(Net(), nn.MAELoss())
    p = Pipeline(loss, 2, stage_config={"_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1})
    b = loss.backbone_network
    print("stages:", b.layer1.pipeline_stage, b.relu1.pipeline_stage, b.layer2.pipeline_stage)
    try:
        Pipeline(nn.WithLossCell(Net(), nn.MAELoss()), 2, stage_config={"_backbone.layer9": 1})
    except KeyError as e:
        print("unknown stage_config name ->", type(e).__name__, str(e).split(" is not found")[0])

    x = Tensor([[(4 * r + c) / 10 for c in range(4)] for r in range(6)], ms.float32)
    y = Tensor([[2 * r + c for c in range(2)] for r in range(6)], ms.float32)
    whole = loss(x[0:2], y[0:2]) + loss(x[2:4], y[2:4]) + loss(x[4:6], y[4:6])
    print("Pipeline(loss, 3) = sum of the micro-batch losses:", Pipeline(loss, 3)(x, y), whole)
    print("GradAccumulation(loss, 3):", GradAccumulation(loss, 3)(x, y))
    print("MicroBatchInterleaved(loss, 3):", MicroBatchInterleaved(loss, 3)(x, y))
    print("MicroBatchInterleaved(net, 2) output shape:", MicroBatchInterleaved(Net(), 2)(x).shape)
    attempt("Pipeline(loss, 4) on 6 rows", lambda: Pipeline(loss, 4)(x, y))
    attempt("PipelineGradReducer", lambda: PipelineGradReducer(ms.ParameterTuple(loss.trainable_params())) and None)
