# Cell.recompute / Primitive.recompute on one device in GRAPH_MODE: MindSpore 2.10's keyword checks
# (unknown keyword -> ValueError, output_recompute must be bool), configure-once (a second call and a
# child of a configured cell are ignored), the primitive's mode check, and training: a network whose
# blocks are recomputed trains exactly like the same network without recomputation (5 SGD steps,
# losses printed to 5 significant digits).
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.common.initializer import initializer
from _case_util import attempt
from _par_common import samples, dataset, train, g5

ms.set_context(mode=ms.GRAPH_MODE)


class Block(nn.Cell):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.dense1 = nn.Dense(n_in, 32, weight_init=initializer("normal", [32, n_in]))
        self.relu1 = nn.ReLU()
        self.dense2 = nn.Dense(32, n_out, weight_init=initializer("normal", [n_out, 32]))
        self.relu2 = nn.ReLU()

    def construct(self, x):
        return self.relu2(self.dense2(self.relu1(self.dense1(x))))


class Net(nn.Cell):
    def __init__(self, recompute):
        super().__init__()
        self.flatten = nn.Flatten()
        self.block1 = Block(28 * 28, 32)
        self.block2 = Block(32, 32)
        self.head = nn.Dense(32, 10, weight_init=initializer("normal", [10, 32]))
        self.sqrt = ops.Sqrt()
        if recompute:
            self.block1.recompute()
            self.block2.recompute(output_recompute=True)
            self.sqrt.recompute()

    def construct(self, x):
        return self.head(self.block2(self.block1(self.flatten(x))))


attempt("recompute(foo=1)", lambda: Block(4, 4).recompute(foo=1))
attempt("recompute(output_recompute=1)", lambda: Block(4, 4).recompute(output_recompute=1))
attempt("recompute(mp_comm_recompute=True)", lambda: Block(4, 4).recompute(mp_comm_recompute=True))
b = Block(4, 4)
b.recompute()
attempt("recompute() twice", lambda: b.recompute())
attempt("child of a configured cell", lambda: b.dense1.recompute())
attempt("ReLU().recompute('yes')", lambda: ops.ReLU().recompute("yes"))
print("ReLU().recompute() returns the primitive:", isinstance(ops.ReLU().recompute(), ops.ReLU))

xs, ys = samples(40)
results = []
for flag in (False, True):
    ms.set_seed(3)
    net = Net(flag)
    _, losses = train(net, dataset(xs, ys, 8))
    results.append(losses)
    print("recompute" if flag else "plain", "losses", g5(losses))
print("identical:", results[0] == results[1])
