"""Dynamic loss scaling (a script written for GPU, amp_level="O2": MindSpore builds
TrainOneStepWithLossScaleCell with DynamicLossScaleManager there; real MindSpore cannot run it on
CPU, so this is checked here rather than against a golden). The initial scale 2**24 overflows
float16 gradients: those steps must be skipped (weights unchanged) and the scale halved, until the
gradients fit; then training must proceed. Prints 'loss scale ok' when every check holds."""
import random

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Normal

ms.set_context(mode=ms.GRAPH_MODE, device_target="GPU")
ms.set_seed(1)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1 = nn.Dense(16, 32, weight_init=Normal(0.1))
        self.relu = nn.ReLU()
        self.d2 = nn.Dense(32, 2, weight_init=Normal(0.1))

    def construct(self, x):
        return self.d2(self.relu(self.d1(x)))


r = random.Random(0)
xs = [[r.uniform(-1, 1) for _ in range(16)] for _ in range(256)]
data = ds.NumpySlicesDataset({"x": xs, "y": [int(sum(x) > 0) for x in xs]}, shuffle=False).batch(16)
data = data.map(operations=ds.transforms.TypeCast(mstype.float32), input_columns="x")
data = data.map(operations=ds.transforms.TypeCast(mstype.int32), input_columns="y")

net = Net()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
manager = ms.DynamicLossScaleManager(init_loss_scale=2 ** 24, scale_factor=2, scale_window=20)
model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                 amp_level="O2", loss_scale_manager=manager)


class Watch(ms.Callback):
    def __init__(self):
        super().__init__()
        self.rows = []
        self.before = net.d1.weight.value().reshape(-1).tolist()

    def step_end(self, run_context):
        loss, overflow, scale = run_context.original_args().net_outputs
        after = net.d1.weight.value().reshape(-1).tolist()
        self.rows.append((float(loss.item()), bool(overflow), float(scale.item()), after != self.before))
        self.before = after


watch = Watch()
model.train(4, data, callbacks=[watch])
train_cell = model.train_network
checks = {
    "train cell": type(train_cell).__name__ == "TrainOneStepWithLossScaleCell",
    "first steps overflow": watch.rows[0][1],
    "overflowing steps leave the weights alone": all(not moved for _, ov, _, moved in watch.rows if ov),
    "finite steps update the weights": all(moved for _, ov, _, moved in watch.rows if not ov),
    "scale halves on overflow": watch.rows[0][2] == 2 ** 23 and
                                all(b[2] == a[2] / 2 for a, b in zip(watch.rows, watch.rows[1:]) if b[1]),
    "some steps train": sum(1 for row in watch.rows if not row[1]) > 40,
    "loss decreases": watch.rows[-1][0] < watch.rows[0][0] * 0.8,
    "scale grows after scale_window clean steps": any(b[2] == 2 * a[2] for a, b in zip(watch.rows, watch.rows[1:])),
}
for name, ok in checks.items():
    print(f"{name}: {ok}")
print("steps", len(watch.rows), "overflows", sum(1 for row in watch.rows if row[1]),
      "final scale", watch.rows[-1][2], "first loss %.4f last loss %.4f" % (watch.rows[0][0], watch.rows[-1][0]))
print("loss scale ok" if all(checks.values()) else "loss scale FAILED")
