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


def train(sink, sink_size=-1, epochs=2):
    ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
    ms.set_seed(1)
    data = create_dataset(os.path.join(sys.argv[1], "train"))
    net = network()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    losses = EpochLoss()
    callbacks = [LossMonitor(), losses] if sink else [losses]
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    model.train(epochs, data, callbacks=callbacks, dataset_sink_mode=sink, sink_size=sink_size)
    if sink:
        # Each sink's first step runs from Python (it traces or checks the graph), the rest in Java;
        # so does the first step after a dataset epoch ends inside a sink.
        print("java steps", model._sink_feed.java_steps)  # pylint: disable=protected-access
    return losses.values, [p.value().reshape(-1).tolist() for p in net.trainable_params()]


per_step, per_step_weights = train(False)
sunk, sunk_weights = train(True)
print("per-step", per_step)
print("sink", sunk)
print("equal", per_step == sunk)
# 5 sinks of 100 batches over the 250-batch epochs: sink 3 spans the end of one dataset epoch and
# the start of the next; the 500 steps must leave exactly the weights of 2 per-step epochs.
_, partial_weights = train(True, sink_size=100, epochs=5)
print("partial sinks equal", partial_weights == per_step_weights, sunk_weights == per_step_weights)
