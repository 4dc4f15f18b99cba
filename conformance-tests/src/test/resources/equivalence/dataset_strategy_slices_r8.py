# ranks: 8
# A dataset strategy that splits a non-batch dimension, as MindSpore's dataset-slice guide uses it:
# each rank reads one of 4 column blocks of every image (rank r: block r % 4; the other 4 ranks are
# copies) and the whole labels, with dataset_strategy ((1, 1, 1, 4), (1,)) on an AutoParallel-wrapped
# value_and_grad (semi_auto). The planner takes each input as its block of the global image
# (1, 1, 4, 8 -> 4 x 2 per rank), so Flatten and Dense see the whole image: the losses and the weights
# after 3 SGD steps must equal the stand-alone run on whole images. Then the same through
# set_auto_parallel_context(dataset_strategy=...) on a forward cell.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.communication import init, get_rank
from mindspore.parallel.auto_parallel import AutoParallel

ms.set_context(mode=ms.GRAPH_MODE)
init()
rank = get_rank()
block = rank % 4
rng = np.random.RandomState(3)
images = rng.rand(3, 16, 1, 4, 8).astype(np.float32)
labels = rng.randint(0, 5, (3, 16)).astype(np.int32)


def make_net():
    net = nn.SequentialCell(nn.Flatten(), nn.Dense(32, 12), nn.ReLU(), nn.Dense(12, 5))
    for p in net.trainable_params():
        size = int(np.prod(p.shape))
        p.set_data(Tensor((np.sin(np.arange(size, dtype=np.float32) * 0.61) * 0.4).reshape(p.shape)))
    return net


def train(net, wrap, slice_images):
    opt = nn.SGD(net.trainable_params(), 0.3)
    loss_fn = nn.CrossEntropyLoss()

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, net.trainable_params())
    if wrap:
        grad_fn = AutoParallel(grad_fn, parallel_mode="semi_auto")
        grad_fn.dataset_strategy(config=((1, 1, 1, 4), (1,)))
    losses = []
    for x, y in zip(images, labels):
        x = x[..., block * 2:block * 2 + 2] if slice_images else x
        loss, grads = grad_fn(Tensor(x), Tensor(y))
        opt(grads)
        losses.append(float(loss.asnumpy()))
    return losses


ref_net = make_net()
ref = train(ref_net, False, False)
net = make_net()
got = train(net, True, True)
print("stand-alone losses:", [round(v, 5) for v in ref])
print("sliced-input losses == stand-alone:", bool(np.allclose(got, ref, rtol=1e-5)))
print("weights == stand-alone:", all(np.allclose(p.asnumpy(), q.asnumpy(), rtol=1e-5, atol=1e-6)
                                     for p, q in zip(net.trainable_params(), ref_net.trainable_params())))


class Scores(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.matmul = ops.MatMul()
        self.w = ms.Parameter(Tensor(np.cos(np.arange(32 * 3, dtype=np.float32)).reshape(32, 3)), name="w")

    def construct(self, x):
        return self.matmul(self.flatten(x), self.w)


expected = Scores()(Tensor(images[0])).asnumpy()
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy=((1, 1, 1, 4),))
out = Scores()(Tensor(images[0][..., block * 2:block * 2 + 2]))
# The MatMul without a strategy splits the batch 8 ways (semi_auto's default), so each rank returns
# its 2 rows of the product, as MindSpore returns a rank's slice of the output.
print("context dataset_strategy: output shape", out.shape, "== this rank's rows of stand-alone:",
      bool(np.allclose(out.asnumpy(), expected[rank * 2:rank * 2 + 2], rtol=1e-5, atol=1e-6)))
