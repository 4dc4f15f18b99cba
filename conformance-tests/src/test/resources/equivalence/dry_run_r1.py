# MindSpore's dry run (MS_SIMULATION_LEVEL, RANK_SIZE, RANK_ID, set as MindSpore's own
# tests/st/auto_parallel/test_simulation_level.py sets them): this one process is rank 9 of a
# 32-rank cluster that is not there. Level 0: init() and groups work without peers, a semi_auto
# compile plans rank 9's part (no kernel runs), a strategy the cluster cannot hold gets MindSpore's
# error. Level 1: a training step runs no kernel (its result is zeros of the loss's shape) and the
# rank's memory is printed as MindSpore ends a dry-run log and written as JSON; the parameter and
# optimizer-state bytes equal the sum of the slices parameter_layout_dict gives; a second compile
# of the same network (another batch size) plans again from the parameters' types.
import json
import os
os.environ["MS_SIMULATION_LEVEL"] = "0"
os.environ["RANK_SIZE"] = "32"
os.environ["RANK_ID"] = "9"
import mindspore as ms
from mindspore import nn, ops
from mindspore.common.api import _cell_graph_executor
from mindspore.communication.management import (init, release, create_group, get_rank, get_group_size,
                                                get_local_rank, get_world_rank_from_group_rank,
                                                get_group_rank_from_world_rank)
from mindspore._host import host

ms.set_context(mode=ms.GRAPH_MODE)
init()
print("rank", get_rank(), "of", get_group_size(), "local rank", get_local_rank())
group = "g-to-w-8+01234567"
create_group(group, [i + 8 for i in range(8)])
print("group size", get_group_size(group), "world rank of group rank 3:", get_world_rank_from_group_rank(group, 3),
      "group rank of world rank 12:", get_group_rank_from_world_rank(12, group))


class DenseNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(128, 128, activation='relu')
        self.fc2 = nn.Dense(128, 128, activation='relu')
        self.fc3 = nn.Dense(128, 128, activation='relu')

    def construct(self, x):
        return self.fc3(self.fc2(self.fc1(x)))


x = ops.ones((32, 128), ms.float32) * 0.01
y = ops.zeros((32, 128), ms.float32)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
net = DenseNet()
net.fc1.matmul.shard(((4, 1), (8, 1)))
k0 = host().kernelCalls()
_cell_graph_executor.compile(net, x)
print("level 0 compile: kernels run", host().kernelCalls() - k0)
for name, layout in sorted(net.parameter_layout_dict.items()):
    print(" ", name, "layout", layout[:3])
print("fc1.weight holds", net.fc1.weight.shape, "of (128, 128)")
bad = DenseNet()
bad.fc1.matmul.shard(((8, 1), (8, 1)))
try:
    _cell_graph_executor.compile(bad, x)
    print("a strategy for 64 devices compiled on 32")
except Exception as e:  # pylint: disable=broad-except
    print(type(e).__name__ + ":", str(e).splitlines()[0])

release()
os.environ["MS_SIMULATION_LEVEL"] = "1"
init()
net = DenseNet()
net.fc1.matmul.shard(((4, 1), (8, 1)))
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits()),
                            nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9))
train.set_train()
k0 = host().kernelCalls()
loss = train(x, y)
print("level 1 step: kernels run", host().kernelCalls() - k0, "loss", loss.shape, loss.dtype,
      "all zeros", all(v == 0 for v in loss.tolist()))
# A second compile (another batch size) of the same network: its slices' types come back whole, and
# it decides as the first did (the weights it laid out whole earlier do not make the unannotated
# operators follow fc1's 4-way batch split: the loss stays split 32 ways, 16 rows here).
loss = train(x[:16], y[:16])
print("second compile: fc1.weight holds", net.fc1.weight.shape, "loss", loss.shape)
memory = json.load(open("dryrun_memory/rank_9.json"))
layouts = net.parameter_layout_dict
weights = 0
for p in net.trainable_params():
    shape = layouts[p.name][2] if p.name in layouts else p.shape
    n = 4
    for d in shape:
        n *= d
    weights += n
print("JSON:", sorted(memory))
print("optimizer states (moments) = the weights' slices:", memory["optimizer_state_bytes"] == weights, weights)
print("parameters = the weights' slices and the optimizer's scalars:", memory["parameter_bytes"] - weights)
print("peak activations counted:", memory["peak_activation_bytes"] > 0,
      "sum:", memory["used_peak_bytes"] == memory["parameter_bytes"] + memory["optimizer_state_bytes"]
      + memory["input_bytes"] + memory["peak_activation_bytes"])
