# MindSpore's dry run at simulation level 3: this process is rank 3 of an 8-rank cluster that is not
# there, on links given as MSJVM_SIM_LINK (10 us per step, 2 GB/s bus bandwidth). The rank's own
# kernels run on its shapes (a data-parallel network: every weight whole, the batch split 8 ways),
# the collectives move nothing and are timed on the links instead, and each step's predicted time
# (compute measured + communication modelled, no overlap) is printed and appended to
# dryrun_time/rank_3.jsonl. The communication equals the ring closed form for the collectives the
# step called (all AllReduce on 8 ranks: 2(n-1) alpha + 2(n-1)/n S / busbw each), and the bytes
# they reduce include every weight's gradient.
import contextlib
import io
import json
import os
os.environ["MS_SIMULATION_LEVEL"] = "3"
os.environ["RANK_SIZE"] = "8"
os.environ["RANK_ID"] = "3"
os.environ["MSJVM_SIM_LINK"] = "alpha_us=10,busbw_gbps=2"
import mindspore as ms
from mindspore import nn, ops
from mindspore.communication.management import init
from mindspore._host import host

if os.path.exists("dryrun_time/rank_3.jsonl"):
    os.remove("dryrun_time/rank_3.jsonl")  # an earlier run's steps
ms.set_context(mode=ms.GRAPH_MODE)
init()
ms.set_seed(1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(64, 128)
        self.fc2 = nn.Dense(128, 10)
        self.fc1.matmul.shard(((8, 1), (1, 1)))
        self.fc2.matmul.shard(((8, 1), (1, 1)))
        self.relu = ops.ReLU().shard(((8, 1),))

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.Momentum(net.trainable_params(), 0.1, 0.9))
step.set_train()
x = ops.ones((32, 64), ms.float32) * 0.1
y = ms.Tensor([i % 10 for i in range(32)], ms.int32)
k0 = host().kernelCalls()
log = io.StringIO()
with contextlib.redirect_stdout(log):  # the measured times differ from run to run
    for _ in range(3):
        loss = step(x, y)
log = log.getvalue().splitlines()
print("memory printed once:", sum(l.startswith("Used peak memory usage") for l in log) == 1,
      "step times printed:", sum("step time predicted" in l for l in log))
print("kernels run:", host().kernelCalls() - k0 > 0, "loss is a real value:", loss.item() > 0)
lines = [json.loads(l) for l in open("dryrun_time/rank_3.jsonl")]
print("steps timed:", len(lines), "rank", lines[0]["rank"], "of", lines[0]["rank_size"], "links", lines[0]["link"])
weights = 4 * (64 * 128 + 128 + 128 * 10 + 10)
for t in lines:
    alpha, bw, n = 10e-6, 2e9, 8
    closed = (t["collectives"] * 2 * (n - 1) * alpha + 2 * (n - 1) / n * t["bytes_sent"] / bw) * 1e3
    print("  collectives", t["collectives"], "gradient bytes reduced:", t["bytes_sent"] >= weights,
          "communication = closed form:", abs(t["communication_ms"] - closed) < 1e-9,
          "step = compute + communication:", abs(t["step_ms"] - t["compute_ms"] - t["communication_ms"]) < 1e-9,
          "compute measured:", t["compute_ms"] > 0)
