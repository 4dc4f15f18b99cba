# mindspore.mint (MindSpore 2.10), the part published scripts use and MindSpore's CPU backend runs:
# functions with mint's names and arguments (dim/keepdim, alpha, rounding_mode, permute, unsqueeze,
# cat, where), mint.nn layers (Linear with its default HeUniform/Uniform initialization, ReLU,
# Softmax, Dropout, Flatten) and mint.nn.functional, in both modes; a mint MLP trained for three SGD
# steps. (zeros_like, ones_like, GELU, log_softmax and the mint losses have no CPU kernel in
# MindSpore 2.10; softmax values are rounded: its SoftmaxExt kernel differs from the exact value in
# the 7th digit, and its tanh gives 1.00001 for 5.)
import mindspore as ms
from mindspore import mint, nn, Tensor


def rounded(t, digits=5):
    return [round(v, digits) for v in t.reshape(-1).tolist()]


ms.set_seed(7)
x = Tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], ms.float32)
y = Tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], ms.float32)
F = mint.nn.functional

print("add", mint.add(x, y, alpha=2), mint.sub(x, y, alpha=0.5))
print("mul div", mint.mul(x, y), mint.div(x, y), mint.div(x, y, rounding_mode="floor"))
print("sum", mint.sum(x), mint.sum(x, dim=1), mint.sum(x, 0, keepdim=True))
print("mean", mint.mean(x), mint.mean(x, dim=-1, keepdim=True))
print("max min", mint.max(x), mint.min(x))
print("matmul", mint.matmul(x, mint.transpose(y, 0, 1)))
print("bmm", mint.bmm(mint.unsqueeze(x, 0), mint.unsqueeze(mint.permute(y, (1, 0)), 0)))
print("shape ops", mint.permute(x, (1, 0)).shape, mint.flatten(mint.unsqueeze(x, 0)).shape,
      mint.flatten(mint.unsqueeze(x, 2), 1).shape, mint.squeeze(mint.unsqueeze(x, 1), 1).shape,
      mint.reshape(x, (3, 2)).shape)
print("cat", mint.cat((x, y), dim=1), mint.concat([x, y]).shape)
print("split", [t.shape for t in mint.split(x, 1, dim=0)], [t.shape for t in mint.split(x, 3, dim=1)])
print("where", mint.where(mint.gt(x, 0), x, y))
print("compare", mint.eq(x, x), mint.ne(x, y), mint.le(x, y), mint.lt(x, 0), mint.ge(x, y))
print("softmax", rounded(mint.softmax(x, dim=1)), rounded(F.softmax(x, dim=0)))
print("zeros ones", mint.zeros((2, 2)), mint.ones((1, 3), dtype=ms.int32))
print("unary", mint.abs(x), mint.neg(x), mint.sqrt(mint.abs(x)), mint.pow(x, 2), mint.maximum(x, y))
print("exp log", rounded(mint.exp(mint.neg(mint.abs(x)))), rounded(mint.log(mint.abs(x))))
print("functional", F.relu(x), rounded(F.sigmoid(x)), rounded(F.tanh(x), 3))
w = Tensor([[0.1, 0.2, 0.3], [-0.1, 0.0, 0.5]], ms.float32)
print("linear", rounded(F.linear(x, w)), rounded(F.linear(x, w, Tensor([1.0, -1.0]))))


class Mlp(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = mint.nn.Linear(3, 4)
        self.act = mint.nn.ReLU()
        self.drop = mint.nn.Dropout(p=0.0)
        self.fc2 = mint.nn.Linear(4, 3, bias=False)
        self.flat = mint.nn.Flatten()

    def construct(self, a):
        return self.fc2(self.drop(self.act(self.fc1(self.flat(a)))))


labels = Tensor([2, 0], ms.int32)
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    ms.set_seed(11)
    net = Mlp()
    print("mode", mode, "fc1", net.fc1.weight.shape, net.fc1.bias.shape, net.fc2.bias)
    print("init", rounded(net.fc1.weight.value(), 6), rounded(net.fc1.bias.value(), 6))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.SGD(net.trainable_params(), 0.1))
    print("losses", [round(step(x, labels).item(), 5) for _ in range(3)])
    print("softmax cell", rounded(mint.nn.Softmax(dim=-1)(net(x))))
