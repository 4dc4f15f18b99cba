# ranks: 4
# Training through sharded normalisation and pooling layers: LayerNorm split by rows, MaxPool2d and
# BatchNorm2d split by batch, on 4 ranks (semi_auto_parallel, Momentum) gives the stand-alone
# losses. Their gradient operators (LayerNormGrad's five inputs, MaxPoolGrad's two) are laid out
# from their inputs, not from the forward's strategy (before: "LayerNormGradInfo: The strategy is
# ((4, 1), (1,), (1,)), strategy size: 3 is not equal to inputs size: 5").
import mindspore as ms
from mindspore import nn, ops
from mindspore.communication import init, get_rank
from _equiv import losses_match

ms.set_context(mode=ms.GRAPH_MODE)
init()


class Net(nn.Cell):
    def __init__(self, dp):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, pad_mode="same", has_bias=False)
        self.conv.conv2d.shard(((dp, 1, 1, 1), (1, 1, 1, 1)))
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.pool.max_pool.shard(((dp, 1, 1, 1),))
        self.flat = ops.Reshape()
        self.fc = nn.Dense(64, 32)
        self.fc.matmul.shard(((dp, 1), (1, 1)))
        self.ln = nn.LayerNorm((32,))
        self.ln.layer_norm.shard(((dp, 1), (1,), (1,)))
        self.out = nn.Dense(32, 10)
        self.out.matmul.shard(((dp, 1), (1, 1)))

    def construct(self, x):
        h = self.pool(self.bn(self.conv(x)))
        return self.out(self.ln(self.fc(self.flat(h, (-1, 64)))))


def run(dp):
    ms.set_seed(11)
    net = Net(dp)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = ms.Tensor([[[[((n * 5 + c * 3 + i * 7 + j) % 11) / 11.0 for j in range(8)] for i in range(8)]
                    for c in range(2)] for n in range(8)], ms.float32)
    y = ms.Tensor([n % 10 for n in range(8)], ms.int32)
    return [step(x, y).item() for _ in range(5)]


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref = run(1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
losses = run(4)
print("rank", get_rank(), "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
      "loss falls:", losses[-1] < losses[0])
