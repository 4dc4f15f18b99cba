"""Shared by optim_train_graph and optim_train_pynative (the caller sets the mode first): a tiny
network (matmul + bias, mean squared error) trained through WithLossCell and TrainOneStepCell with
Momentum, SGD, Adam and AdamWeightDecay and their options, dynamic learning rates, loss scale, sens
and parameter groups; prints losses and parameter values after each step and the optimizer state's
parameter names. Runs on import."""
from mindspore import nn, ops, Tensor, Parameter
from _case_util import rounded


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([[0.5], [-0.3]]), name="w")
        self.bias = Parameter(Tensor([0.1]), name="bias")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.bias


class Loss(nn.Cell):
    def construct(self, out, label):
        return ops.mean(ops.square(out - label))


X = Tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]])
Y = Tensor([[1.0], [2.0], [0.0]])


def train(label, make, steps=3, sens=None):
    net = Net()
    opt = make(net)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, Loss()), opt, sens=sens)
    step.set_train()
    for i in range(steps):
        loss = step(X, Y)
        print(label, i, rounded(loss.item()), rounded(net.w.reshape((-1,)).tolist()), rounded(net.bias.tolist()))
    return opt


opt = train("momentum", lambda n: nn.Momentum(n.trainable_params(), 0.1, 0.9))
print("  names", [p.name for p in opt.parameters], [p.name for p in opt.moments])
print("  global_step", opt.global_step.tolist(), "lr", rounded(opt.get_lr().item()))
train("momentum-wd", lambda n: nn.Momentum(n.trainable_params(), 0.1, 0.9, weight_decay=0.1))
train("momentum-scale", lambda n: nn.Momentum(n.trainable_params(), 0.1, 0.9, loss_scale=4.0), sens=4.0)
opt = train("sgd", lambda n: nn.SGD(n.trainable_params(), 0.1))
print("  names", [p.name for p in opt.accum], [p.name for p in opt.stat])
train("sgd-momentum", lambda n: nn.SGD(n.trainable_params(), 0.1, momentum=0.9, dampening=0.2, weight_decay=0.01))
train("sgd-nesterov", lambda n: nn.SGD(n.trainable_params(), 0.05, momentum=0.8, nesterov=True))
opt = train("adam", lambda n: nn.Adam(n.trainable_params(), 0.1))
print("  names", [p.name for p in opt.moment1], [p.name for p in opt.moment2])
print("  powers", rounded(opt.beta1_power.item()), rounded(opt.beta2_power.item()))
train("adam-nesterov", lambda n: nn.Adam(n.trainable_params(), 0.05, beta1=0.8, beta2=0.99, use_nesterov=True))
train("adam-wd", lambda n: nn.Adam(n.trainable_params(), 0.05, weight_decay=0.1, eps=1e-6))
opt = train("adamw", lambda n: nn.AdamWeightDecay(n.trainable_params(), 0.1, weight_decay=0.01))
print("  names", [p.name for p in opt.moments1], [p.name for p in opt.moments2])
train("adamw-nodecay", lambda n: nn.AdamWeightDecay(n.trainable_params(), 0.05, beta1=0.5, eps=1e-8))
train("dynamic-list", lambda n: nn.Momentum(n.trainable_params(), [0.1, 0.05, 0.01], 0.9))
train("dynamic-tensor", lambda n: nn.SGD(n.trainable_params(), Tensor([0.2, 0.1, 0.05])))
train("schedule-exp", lambda n: nn.Adam(n.trainable_params(), nn.ExponentialDecayLR(0.1, 0.5, 2)))
train("schedule-cos", lambda n: nn.Momentum(n.trainable_params(), nn.CosineDecayLR(0.01, 0.1, 4), 0.9))
train("schedule-poly", lambda n: nn.SGD(n.trainable_params(), nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0)))
train("schedule-warmup", lambda n: nn.Momentum(n.trainable_params(), nn.WarmUpLR(0.1, 2), 0.5))
opt = train("groups", lambda n: nn.Momentum([{"params": [n.w], "lr": 0.05, "weight_decay": 0.1},
                                             {"params": [n.bias]},
                                             {"order_params": [n.bias, n.w]}], 0.1, 0.9))
print("  order", [p.name for p in opt.parameters], "is_group_lr", opt.is_group_lr,
      [rounded(lr.item()) for lr in opt.get_lr()])
train("groups-adam", lambda n: nn.Adam([{"params": [n.w], "lr": [0.1, 0.05, 0.02]},
                                        {"params": [n.bias], "lr": 0.01}], 0.1))
train("decay-filter", lambda n: nn.SGD(n.trainable_params(), 0.1, weight_decay=0.5))
