# The workload the launchers' ahead-of-time cache is trained on (bin/msjvm-env.sh, msjvm_aot_cache):
# what most scripts do first, so the JVM finds their classes loaded and linked when a script starts.
# Run by msrun with 2 ranks; its output is discarded.
import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import get_rank, init

try:
    import numpy as np
except ImportError:
    np = None

init()
ms.set_seed(1)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)


def network():
    return nn.SequentialCell(nn.Dense(8, 16), nn.ReLU(), nn.Dense(16, 4))


x = ops.ones((4, 8), ms.float32) * (get_rank() + 1)
y = Tensor([0, 1, 2, 3], ms.int32)
if np is not None:
    x = Tensor(np.linspace(0.0, 1.0, 32, dtype=np.float32).reshape(4, 8))
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    net = network()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    for _ in range(3):
        step(x, y).asnumpy()
    print(ops.Argmax(axis=1)(net(x)))
