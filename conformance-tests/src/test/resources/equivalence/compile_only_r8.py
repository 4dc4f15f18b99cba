# ranks: 8
# MindSpore's compile-only entry point in semi_auto_parallel on 8 ranks (the seed network and shard
# strategies of semi_auto_seed_r8, full_batch): _cell_graph_executor.compile(step, x, y) plans this
# rank's part without training. Each parameter then holds the slice of its initial value its layout
# gives (no step ran), net.parameter_layout_dict has the layouts, no kernel ran while the graph was
# traced, and the calls that follow replay the planned graph: ten steps give the stand-alone losses.
# `_cell_graph_executor._graph_executor` answers what MindSpore's ParallelValidator asks of a phase:
# the rank's graph (get_parallel_graph_info) and the operators' strategies (get_strategy).
from _equiv import slice_matches, losses_match, rank_slice
import mindspore as ms
from mindspore import nn
from mindspore.common.api import _cell_graph_executor
from mindspore.communication import init, get_rank
from mindspore._host import host
from _par_common import seeded_net, samples, dataset, train, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
xs, ys = samples(160)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
initial = seeded_net()
_, ref = train(seeded_net(), dataset(xs, ys, 16))

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
net = seeded_net(SEED_STRATEGIES)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 1e-2))
step.set_train()
batches = list(dataset(xs, ys, 16).create_tuple_iterator())
k0 = host().kernelCalls()
phase, compiled = _cell_graph_executor.compile(step, *batches[0])
print("compiled:", compiled)
# What MindSpore's ParallelValidator reads: this rank's graph as {"@graph_0": {"<Op>-<k>": {inputs,
# attrs}}} (msjvm's own graph, nodes named per operator in order) and the operators' strategies.
info = _cell_graph_executor._graph_executor.get_parallel_graph_info(phase)["@graph_0"]
known = set(info) | {p.name for p in step.get_parameters()} | {"inputs0", "inputs1"}
print("graph info: MatMul nodes", sorted(n for n in info if n.startswith("MatMul-")),
      "inputs name nodes, arguments, parameters or are constants:",
      all(not isinstance(i, str) or i in known for node in info.values() for i in node["inputs"]))
print("get_strategy == _get_shard_strategy:",
      _cell_graph_executor._graph_executor.get_strategy(phase) == _cell_graph_executor._get_shard_strategy(step))
print("kernels run by the compile (the trace runs none):", host().kernelCalls() - k0)
layouts = net.parameter_layout_dict
print("net.parameter_layout_dict has the weights:", sorted(layouts))
for p, q in zip(net.trainable_params(), initial.trainable_params()):
    print(" ", p.name, "layout", layouts[p.name][:3], "shape", p.shape,
          "slice == initial slice:", slice_matches(p, rank_slice(q, layouts[p.name], rank)))
losses = [step(x, y).item() for x, y in batches]
print("steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
