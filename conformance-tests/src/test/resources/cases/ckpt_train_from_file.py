"""Training from one initial checkpoint written by real MindSpore: the loss sequence must match
MindSpore's to 4 significant digits (about 1e-4 relative), in GRAPH and PYNATIVE mode (issue 4)."""
import os

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.common import dtype as mstype
from mindspore.dataset import transforms
from mindspore.train import Callback, Model

from ckpt_data.show import Mlp

HERE = os.path.dirname(os.path.abspath(__file__))


def sig4(x):
    return float(f"{x:.4g}")


def data():
    xs = [[((i * 7 + j * 3) % 11) / 5.0 - 1.0 for j in range(4)] for i in range(24)]
    ys = [(i * 5) % 2 for i in range(24)]
    d = ds.NumpySlicesDataset({"x": xs, "y": ys}, shuffle=False)
    d = d.map(operations=transforms.TypeCast(mstype.float32), input_columns="x")
    d = d.map(operations=transforms.TypeCast(mstype.int32), input_columns="y")
    return d.batch(6)


class Losses(Callback):
    def __init__(self):
        super().__init__()
        self.values = []

    def on_train_step_end(self, run_context):
        self.values.append(sig4(float(run_context.original_args().net_outputs)))


for mode, name in ((ms.GRAPH_MODE, "GRAPH"), (ms.PYNATIVE_MODE, "PYNATIVE")):
    ms.set_context(mode=mode)
    net = Mlp()
    not_loaded = ms.load_param_into_net(net, ms.load_checkpoint(os.path.join(HERE, "ckpt_data",
                                                                             "mindspore_dense.ckpt")))
    print(name, "not loaded", not_loaded)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.5, momentum=0.9)
    losses = Losses()
    Model(net, loss_fn, opt).train(5, data(), callbacks=losses)
    print(name, "losses", losses.values)
    print(name, "fc2.weight", [[sig4(v) for v in row] for row in net.fc2.weight.tolist()])
