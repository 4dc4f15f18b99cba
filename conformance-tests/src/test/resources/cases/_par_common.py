"""Shared by the par_* cases: the network of MindSpore's parameter_broadcast example (seed 004: Flatten,
MatMul 784x512, ReLU, MatMul 512x512, ReLU, MatMul 512x10, weights initializer("normal") after
set_seed(1)), its shard strategies, seeded synthetic MNIST-shaped data built from plain Python lists,
a per-step loss callback and a Model/SGD(1e-2)/CrossEntropyLoss trainer. Needs no numpy."""
import random

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops
from mindspore.common.initializer import initializer
from mindspore.dataset import transforms
from mindspore.train import Callback, Model

SEED_STRATEGIES = {"matmul1": ((2, 4), (4, 1)), "relu1": ((4, 1),), "matmul2": ((1, 8), (8, 1)),
                   "relu2": ((8, 1),)}


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = ops.Flatten()
        self.fc1_weight = ms.Parameter(initializer("normal", [28 * 28, 512], ms.float32))
        self.fc2_weight = ms.Parameter(initializer("normal", [512, 512], ms.float32))
        self.fc3_weight = ms.Parameter(initializer("normal", [512, 10], ms.float32))
        self.matmul1 = ops.MatMul()
        self.relu1 = ops.ReLU()
        self.matmul2 = ops.MatMul()
        self.relu2 = ops.ReLU()
        self.matmul3 = ops.MatMul()

    def construct(self, x):
        x = self.flatten(x)
        x = self.matmul1(x, self.fc1_weight)
        x = self.relu1(x)
        x = self.matmul2(x, self.fc2_weight)
        x = self.relu2(x)
        return self.matmul3(x, self.fc3_weight)


def seeded_net(strategies=None, seed=1):
    """A fresh Network with its weights drawn after set_seed(seed), the given shard strategies applied."""
    ms.set_seed(seed)
    net = Network()
    for name, strategy in (strategies or {}).items():
        getattr(net, name).shard(strategy)
    return net


def samples(count, seed=7):
    """count images [1, 28, 28] with values in [0, 1) and labels in 0..9, from random.Random(seed)."""
    rng = random.Random(seed)
    xs = [[[[rng.random() for _ in range(28)] for _ in range(28)]] for _ in range(count)]
    ys = [rng.randrange(10) for _ in range(count)]
    return xs, ys


def dataset(xs, ys, batch, num_shards=None, shard_id=None):
    """Unshuffled float32 images / int32 labels in batches of batch (optionally one shard of them)."""
    d = ds.NumpySlicesDataset({"x": xs, "y": ys}, shuffle=False, num_shards=num_shards, shard_id=shard_id)
    d = d.map(operations=transforms.TypeCast(ms.float32), input_columns="x")
    d = d.map(operations=transforms.TypeCast(ms.int32), input_columns="y")
    return d.batch(batch)


class LossLog(Callback):
    """Collects the loss of every step."""

    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_step_end(self, run_context):
        self.losses.append(run_context.original_args().net_outputs.item())


def train(net, data, lr=1e-2, loss_fn=None):
    """Model(net, loss_fn (default CrossEntropyLoss), SGD(lr)).train(1, data); returns (model, the step
    losses)."""
    model = Model(net, loss_fn=loss_fn or nn.CrossEntropyLoss(), optimizer=nn.SGD(net.trainable_params(), lr))
    log = LossLog()
    model.train(1, data, callbacks=[log])
    return model, log.losses


def g5(v):
    """A float (or nested list of floats) to 5 significant digits."""
    if isinstance(v, (list, tuple)):
        return [g5(x) for x in v]
    return float(f"{v:.5g}")


def show(e):
    """Prints an exception as ``Type: first line of the message``."""
    s = str(e).strip()
    print(f"{type(e).__name__}: {s.splitlines()[0] if s else ''}")


def max_abs_diff(a, b):
    """Largest |a - b| over two parameters' values (computed by the framework, in float32)."""
    return ops.ReduceMax()(ops.abs(a - b)).item()
