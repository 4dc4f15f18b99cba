"""Full MNIST training epochs through Model.train against the compute-only step, side by side.

Rows: (1) the input pipeline alone (MnistDataset -> map(Rescale, Normalize, HWC2CHW; TypeCast)
-> batch(32), iterated), (2) the training step alone on one fixed batch (compute only),
(3) Model.train epochs (pipeline + step + callbacks), (4) the same with dataset_sink_mode=True as a
script for Ascend runs it (each epoch's steps loop in Java). Same process, same data, ms per batch of 32.
Run: bin/mspython bench/data/train_epoch.py [MNIST_DIR] [EPOCHS]   (MNIST_DIR: tools/mnist-to-idx output)
"""
import os
import sys
import time

import mindspore as ms
from mindspore import nn
from mindspore.train import Callback, Model

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
from mnist_train import create_dataset, network  # noqa: E402  pylint: disable=wrong-import-position


class EpochTimer(Callback):
    def __init__(self):
        super().__init__()
        self.times = []
        self._start = 0.0

    def on_train_epoch_begin(self, run_context):
        self._start = time.perf_counter()

    def on_train_epoch_end(self, run_context):
        self.times.append(time.perf_counter() - self._start)


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else "MNIST_Data"
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    train = create_dataset(os.path.join(data_dir, "train"))
    batches = train.get_dataset_size()

    pipeline = []
    iterator = train.create_tuple_iterator(num_epochs=epochs)
    for _ in range(epochs):
        start = time.perf_counter()
        for _ in iterator:
            pass
        pipeline.append(time.perf_counter() - start)

    net = network()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    x, y = next(train.create_tuple_iterator(num_epochs=1))
    compute = []
    for _ in range(epochs):
        start = time.perf_counter()
        for _ in range(batches):
            step(x, y)
        compute.append(time.perf_counter() - start)

    timer = EpochTimer()
    fresh = network()
    Model(fresh, loss, nn.Momentum(fresh.trainable_params(), learning_rate=0.01, momentum=0.9)).train(
        epochs, train, callbacks=timer)

    # (4) Dataset sink mode, as a script written for Ascend runs it: the steps of each epoch loop in
    # Java over the Java pipeline.
    ms.set_context(device_target="Ascend")
    sink_timer = EpochTimer()
    sunk = network()
    Model(sunk, loss, nn.Momentum(sunk.trainable_params(), learning_rate=0.01, momentum=0.9)).train(
        epochs, create_dataset(os.path.join(data_dir, "train")), callbacks=sink_timer, dataset_sink_mode=True)

    print(f"{batches} batches of 32 per epoch; ms per batch, epoch by epoch (the first includes warm-up)")
    print("| row | " + " | ".join(f"epoch {e + 1}" for e in range(epochs)) + " | samples/s (last) |")
    print("|---|" + "---:|" * (epochs + 1))
    for name, times in (("input pipeline alone", pipeline), ("training step alone (fixed batch)", compute),
                        ("Model.train (pipeline + step)", timer.times),
                        ("Model.train, dataset_sink_mode=True (Java loop)", sink_timer.times)):
        cells = " | ".join(f"{t * 1000 / batches:.2f}" for t in times)
        print(f"| {name} | {cells} | {batches * 32 / times[-1]:.0f} |")


if __name__ == "__main__":
    main()
