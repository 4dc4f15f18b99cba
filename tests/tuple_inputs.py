"""A training loop written as the docs' data-parallel sample writes it (GRAPH_MODE, no @jit):
``value_and_grad``, then ``DistributedGradReducer`` and the optimizer called with the tuple of
gradients. The gradients inside the tuple are graph inputs, so each cell compiles once and replays;
when they were taken for constants, every step compiled new graphs that held its gradients (5 MB a
step here: a 400 MB heap ran out within 80 steps). Run by tests/launchers.sh as
`MSJVM_HEAP=400m bin/msrun --worker_num=1 --local_worker_num=1 tests/tuple_inputs.py`; prints the
loss every 100 steps and `STEPS n`."""
import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore.communication import init

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
init()
ms.set_seed(1)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.seq = nn.SequentialCell(nn.Dense(784, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
                                     nn.Dense(512, 10))

    def construct(self, x):
        return self.seq(self.flatten(x))


net = Network()
optimizer = nn.SGD(net.trainable_params(), 1e-2)
loss_fn = nn.CrossEntropyLoss()


def forward_fn(data, target):
    logits = net(data)
    return loss_fn(logits, target), logits


grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)
grad_reducer = nn.DistributedGradReducer(optimizer.parameters)
rng = np.random.default_rng(0)
x = ms.Tensor(rng.random((32, 1, 28, 28), dtype=np.float32))
y = ms.Tensor(rng.integers(0, 10, (32,)).astype(np.int32))
steps = 300
for i in range(steps):
    (loss, _), grads = grad_fn(x, y)
    grads = grad_reducer(grads)
    optimizer(grads)
    if i % 100 == 0:
        print("step", i, loss)
print("STEPS", steps)
