# ranks: 8
# auto_parallel on 8 ranks: the strategy search chooses every strategy the user did not give, and the
# network trains exactly like the stand-alone run of the same network, seed and data in the same process
# (per-step losses within 1e-5 relative, every rank's parameter slice equal to the matching slice of the
# stand-alone weights within 1e-5). Search modes: dynamic_programming (the default) with no shard at all,
# recursive_programming (SAPP, refined under the cost model), dynamic_programming with elementwise_op_strategy_follow,
# sharding_propagation from one configured MatMul, and sharding_propagation from a Cell.shard (the
# sharded cell's input layout and a parameter_plan). The layouts printed are the searched ones.
import json

from _equiv import slice_matches, losses_match, rank_slice
import mindspore as ms
from mindspore import nn
from mindspore.communication import init, get_rank, get_group_size
from _par_common import Network, seeded_net, samples, dataset, train

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(160)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
_, ref = train(ref_net, dataset(xs, ys, 16))


class Wrapped(nn.Cell):
    """The seed network inside an outer cell, so that a cell-level shard configures the inner one."""

    def __init__(self):
        super().__init__()
        ms.set_seed(1)
        self.net = Network()

    def construct(self, x):
        return self.net(x)


def check(title, net, params, data_strategy):
    data = dataset(xs, ys, 16) if data_strategy == "full_batch" else dataset(xs, ys, 16 // size, size, rank)
    model, losses = train(net, data)
    print(title, "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
    layouts = model.train_network.parameter_layout_dict
    for p, q in zip(params, ref_net.trainable_params()):
        layout = layouts[p.name]
        print(" ", p.name, "layout", layout[:3],
              "slice == stand-alone slice within 1e-5:", slice_matches(p, rank_slice(q, layout, rank)))


for data_strategy in ("data_parallel", "full_batch"):
    ms.set_auto_parallel_context(parallel_mode="auto_parallel", dataset_strategy=data_strategy)
    net = seeded_net()
    check(f"dynamic_programming {data_strategy}", net, net.trainable_params(), data_strategy)
    ms.reset_auto_parallel_context()

# elementwise_op_strategy_follow: the users of pointwise operators take their producers' layouts (the
# cost graph admits no redistribution after them; layouts are compared as MindSpore compares them,
# without device axes of size 1, so the plan here is full_batch's); the result trains like stand-alone.
ms.set_algo_parameters(elementwise_op_strategy_follow=True)
ms.set_auto_parallel_context(parallel_mode="auto_parallel", dataset_strategy="full_batch")
net = seeded_net()
check("dynamic_programming elementwise_op_strategy_follow", net, net.trainable_params(), "full_batch")
ms.reset_auto_parallel_context()
ms.reset_algo_parameters()

# The explainable plan of a search: with graphs saved, each rank writes the search report (per operator
# its strategy, cost breakdown and best rejected strategy with the cost delta) beside the plan report,
# whose collectives name the edge or partial output that caused them.
ms.set_context(save_graphs=True, save_graphs_path=f"graphs_{rank}")
ms.set_auto_parallel_context(parallel_mode="auto_parallel", dataset_strategy="full_batch")
train(seeded_net(), dataset(xs, ys, 16))
ms.reset_auto_parallel_context()
ms.set_context(save_graphs=False)
with open(f"graphs_{rank}/rank_{rank}/strategy_search_TrainOneStepCell_0.json", encoding="utf-8") as f:
    report = json.load(f)
ops = [n for n in report["nodes"] if n["kind"] == "op"]
print("search report:", report["search_mode"], len(ops), "operators, every one with a cost breakdown:",
      all("objective" in n["cost"] for n in ops))
print("  matmuls:", [n["strategy"] for n in ops if n["name"] == "MatMul"])
print("  no single operator could change strategy for less (dynamic_programming is optimal):",
      all(n["best_rejected"]["delta"] >= 0 for n in report["nodes"] if "best_rejected" in n))
with open(f"graphs_{rank}/rank_{rank}/parallel_plan_TrainOneStepCell_0.txt", encoding="utf-8") as f:
    collectives = [line for line in f if line.startswith("  ")]
print("  plan collectives, each with its cause:", len(collectives),
      all("; " in line for line in collectives))

ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="recursive_programming",
                             dataset_strategy="data_parallel")
net = seeded_net()
check("recursive_programming data_parallel", net, net.trainable_params(), "data_parallel")
ms.reset_auto_parallel_context()

ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation",
                             dataset_strategy="full_batch")
net = seeded_net({"matmul2": ((1, 8), (8, 1))})
check("sharding_propagation from matmul2 ((1, 8), (8, 1))", net, net.trainable_params(), "full_batch")
ms.reset_auto_parallel_context()

ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="sharding_propagation",
                             dataset_strategy="full_batch")
outer = Wrapped()
outer.net.shard(in_strategy=((8, 1, 1, 1),), parameter_plan={"self.net.fc2_weight": (8, 1)})
check("sharding_propagation from Cell.shard", outer, outer.trainable_params(), "full_batch")
ms.reset_auto_parallel_context()
