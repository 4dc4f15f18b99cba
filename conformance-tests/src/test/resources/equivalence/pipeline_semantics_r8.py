# ranks: 8
# Pipeline parallel on 8 ranks with the stages cut apart: each rank runs only its stage's operators (ranks
# 0-3 stage 0, 4-7 stage 1 with 2 stages; two ranks per stage with 4), with Send/Recv between stages and
# the micro-batches ordered by the 1F1B (or GPipe) schedule; with pipeline_segment chunks (layers 1-2
# chunk 0, layers 3-4 chunk 1 of the same two stages) by the interleaved 1F1B schedule. MindSpore's
# training step for a pipeline (_TrainGradAccuStepCell) applies the gradient of the summed micro-batch losses / micro_size, so each
# run must equal the stand-alone run of the same network whose SGD learning rate is divided by the
# micro-batch count: the last stage's per-step losses within 1e-5 relative (earlier stages output zeros,
# MindSpore's GetZeroOutputs; with pipeline_result_broadcast every stage gets the loss), and every
# stage's own parameters within float32 tolerance. Bad stage settings raise MindSpore's RuntimeError on
# every rank without a hang.
from _equiv import losses_match, slice_matches, rank_slice
import mindspore as ms
from mindspore import nn
from mindspore.communication import init, get_rank
from mindspore.parallel.nn import Pipeline
from mindspore.train import Model
from _par_common import samples, dataset, LossLog, show

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
MICRO = 4
STAGES = {"_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1, "_backbone.relu2": 1,
          "_backbone.layer3": 1}
INTERLEAVED = {"_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1, "_backbone.relu2": 1,
               "_backbone.layer3": 0, "_backbone.relu3": 0, "_backbone.layer4": 1}
FOUR = {"_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1, "_backbone.relu2": 1,
        "_backbone.layer3": 2, "_backbone.relu3": 2, "_backbone.layer4": 3}


class Network(nn.Cell):
    def __init__(self, layers=3):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(28 * 28, 64)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(64, 64)
        self.relu2 = nn.ReLU()
        self.layers = layers
        if layers == 3:
            self.layer3 = nn.Dense(64, 10)
        else:
            self.layer3 = nn.Dense(64, 64)
            self.relu3 = nn.ReLU()
            self.layer4 = nn.Dense(64, 10)

    def construct(self, x):
        h = self.layer3(self.relu2(self.layer2(self.relu1(self.layer1(self.flatten(x))))))
        return h if self.layers == 3 else self.layer4(self.relu3(h))


def run(lr, micro=MICRO, stage_config=None, layers=3, segments=None):
    ms.set_seed(1)
    net = Network(layers)
    for name, segment in (segments or {}).items():
        getattr(net, name).pipeline_segment = segment
    wrapped = Pipeline(nn.WithLossCell(net, nn.CrossEntropyLoss()), micro, stage_config=stage_config)
    model = Model(wrapped, optimizer=nn.SGD(net.trainable_params(), lr))
    log = LossLog()
    model.train(1, dataset(xs, ys, 16), callbacks=[log])
    return net, wrapped, log.losses


def check(title, stages, config, layers=3, broadcast=False, segments=None):
    """Trains with ``stages`` stages and compares with the stand-alone run ``refs[layers]``."""
    ref_net, ref = refs[layers]
    net, wrapped, losses = run(1e-2, stage_config=config, layers=layers, segments=segments)
    per = 8 // stages
    stage = get_rank() // per
    # The loss is computed by the stage of the last layer (with chunks: stage 1 of the last chunk).
    last = stage == config["_backbone.layer%d" % layers]
    if last or broadcast:
        print(title, "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
    else:
        print(title, "steps", len(losses), "losses are zeros on an earlier stage:", all(v == 0 for v in losses))
    mine = [name for name, s in config.items() if s == stage and name.split(".")[-1].startswith("layer")]
    ok = True
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        cell = "_backbone." + p.name.split(".")[0]
        if cell not in mine:
            continue
        layout = wrapped.parameter_layout_dict.get(p.name)
        ref_slice = q if layout is None or tuple(p.shape) == tuple(q.shape) else rank_slice(q, layout, get_rank() % per)
        ok = ok and slice_matches(p, ref_slice)
    print("  parameters of", ", ".join(m.split(".")[1] for m in mine), "== stand-alone within float32 tolerance:", ok)


xs, ys = samples(80)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
refs = {3: (lambda r: (r[0], r[2]))(run(1e-2 / MICRO)), 4: (lambda r: (r[0], r[2]))(run(1e-2 / MICRO, layers=4))}

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=2, dataset_strategy="full_batch")
check("pipeline_stages=2, 1f1b, micro 4:", 2, STAGES)
ms.set_auto_parallel_context(pipeline_result_broadcast=True)
check("pipeline_stages=2, pipeline_result_broadcast:", 2, STAGES, broadcast=True)
ms.set_auto_parallel_context(pipeline_result_broadcast=False,
                             pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "gpipe"})
check("pipeline_stages=2, gpipe:", 2, STAGES)
ms.set_auto_parallel_context(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "1f1b"},
                             pipeline_stages=4)
check("pipeline_stages=4, 1f1b, micro 4:", 4, FOUR, layers=4)
ms.set_auto_parallel_context(pipeline_stages=2,
                             pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "1f1b"})
check("pipeline_stages=2, 2 chunks per stage (interleaved 1f1b):", 2, INTERLEAVED, layers=4,
      segments={"layer1": 0, "relu1": 0, "layer2": 0, "relu2": 0, "layer3": 1, "relu3": 1, "layer4": 1})
ms.set_auto_parallel_context(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "1f1b"})

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
