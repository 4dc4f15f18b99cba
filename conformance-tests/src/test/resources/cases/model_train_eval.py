"""Model.train / eval / predict with callbacks and metrics on a NumpySlicesDataset (issue 4)."""
import os
import random

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.common import dtype as mstype
from mindspore.dataset import transforms
from mindspore.train import (Accuracy, Callback, CheckpointConfig, Loss, LossMonitor, Model, ModelCheckpoint,
                             Top1CategoricalAccuracy)

from _case_util import attempt, rounded, show

ms.set_seed(7)
rng = random.Random(3)


def dataset(n, batch, cols=4):
    xs = [[rng.uniform(-1.0, 1.0) for _ in range(cols)] for _ in range(n)]
    ys = [int(x[0] - x[1] + 0.5 * x[2] > 0) for x in xs]
    d = ds.NumpySlicesDataset({"data": xs, "label": ys}, shuffle=False)
    d = d.map(operations=transforms.TypeCast(mstype.float32), input_columns="data")
    d = d.map(operations=transforms.TypeCast(mstype.int32), input_columns="label")
    return d.batch(batch)


# 1. LossMonitor's exact line format, on a step whose loss is exact in float32.
exact = ds.NumpySlicesDataset({"x": [[1.0, 2.0], [3.0, 1.0], [0.0, 2.0], [2.0, 2.0]],
                               "y": [[1.0], [2.0], [0.0], [3.0]]}, shuffle=False)
exact = exact.map(operations=transforms.TypeCast(mstype.float32), input_columns="x")
exact = exact.map(operations=transforms.TypeCast(mstype.float32), input_columns="y").batch(2)
lin = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
Model(lin, nn.MSELoss(), nn.SGD(lin.trainable_params(), learning_rate=0.0)).train(
    2, exact, callbacks=LossMonitor())


# 2. Hook order and callback parameters during a real training run.
class Hooks(Callback):
    def on_train_begin(self, run_context):
        p = run_context.original_args()
        print("train_begin epoch_num", p.epoch_num, "batch_num", p.batch_num, "mode", p.mode,
              "sink", p.dataset_sink_mode)

    def epoch_begin(self, run_context):
        print("epoch_begin", run_context.original_args().cur_epoch_num)

    def on_train_step_end(self, run_context):
        p = run_context.original_args()
        print("step", p.cur_epoch_num, p.cur_step_num, "loss", rounded(float(p.net_outputs)))

    def epoch_end(self, run_context):
        print("epoch_end", run_context.original_args().cur_epoch_num)

    def on_train_end(self, run_context):
        print("train_end steps", run_context.original_args().cur_step_num)


net = nn.SequentialCell(nn.Dense(4, 16), nn.ReLU(), nn.Dense(16, 2))
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
model = Model(net, loss_fn, opt, metrics={"acc": Accuracy(), "loss": Loss(), "top1": Top1CategoricalAccuracy()})
train_ds = dataset(40, 8)
ckpt = ModelCheckpoint(prefix="net", config=CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2))
model.train(3, train_ds, callbacks=[Hooks(), ckpt])
print("checkpoints", sorted(f for f in os.listdir(".") if f.endswith(".ckpt")))
print("latest", os.path.basename(ckpt.latest_ckpt_file_name))

# 3. Evaluation and prediction.
test_ds = dataset(24, 8)
result = model.eval(test_ds)
print("eval", {k: rounded(float(v)) for k, v in sorted(result.items())})
print("predict", model.predict(ms.Tensor([[0.5, -0.5, 0.0, 0.1]], ms.float32)).shape)


# 4. A callback stops training.
class StopAt(Callback):
    def on_train_step_end(self, run_context):
        if run_context.original_args().cur_step_num == 3:
            run_context.request_stop()

    def on_train_end(self, run_context):
        print("stopped at", run_context.original_args().cur_step_num)


model.train(2, dataset(40, 8), callbacks=StopAt())

# 5. Bad input.
attempt("kwargs", lambda: Model(net, loss_fn, opt, foo=1))
attempt("epoch 0", lambda: model.train(0, dataset(8, 4)))
attempt("initial_epoch", lambda: model.train(2, dataset(8, 4), initial_epoch=2))
attempt("sink_size 0", lambda: model.train(1, dataset(8, 4), sink_size=0))
attempt("callbacks type", lambda: model.train(1, dataset(8, 4), callbacks=[1]))
attempt("eval no metrics", lambda: Model(net, loss_fn, opt).eval(dataset(8, 4)))
attempt("metrics without loss", lambda: Model(net, metrics={"acc": Accuracy()}))
attempt("metrics type", lambda: Model(net, loss_fn, opt, metrics=["acc"]))
attempt("LossMonitor(-1)", lambda: LossMonitor(-1))
attempt("CheckpointConfig zeros", lambda: CheckpointConfig(0, 0, 0, 0))
attempt("prefix with /", lambda: ModelCheckpoint(prefix="a/b"))
attempt("eval_indexes", lambda: Model(net, loss_fn, opt, metrics={"acc": Accuracy()}, eval_network=net,
                                      eval_indexes=[0, 1]))
try:
    Accuracy().eval()
except RuntimeError as e:
    show(e)
