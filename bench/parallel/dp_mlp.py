"""Parallel throughput of the seed MLP (784-512-512-10, SGD, GRAPH_MODE) on synthetic data.

Stand-alone: `bin/mspython bench/parallel/dp_mlp.py GLOBAL_BATCH STEPS [MODE]`
8 ranks:     `bin/msrun --worker_num=8 --local_worker_num=8 bench/parallel/dp_mlp.py GLOBAL_BATCH STEPS [MODE]`
MODE (default data_parallel):
  data_parallel  nn.Dense MLP, each rank trains on GLOBAL_BATCH / ranks samples (gradients_mean=True);
  semi_auto      the same MLP in semi_auto_parallel without strategies (MindSpore's default batch split),
                 the graph traced globally and partitioned per rank;
  seed           semi_auto_parallel with the network and shard strategies of MindSpore's
                 parameter_broadcast example (seed 004; no biases; model-parallel MatMuls);
  independent    every rank trains its own copy of the data_parallel MLP on GLOBAL_BATCH / ranks
                 samples, no communication: the floor for any in-process data-parallel run (8 ranks'
                 compute sharing the cores), not a training mode.
Stand-alone runs the same network on the whole global batch. Rank 0 prints
`RESULT mode=... ranks=N global_batch=B ms_per_step=... us_per_global_sample=... comm_ms_per_step=...`
(medians over the steps after a warm-up of 20; comm = wall time inside collectives, waiting included;
compile_ms = the compile alone, through _cell_graph_executor.compile; setup_ms = building the network
and optimizer plus that compile, since a stand-alone run fills its weights when they are built and a
semi_auto run when it compiles; first_step_ms = the first step after it).
bench/parallel/run.sh runs the modes side by side."""
import os
import statistics
import sys
import time

import mindspore as ms
from mindspore import nn, ops
from mindspore.common.initializer import Normal

ms.set_context(mode=ms.GRAPH_MODE)
global_batch, steps = int(sys.argv[1]), int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "data_parallel"
ranks, rank = 1, 0
if os.environ.get("RANK_SIZE") and int(os.environ["RANK_SIZE"]) > 1:
    from mindspore.communication import init, get_rank, get_group_size
    init()
    ranks, rank = get_group_size(), get_rank()
    if mode == "data_parallel":
        ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    elif mode == "independent":
        pass  # stand_alone on every rank: the same work as data_parallel without communication
    else:
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
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


# setup_ms: from here (building the network, whose Parameters a stand-alone run initializes at once
# and a semi_auto run only when its compile knows their layouts) to the end of the compile.
t_setup = time.perf_counter()
if mode == "seed":
    # The conformance cases' copy of seed 004's network (Flatten, MatMul 784x512, ReLU, MatMul
    # 512x512, ReLU, MatMul 512x10) with its strategies.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "conformance-tests", "src", "test", "resources", "cases"))
    from _par_common import seeded_net, SEED_STRATEGIES
    net = seeded_net(SEED_STRATEGIES if ranks > 1 else None)
else:
    net = Mlp()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                           nn.SGD(net.trainable_params(), 0.01))
x = ops.ones((local, 1, 28, 28), ms.float32) * 0.5
y = ms.Tensor([i % 10 for i in range(local)], ms.int32)
if ranks > 1:
    from mindspore._host import host
    comm_ms = host().collectiveMillis
else:
    def comm_ms():
        return 0.0
# The compile alone (MindSpore's compile-only entry point): stand-alone it traces on shapes; on 8
# ranks one rank traces and plans, every rank lowers the plan to its program.
from mindspore.common.api import _cell_graph_executor
t0 = time.perf_counter()
_cell_graph_executor.compile(step, x, y)
compile_ms = (time.perf_counter() - t0) * 1000
setup_ms = (time.perf_counter() - t_setup) * 1000
times, comm = [], []
for i in range(20 + steps):
    c0 = comm_ms()
    t0 = time.perf_counter()
    loss = step(x, y)
    loss.item()
    times.append(time.perf_counter() - t0)
    comm.append(comm_ms() - c0)
median = statistics.median(times[20:]) * 1000
if rank == 0:
    print(f"RESULT mode={mode} ranks={ranks} global_batch={global_batch} ms_per_step={median:.2f} "
          f"us_per_global_sample={median * 1000 / global_batch:.1f} "
          f"comm_ms_per_step={statistics.median(comm[20:]):.2f} loss={loss.item():.4f} "
          f"compile_ms={compile_ms:.0f} setup_ms={setup_ms:.0f} first_step_ms={times[0] * 1000:.0f}")
