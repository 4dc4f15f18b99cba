# ranks: 8
# Collectives a script calls itself, and their gradients, on 8 ranks without a parallel mode (the
# "manual parallel" programming of MindSpore's docs). Each rank's inputs are made from its rank id,
# so every expected value is computed here from the 8 ranks' inputs with numpy: the forward values of
# AllReduce (sum, max, min, prod), AllGather, ReduceScatter, AlltoAll and Broadcast, and the gradients
# MindSpore's bprops give (grad_comm_ops.py), in PYNATIVE_MODE and in a GRAPH_MODE cell. Then a
# network trained by hand in data parallel, each rank on its slice of the batch, with the loss
# averaged by an AllReduce inside the loss cell (Model.train, GRAPH_MODE): the AllReduce's gradient
# makes each rank's update the gradient of its own slice's loss, so rank r's weights after 3 steps
# must equal a stand-alone network trained on slice r alone, and the printed loss the mean of the 8
# stand-alone slice losses.
import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops, Tensor
from mindspore.communication import init, get_rank, get_group_size
from mindspore.train import Callback

init()
rank, n = get_rank(), get_group_size()


def rank_input(r):
    """Rank r's 2x8 input: distinct values, with ties between ranks in column 0."""
    base = np.arange(16, dtype=np.float32).reshape(2, 8) * 0.25 - 1.5
    base[:, 1:] += r * 0.5 + np.sin(r + np.arange(14, dtype=np.float32).reshape(2, 7))
    base[:, 0] = 2.0
    return base.astype(np.float32)


inputs = [rank_input(r) for r in range(n)]
x_np = inputs[rank]
weights = [np.cos(np.arange(16, dtype=np.float32).reshape(2, 8) + r).astype(np.float32) for r in range(n)]
w_np = weights[rank]


def close(a, b, tol=1e-5):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol * (1 + np.abs(b))))


class Weighted(nn.Cell):
    """sum(collective(x) * w): the output gradient of the collective is this rank's w."""

    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x, w):
        return (self.op(x) * w).sum()


def weight_for(shape):
    return np.resize(w_np.ravel(), shape).astype(np.float32)


def all_weights(shape):
    return [np.resize(w.ravel(), shape).astype(np.float32) for w in weights]


stack = np.stack(inputs)
cases = {
    "AllReduce(sum)": (ops.AllReduce(), stack.sum(0)),
    "AllReduce(max)": (ops.AllReduce(ops.ReduceOp.MAX), stack.max(0)),
    "AllReduce(min)": (ops.AllReduce(ops.ReduceOp.MIN), stack.min(0)),
    "AllReduce(prod)": (ops.AllReduce(ops.ReduceOp.PROD), stack.prod(0)),
    "AllGather": (ops.AllGather(), np.concatenate(inputs, 0)),
    "ReduceScatter": (ops.ReduceScatter(), None),
    "AlltoAll(split 1, concat 0)": (ops.AlltoAll(n, 1, 0), None),
}


def expected_grad(name, out_shape):
    """d sum(op(x) * w) / dx on this rank, from every rank's inputs and weights."""
    ws = all_weights(out_shape)
    if name == "AllReduce(sum)":
        return sum(ws)
    if name in ("AllReduce(max)", "AllReduce(min)"):
        best = stack.max(0) if name.endswith("(max)") else stack.min(0)
        return sum(ws) * (x_np == best)
    if name == "AllReduce(prod)":
        return sum(ws) * stack.prod(0) / x_np
    if name == "AllGather":
        return sum(w[rank * 2:(rank + 1) * 2] for w in ws)
    if name == "ReduceScatter":
        return np.concatenate(ws, 0)
    # AlltoAll(n, 1, 0): column r of x became rows [2 * rank, +2) of rank r's output.
    return np.concatenate([w[2 * rank:2 * rank + 2] for w in ws], 1)


# ReduceScatter's input: 16 rows (2 per rank), rank r's block r of the sum
rs_inputs = [np.concatenate([inp] * n, 0) + r for r, inp in enumerate(inputs)]
cases["ReduceScatter"] = (ops.ReduceScatter(), sum(rs_inputs)[2 * rank:2 * rank + 2])
# AlltoAll(n, 1, 0) of 2x8 inputs: block r (column r) of every rank, stacked along rows
cases["AlltoAll(split 1, concat 0)"] = (ops.AlltoAll(n, 1, 0),
                                        np.concatenate([inp[:, rank:rank + 1] for inp in inputs], 0))

for mode, mode_name in ((ms.PYNATIVE_MODE, "PYNATIVE"), (ms.GRAPH_MODE, "GRAPH")):
    ms.set_context(mode=mode)
    for name, (op, want) in cases.items():
        x = rs_inputs[rank] if name == "ReduceScatter" else x_np
        got = op(Tensor(x))
        w = weight_for(got.shape)
        dx = ms.grad(Weighted(op), grad_position=0)(Tensor(x), Tensor(w))
        gw = expected_grad(name, got.shape)
        print(f"{mode_name} {name}: value {close(got.asnumpy(), want)}, shape {tuple(got.shape)},"
              f" gradient {close(dx.asnumpy(), gw)}")
    bcast = ops.Broadcast(3)
    out = bcast((Tensor(x_np),))[0]
    dx = ms.grad(lambda t: (ops.Broadcast(3)((t,))[0] * Tensor(w_np)).sum())(Tensor(x_np))
    print(f"{mode_name} Broadcast(3): value {close(out.asnumpy(), inputs[3])}, gradient {close(dx.asnumpy(), w_np)}")

# errors, as MindSpore words them
for make, arg in ((lambda: ops.ReduceScatter(), np.ones((3, 2), np.float32)),
                  (lambda: ops.AlltoAll(4, 0, 1), np.ones((8, 2), np.float32)),
                  (lambda: ops.AlltoAll(n, 1, 0), np.ones((8, 3), np.float32)),
                  (lambda: ops.AlltoAll(n, 2, 0), np.ones((8, 8), np.float32))):
    try:
        make()(Tensor(arg))
        print("no error")
    except (ValueError, IndexError) as e:
        print(type(e).__name__ + ":", e)
try:
    ops.AlltoAll(8.0, 0, 1)
except TypeError as e:
    print("TypeError:", e)

# Manual data parallel: slice the batch by rank, average the loss with an AllReduce.
ms.set_context(mode=ms.GRAPH_MODE)
batch, per = 32, 32 // n
rng = np.random.RandomState(7)
data = rng.randn(3 * batch, 6).astype(np.float32)
labels = rng.randint(0, 4, 3 * batch).astype(np.int32)


def make_net():
    """The same deterministic weights on every rank and in every reference run."""
    net = nn.SequentialCell(nn.Dense(6, 8), nn.ReLU(), nn.Dense(8, 4))
    for p in net.trainable_params():
        size = int(np.prod(p.shape))
        p.set_data(Tensor((np.cos(np.arange(size, dtype=np.float32) * 0.7) * 0.5).reshape(p.shape)))
    return net


class Slice(nn.Cell):
    def __init__(self, body):
        super().__init__()
        self.body = body

    def construct(self, x):
        return self.body(x[rank * per:rank * per + per])


class ReduceLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.loss = nn.CrossEntropyLoss()
        self.all_reduce = ops.AllReduce()

    def construct(self, logits, label):
        label = label[rank * per:rank * per + per]
        return self.all_reduce(self.loss(logits, label)) / n


class Losses(Callback):
    def __init__(self):
        super().__init__()
        self.values = []

    def on_train_step_end(self, run_context):
        self.values.append(float(run_context.original_args().net_outputs.asnumpy()))


body = make_net()
model = ms.Model(Slice(body), loss_fn=ReduceLoss(), optimizer=nn.SGD(body.trainable_params(), 0.5))
record = Losses()
dataset = ds.NumpySlicesDataset({"x": data, "y": labels}, shuffle=False).batch(batch)
model.train(1, dataset, callbacks=[record])

ref_losses = np.zeros(3)
ref_params = None
for r in range(n):
    ref = make_net()
    step = nn.TrainOneStepCell(nn.WithLossCell(ref, nn.CrossEntropyLoss()), nn.SGD(ref.trainable_params(), 0.5))
    for s in range(3):
        rows = slice(s * batch + r * per, s * batch + r * per + per)
        ref_losses[s] += float(step(Tensor(data[rows]), Tensor(labels[rows])).asnumpy()) / n
    if r == rank:
        ref_params = [p.asnumpy() for p in ref.trainable_params()]
print("losses:", [round(v, 5) for v in record.values])
print("losses == mean of the 8 stand-alone slice runs:", close(record.values, ref_losses))
print("weights == stand-alone run on this rank's slice:",
      all(close(p.asnumpy(), q) for p, q in zip(body.trainable_params(), ref_params)))
