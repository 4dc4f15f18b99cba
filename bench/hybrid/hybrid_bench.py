"""The tutorial's hybrid-parallel sample (examples/hybrid_parallel.py) as a benchmark: the same network
trained for EPOCHS epochs over ./MNIST_Data/train, either stand-alone (MODE=standalone: Pipeline(..., 4)
on one device, MindSpore's gradient-accumulation step) or on the msrun ranks as the tutorial runs it
(MODE=hybrid: 2 pipeline stages, recursive_programming, hsdp, full_batch, 1F1B; MODE=hybrid_nohsdp:
the same without optimizer sharding). Prints one RESULT line per rank: wall seconds of model.train,
steps, mean loss of the first and last epoch (ranks of the last stage; others report MindSpore's 0),
bytes the rank stores for parameters and optimizer states, peak bytes of intermediates alive at once in
a step, and the measured bubble of its last step (pipeline runs).
Usage: hybrid_bench.py MODE EPOCHS"""
import sys
import time

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, train
from mindspore._host import host
from mindspore.communication import init, get_rank
from mindspore.parallel.auto_parallel import AutoParallel

mode, epochs = sys.argv[1], int(sys.argv[2])
ms.set_context(mode=ms.GRAPH_MODE)
if mode != "standalone":
    init()
ms.set_seed(1)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(28 * 28, 512)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(512, 512)
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(512, 1)

    def construct(self, x):
        return self.layer3(self.relu2(self.layer2(self.relu1(self.layer1(self.flatten(x))))))


net = Network()
# MindSpore's pipeline step applies the summed micro-batch gradient / 4; stand-alone, Pipeline's
# TrainOneStepCell applies the sum: a quarter of the learning rate makes the two runs the same.
optimizer = nn.SGD(net.trainable_params(), 1e-2 / 4 if mode == "standalone" else 1e-2)
net.relu1.recompute()
net.relu2.recompute()
data = ds.MnistDataset("./MNIST_Data/train")
data = data.map([ds.vision.Rescale(1.0 / 255.0, 0), ds.vision.Normalize(mean=(0.1307,), std=(0.3081,)),
                 ds.vision.HWC2CHW()], "image")
data = data.map(ds.transforms.TypeCast(ms.int32), "label").batch(32)
net_with_grads = ms.parallel.nn.Pipeline(nn.WithLossCell(net, nn.MAELoss()), 4,
                                         stage_config={"_backbone.layer1": 0, "_backbone.relu1": 0,
                                                       "_backbone.layer2": 1, "_backbone.relu2": 1,
                                                       "_backbone.layer3": 1})
if mode == "standalone":
    trained = net_with_grads
else:
    trained = AutoParallel(net_with_grads, parallel_mode="recursive_programming")
    if mode == "hybrid":
        trained.hsdp()
    trained.full_batch = True
    trained.pipeline(stages=2, scheduler="1f1b")


class EpochLoss(train.Callback):
    """Mean loss per epoch."""

    def __init__(self):
        super().__init__()
        self.epochs, self.current = [], []

    def on_train_step_end(self, run_context):
        self.current.append(run_context.original_args().net_outputs.item())

    def on_train_epoch_end(self, run_context):
        self.epochs.append(sum(self.current) / len(self.current))
        self.current = []


log = EpochLoss()
model = ms.Model(trained, optimizer=optimizer)
start = time.perf_counter()
model.train(epochs, data, callbacks=[log], dataset_sink_mode=True)
wall = time.perf_counter() - start
h = host()
state = [p for p in optimizer.get_parameters()]
stored = h.storedBytes([p._java for p in state])  # pylint: disable=protected-access
stats = h.pipelineStats()
bubble = f"{stats[1]:.3f} (ideal {stats[2]:.3f}, stage {stats[0]}, in-flight {stats[3]})" if stats else "-"
rank = get_rank() if mode != "standalone" else 0
print(f"RESULT mode={mode} rank={rank} wall_s={wall:.1f} steps={epochs * data.get_dataset_size()} "
      f"loss_first={log.epochs[0]:.4f} loss_last={log.epochs[-1]:.4f} stored_bytes={stored} "
      f"peak_bytes={h.peakBytes()} bubble={bubble}")
