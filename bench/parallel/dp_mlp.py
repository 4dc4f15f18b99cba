"""Data-parallel throughput of the seed MLP (784-512-512-10, SGD, GRAPH_MODE) on synthetic data.

Stand-alone: `bin/mspython bench/parallel/dp_mlp.py GLOBAL_BATCH STEPS`
8 ranks:     `bin/msrun --worker_num=8 --local_worker_num=8 --join=True bench/parallel/dp_mlp.py GLOBAL_BATCH STEPS`
Each rank trains on GLOBAL_BATCH / ranks samples per step (data_parallel, gradients_mean=True);
rank 0 prints `RESULT ranks=N global_batch=B ms_per_step=... us_per_global_sample=... comm_ms_per_step=...`
(median over the steps after a warm-up of 20). bench/parallel/run.sh runs both side by side."""
import statistics
import sys
import time

import mindspore as ms
from mindspore import nn, ops
from mindspore.common.initializer import Normal

ms.set_context(mode=ms.GRAPH_MODE)
global_batch, steps = int(sys.argv[1]), int(sys.argv[2])
ranks, rank = 1, 0
try:
    import os
    if os.environ.get("RANK_SIZE") and int(os.environ["RANK_SIZE"]) > 1:
        from mindspore.communication import init, get_rank, get_group_size
        init()
        ranks, rank = get_group_size(), get_rank()
        ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
except ImportError:
    pass
ms.set_seed(1)
local = global_batch // ranks


class Mlp(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense1 = nn.Dense(784, 512, weight_init=Normal(0.02))
        self.dense2 = nn.Dense(512, 512, weight_init=Normal(0.02))
        self.dense3 = nn.Dense(512, 10, weight_init=Normal(0.02))
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.dense3(self.relu(self.dense2(self.relu(self.dense1(self.flatten(x))))))


net = Mlp()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                           nn.SGD(net.trainable_params(), 0.01))
x = ops.ones((local, 1, 28, 28), ms.float32) * 0.5
y = ms.Tensor([i % 10 for i in range(local)], ms.int32)
times = []
for i in range(20 + steps):
    t0 = time.perf_counter()
    loss = step(x, y)
    loss.item()
    times.append(time.perf_counter() - t0)
median = statistics.median(times[20:]) * 1000
if rank == 0:
    print(f"RESULT ranks={ranks} global_batch={global_batch} ms_per_step={median:.2f} "
          f"us_per_global_sample={median * 1000 / global_batch:.1f} loss={loss.item():.4f}")
