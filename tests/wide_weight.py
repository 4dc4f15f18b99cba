"""One 4096x8192 float32 weight split 8 ways by columns (semi_auto_parallel, shard strategies), five
SGD steps on fixed data, then the network evaluated on another batch size. Stand-alone: `bin/mspython tests/wide_weight.py`; 8 ranks:
`MSJVM_JAVA_OPTS=-Xmx1500m bin/msrun --worker_num=8 --local_worker_num=8 tests/wide_weight.py`.
Prints `LOSSES l1 l2 ...`, `EVAL loss` (rank 0 under msrun) and the bytes of w this rank holds. The weight with its
gradient is 256 MB; held whole on each of 8 ranks it would need 2 GB: under a 1500 MB heap the run
works only if each rank holds its slice alone (issue 20's memory case, tests/launchers.sh)."""
import os
import mindspore as ms
from mindspore import nn, ops, Parameter
from mindspore.common.initializer import initializer, Normal

ms.set_context(mode=ms.GRAPH_MODE)
ranks = 1
if os.environ.get("RANK_SIZE") and int(os.environ["RANK_SIZE"]) > 1:
    from mindspore.communication import init, get_group_size
    init()
    ranks = get_group_size()
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
ms.set_seed(3)


class Wide(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(initializer(Normal(0.02), (4096, 8192)), name="w")
        self.v = Parameter(initializer(Normal(0.02), (8192, 1)), name="v")
        self.matmul = ops.MatMul().shard(((1, 1), (1, 8)))
        self.relu = ops.ReLU().shard(((1, 8),))
        self.out = ops.MatMul().shard(((1, 8), (8, 1)))
        self.mean = ops.ReduceMean()

    def construct(self, x, y):
        d = self.out(self.relu(self.matmul(x, self.w)), self.v) - y
        return self.mean(d * d)


net = Wide()
step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 2e-4))
x = ops.ones((16, 4096), ms.float32) * 0.25
y = ops.ones((16, 1), ms.float32)
losses = [step(x, y).item() for _ in range(5)]
print("LOSSES " + " ".join(f"{v:.6g}" for v in losses))
# A second compile (the network alone, another batch size) keeps each rank's slices: tracing reads
# only the weights' shapes, so none is gathered whole.
print(f"EVAL {net(ops.ones((8, 4096), ms.float32) * 0.5, ops.ones((8, 1), ms.float32)).item():.6g}")
print("w bytes held:", net.w.size * 4, "of", 4096 * 8192 * 4)
