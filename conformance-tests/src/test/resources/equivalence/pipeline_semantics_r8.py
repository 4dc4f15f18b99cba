# ranks: 8
# Pipeline parallel on 8 ranks, what is in place so far: the micro-batch wrapper (Pipeline with 4 micro-batches
# and a stage_config), pipeline_stages=2 in semi_auto_parallel, the training step MindSpore builds for it
# (_TrainGradAccuStepCell: the loss is the sum of the micro-batch losses, the gradient applied is that sum's
# gradient / micro_size) and MindSpore's stage colouring errors, raised on every rank without a hang. The
# stages are not cut apart yet (every rank runs the whole step), so the run must equal the stand-alone run
# of the same network whose SGD learning rate is divided by the micro-batch count (stand-alone builds a
# TrainOneStepCell, which applies the summed gradient): per-step losses within 1e-5 relative, weights within
# float32 tolerance.
from _equiv import losses_match, slice_matches
import mindspore as ms
from mindspore import nn
from mindspore.communication import init
from mindspore.parallel.nn import Pipeline
from mindspore.train import Model
from _par_common import samples, dataset, LossLog, show

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
MICRO = 4
STAGES = {"_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1, "_backbone.relu2": 1,
          "_backbone.layer3": 1}


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(28 * 28, 64)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(64, 64)
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(64, 10)

    def construct(self, x):
        return self.layer3(self.relu2(self.layer2(self.relu1(self.layer1(self.flatten(x))))))


def run(lr, micro=MICRO, stage_config=None):
    ms.set_seed(1)
    net = Network()
    wrapped = Pipeline(nn.WithLossCell(net, nn.CrossEntropyLoss()), micro, stage_config=stage_config)
    model = Model(wrapped, optimizer=nn.SGD(net.trainable_params(), lr))
    log = LossLog()
    model.train(1, dataset(xs, ys, 16), callbacks=[log])
    return net, log.losses


xs, ys = samples(80)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net, ref = run(1e-2 / MICRO)

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=2, dataset_strategy="full_batch")
net, losses = run(1e-2, stage_config=STAGES)
print("pipeline_stages=2, micro 4: steps", len(losses), "losses == stand-alone within 1e-5 relative:",
      losses_match(losses, ref))
print("  weights == stand-alone within float32 tolerance:",
      all(slice_matches(p, q) for p, q in zip(net.trainable_params(), ref_net.trainable_params())))

for title, micro, config in (
        ("layer2 on stage 0 after relu1 on stage 1", MICRO,
         dict(STAGES, **{"_backbone.relu1": 1, "_backbone.layer2": 0})),
        ("every layer on stage 0", MICRO, {k: 0 for k in STAGES}),
        ("1 micro-batch for 2 stages", 1, STAGES)):
    try:
        run(1e-2, micro, config)
        print(title, "-> trained")
    except RuntimeError as e:
        print(title, "->", end=" ")
        show(e)
ms.reset_auto_parallel_context()
