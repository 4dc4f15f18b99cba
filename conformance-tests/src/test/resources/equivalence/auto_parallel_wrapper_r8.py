# ranks: 8
# mindspore.parallel.auto_parallel.AutoParallel on 8 ranks: the wrapper's settings take effect while the
# network compiles and the context is reset afterwards (MindSpore's _init/_clear_auto_parallel_context);
# sharding_propagation from one shard and recursive_programming both train like the stand-alone run of
# the same network, seed and data (per-step losses within 1e-5 relative); save_param_strategy_file
# writes the strategy checkpoint; save/load_operator_strategy_file carry sharding_propagation's
# operator strategies from one compile to the next (names Default/<Prim>-op<k>); MindSpore's argument
# checks and texts.
import json
import os

from _equiv import losses_match
import mindspore as ms
from mindspore.communication import init, get_rank
from mindspore.parallel.auto_parallel import AutoParallel
from _par_common import seeded_net, samples, dataset, train, show

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
xs, ys = samples(48)
_, ref = train(seeded_net(), dataset(xs, ys, 16))

net = seeded_net({"matmul1": ((2, 4), (4, 1))})
parallel_net = AutoParallel(net, parallel_mode="sharding_propagation")
parallel_net.dataset_strategy("full_batch")
parallel_net.save_param_strategy_file(os.path.abspath(f"strategy_{rank}.json"))
print("context before compiling:", ms.get_auto_parallel_context("parallel_mode"))
model, losses = train(parallel_net, dataset(xs, ys, 16))
print("sharding_propagation: losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
print("  fc1_weight layout", model.train_network.parameter_layout_dict["fc1_weight"][:3])
print("  context after compiling:", ms.get_auto_parallel_context("parallel_mode"))
with open(f"strategy_{rank}.json", encoding="utf-8") as f:
    print("  saved strategies:", sorted(json.load(f)["parallel_strategy_item"]))

# The operator strategy file: saved by one sharding_propagation compile, it fixes the same operators of
# a network without any shard in the next.
net = seeded_net({"matmul2": ((1, 8), (8, 1))})
parallel_net = AutoParallel(net, parallel_mode="sharding_propagation")
parallel_net.dataset_strategy("full_batch")
parallel_net.save_operator_strategy_file(os.path.abspath(f"ops_{rank}.json"))
train(parallel_net, dataset(xs, ys, 16))
with open(f"ops_{rank}.json", encoding="utf-8") as f:
    ops = json.load(f)
print("operator strategy file:", {k: v["parallel_strategy"] for k, v in ops["parallel_strategy_item"].items()
                                  if k.startswith("Default/MatMul")})
net = seeded_net()
parallel_net = AutoParallel(net, parallel_mode="sharding_propagation")
parallel_net.dataset_strategy("full_batch")
parallel_net.load_operator_strategy_file(os.path.abspath(f"ops_{rank}.json"))
model, losses = train(parallel_net, dataset(xs, ys, 16))
print("loaded into an unsharded network: losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
print("  fc2_weight layout", model.train_network.parameter_layout_dict["fc2_weight"][:3])

net = seeded_net()
parallel_net = AutoParallel(net, parallel_mode="recursive_programming")
parallel_net.dataset_strategy("full_batch")
parallel_net.hsdp()
_, losses = train(parallel_net, dataset(xs, ys, 16))
print("recursive_programming: losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))

checks = [
    ("parallel_mode 'auto'", lambda: AutoParallel(seeded_net(), "auto")),
    ("hsdp shard_size 0", lambda: AutoParallel(seeded_net()).hsdp(shard_size=0)),
    ("hsdp threshold -1", lambda: AutoParallel(seeded_net()).hsdp(threshold=-1)),
    ("hsdp level4", lambda: AutoParallel(seeded_net()).hsdp(optimizer_level="level4")),
    ("pipeline stages 0", lambda: AutoParallel(seeded_net()).pipeline(stages=0)),
    ("pipeline stages '2'", lambda: AutoParallel(seeded_net()).pipeline(stages="2")),
    ("pipeline scheduler", lambda: AutoParallel(seeded_net()).pipeline(scheduler="zb")),
    ("operator file relative", lambda: AutoParallel(seeded_net()).save_operator_strategy_file("s.json")),
    ("operator file suffix", lambda: AutoParallel(seeded_net()).load_operator_strategy_file("/tmp/s.txt")),
    ("dataset_strategy None", lambda: AutoParallel(seeded_net()).dataset_strategy(None)),
    ("dataset_strategy 'x'", lambda: AutoParallel(seeded_net()).dataset_strategy("x")),
    ("dataset_strategy list", lambda: AutoParallel(seeded_net()).dataset_strategy([(8, 1)])),
    ("dataset_strategy float", lambda: AutoParallel(seeded_net()).dataset_strategy(((8.0, 1),))),
    ("param file int", lambda: AutoParallel(seeded_net()).save_param_strategy_file(3)),
    ("comm_fusion list", lambda: AutoParallel(seeded_net()).comm_fusion([])),
]
for label, fn in checks:
    try:
        fn()
        print(label, "accepted")
    except (TypeError, ValueError, KeyError) as e:
        print(label, end=": ")
        show(e)
print("get_pipeline_stages:", AutoParallel(seeded_net()).get_pipeline_stages())
