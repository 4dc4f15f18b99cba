# Automatic mixed precision through Model(amp_level=...) and mindspore.amp: O0/O1/O3/auto train
# (PYNATIVE: each step's loss within 1e-5 relative of real MindSpore 2.10's, recorded below;
# GRAPH_MODE: within 1e-3 of the PYNATIVE losses, as MindSpore's CPU graph compiler rounds its
# float16 casts differently from its own PYNATIVE run), O2's CPU error, loss scale managers and the
# functional loss scalers.
import random

import mindspore as ms
import mindspore.dataset as ds
from mindspore import Tensor, amp, nn
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Normal
from _case_util import attempt


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1 = nn.Dense(16, 32, weight_init=Normal(0.1))
        self.relu = nn.ReLU()
        self.d2 = nn.Dense(32, 2, weight_init=Normal(0.1))

    def construct(self, x):
        return self.d2(self.relu(self.d1(x)))


def dataset():
    r = random.Random(0)
    xs = [[r.uniform(-1, 1) for _ in range(16)] for _ in range(64)]
    ys = [int(sum(x) > 0) for x in xs]
    data = ds.NumpySlicesDataset({"x": xs, "y": ys}, shuffle=False).batch(8)
    data = data.map(operations=ds.transforms.TypeCast(mstype.float32), input_columns="x")
    return data.map(operations=ds.transforms.TypeCast(mstype.int32), input_columns="y")


class Losses(ms.Callback):
    def __init__(self):
        super().__init__()
        self.values = []

    def step_end(self, run_context):
        out = run_context.original_args().net_outputs
        loss = out[0] if isinstance(out, tuple) else out
        self.values.append(float(loss.item()))


PYNATIVE_LOSSES = {}
# Per-step losses of this script's PYNATIVE runs on MindSpore 2.10.0 (CPU, CPython 3.11).
MINDSPORE_LOSSES = {
    ('O0', ()): [0.7076166868209839, 0.6826089024543762, 0.673827588558197, 0.7018921375274658, 0.6862955093383789, 0.6695102453231812, 0.6768825054168701, 0.648193895816803, 0.6036139130592346, 0.5738612413406372, 0.5067941546440125, 0.4578913152217865, 0.48955708742141724, 0.3402734398841858, 0.5623677968978882, 0.3912184238433838],
    ('O1', ()): [0.7076250314712524, 0.6825996041297913, 0.6738503575325012, 0.7019541263580322, 0.6863155364990234, 0.6694533228874207, 0.6768673062324524, 0.6481733322143555, 0.6036503911018372, 0.5739164352416992, 0.5067788362503052, 0.4578447937965393, 0.4895511269569397, 0.34029003977775574, 0.5624215602874756, 0.39118868112564087],
    ('O3', ()): [0.7076250314712524, 0.6825996041297913, 0.6738503575325012, 0.7019541263580322, 0.6863155364990234, 0.6694533228874207, 0.6768673062324524, 0.6481733322143555, 0.6036503911018372, 0.5739164352416992, 0.5067788362503052, 0.4578447937965393, 0.4895511269569397, 0.34029003977775574, 0.5624215602874756, 0.39118868112564087],
    ('auto', ()): [0.7076142430305481, 0.6826040148735046, 0.6738300919532776, 0.7019110321998596, 0.6863109469413757, 0.6695014238357544, 0.6768763661384583, 0.6481910347938538, 0.6035932302474976, 0.5739006400108337, 0.5067949295043945, 0.4578382968902588, 0.48954471945762634, 0.3402249217033386, 0.5623336434364319, 0.39113694429397583],
    ('O0', ('loss_scale_manager',)): [0.7076166868209839, 0.6826089024543762, 0.673827588558197, 0.7018921375274658, 0.6862955093383789, 0.6695102453231812, 0.6768825054168701, 0.648193895816803, 0.6036139130592346, 0.5738612413406372, 0.5067941546440125, 0.4578913152217865, 0.48955708742141724, 0.3402734398841858, 0.5623677968978882, 0.3912184238433838],
}


def train(level, **kwargs):
    ms.set_seed(1)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=kwargs.pop("opt_loss_scale", 1.0))
    model = ms.Model(net, loss, opt, metrics={"acc"}, amp_level=level, **kwargs)
    losses = Losses()
    model.train(2, dataset(), callbacks=[losses])
    cells = [type(c).__name__ for c in model.train_network.cells()]
    out = net(Tensor([[0.5] * 16], mstype.float32))
    print(f"{level}: {type(model.train_network).__name__} {cells}")
    key = (level, tuple(sorted(kwargs)))
    if ms.get_context("mode") == ms.PYNATIVE_MODE:
        PYNATIVE_LOSSES[key] = losses.values
        ref = MINDSPORE_LOSSES[key]
        close = len(ref) == len(losses.values) and \
            all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(losses.values, ref))
        print(f"  {len(losses.values)} losses within 1e-5 of MindSpore 2.10: {close}, first {losses.values[0]:.3f}")
    else:
        close = all(abs(a - b) <= 1e-3 * abs(b) for a, b in zip(losses.values, PYNATIVE_LOSSES[key]))
        print(f"  {len(losses.values)} losses within 1e-3 of PYNATIVE: {close}")
    print(f"  eval {model.eval(dataset())} weight {net.d1.weight.dtype} output {out.dtype}")


for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    print("mode", "PYNATIVE" if mode == ms.PYNATIVE_MODE else "GRAPH")
    for level in ("O0", "O1", "O3", "auto"):
        train(level)
    attempt("O2 on CPU", lambda: train("O2"))
    print("O0 with FixedLossScaleManager(1024, False) and Momentum(loss_scale=1024):")
    train("O0", loss_scale_manager=amp.FixedLossScaleManager(1024.0, False), opt_loss_scale=1024.0)
    attempt("FixedLossScaleManager() (drop overflow) on CPU",
            lambda: train("O0", loss_scale_manager=amp.FixedLossScaleManager()))

ms.set_context(mode=ms.PYNATIVE_MODE)
attempt("Model(amp_level='O3') without optimizer", lambda: ms.Model(Net(), amp_level="O3"))
attempt("Model(loss_scale_manager=...) without optimizer",
        lambda: ms.Model(Net(), nn.MSELoss(), loss_scale_manager=amp.FixedLossScaleManager()).train_network)
attempt("FixedLossScaleManager(0.5)", lambda: amp.FixedLossScaleManager(0.5))
attempt("DynamicLossScaleManager(0.5)", lambda: amp.DynamicLossScaleManager(0.5))
attempt("DynamicLossScaleManager(scale_factor=0)", lambda: amp.DynamicLossScaleManager(scale_factor=0))
attempt("DynamicLossScaleManager(scale_window=0)", lambda: amp.DynamicLossScaleManager(scale_window=0))
manager = amp.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
for flag in (False, False, True, False, True, True):
    manager.update_loss_scale(flag)
    print("dynamic manager after overflow", flag, "->", manager.get_loss_scale())
print("update cell", type(manager.get_update_cell()).__name__, manager.get_update_cell().get_loss_scale())
fixed = amp.FixedLossScaleManager(64.0)
print("fixed", fixed.get_loss_scale(), fixed.get_drop_overflow_update(), type(fixed.get_update_cell()).__name__)
print("fixed no drop", amp.FixedLossScaleManager(64.0, False).get_update_cell())

print("all_finite", amp.all_finite([Tensor([1.0, 2.0]), Tensor([3.0])]),
      amp.all_finite([Tensor([1.0, float("inf")])]), amp.all_finite([Tensor([float("nan")], mstype.float16)]))
scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=2)
print("scaled", scaler.scale(Tensor([0.5], mstype.float32)), scaler.unscale((Tensor([1024.0]), Tensor([2.0]))))
for finite in (True, True, False, True):
    scaler.adjust(Tensor(finite))
    print("dynamic scaler after finite", finite, "->", scaler.scale_value.item(), scaler.counter.item())
static = amp.StaticLossScaler(8)
print("static", static.scale(Tensor([1.0])), static.adjust(Tensor(False)), static.scale_value.item())
attempt("StaticLossScaler(0.5)", lambda: amp.StaticLossScaler(0.5))
attempt("DynamicLossScaler(4, 0, 2)", lambda: amp.DynamicLossScaler(4, 0, 2))

net = amp.auto_mixed_precision(Net(), "O3")
print("auto_mixed_precision O3:", type(net).__name__, net(Tensor([[0.5] * 16], mstype.float32)).dtype)
attempt("auto_mixed_precision(dtype=float32)", lambda: amp.auto_mixed_precision(Net(), "O1", mstype.float32))
attempt("build_train_network(level='O5')",
        lambda: amp.build_train_network(Net(), nn.SGD(Net().trainable_params()), nn.MSELoss(), level="O5"))
attempt("build_train_network(bad kwarg)",
        lambda: amp.build_train_network(Net(), nn.SGD(Net().trainable_params()), nn.MSELoss(), level="O0", x=1))
