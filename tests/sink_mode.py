"""Dataset sink mode (a script written for Ascend, GRAPH_MODE): Model.train runs each epoch's steps
as one sink, in Java for an MNIST pipeline; the losses must equal the per-step loop's bit for bit.
Usage: bin/mspython tests/sink_mode.py MNIST_DIR   (prints LossMonitor lines, then 'equal True')"""
import os
import sys

import mindspore as ms
from mindspore import nn
from mindspore.train import Callback, LossMonitor, Model

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from mnist_train import create_dataset, network  # noqa: E402  pylint: disable=wrong-import-position


class EpochLoss(Callback):
    def __init__(self):
        super().__init__()
        self.values = []

    def on_train_epoch_end(self, run_context):
        self.values.append(float(run_context.original_args().net_outputs))


def train(sink):
    ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
    ms.set_seed(1)
    data = create_dataset(os.path.join(sys.argv[1], "train"))
    net = network()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    losses = EpochLoss()
    callbacks = [LossMonitor(), losses] if sink else [losses]
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    model.train(2, data, callbacks=callbacks, dataset_sink_mode=sink)
    if sink:
        # Each epoch's first step runs from Python (it traces or checks the graph), the rest in Java.
        print("java steps", model._sink_feed.java_steps)  # pylint: disable=protected-access
    return losses.values


per_step = train(False)
sunk = train(True)
print("per-step", per_step)
print("sink", sunk)
print("equal", per_step == sunk)
