# ranks: 8
# Strategy checkpoints on 8 ranks. semi_auto_parallel with the seed strategies saves
# strategy_ckpt_save_file (protobuf node_strategy.proto layout) and, through strategy_ckpt_config, the
# JSON variant: one entry per operator reading a parameter ("<Prim>_<first parameter>") and one layout
# per parameter it reads; every rank's file is byte-identical. auto_parallel loading the protobuf file
# keeps those strategies for the search (the parameters get the seed's layouts) and trains like
# stand-alone; a missing load file raises MindSpore's RuntimeError on every rank.
import json
import os

from _equiv import losses_match
import mindspore as ms
from mindspore.communication import init, get_rank
from _par_common import seeded_net, samples, dataset, train, show, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
xs, ys = samples(48)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
_, ref = train(seeded_net(), dataset(xs, ys, 16))

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch",
                             strategy_ckpt_save_file=f"ckpt/strategy_{rank}.ckpt")
train(seeded_net(SEED_STRATEGIES), dataset(xs, ys, 16))
ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": f"ckpt/strategy_{rank}.json"})
train(seeded_net(SEED_STRATEGIES), dataset(xs, ys, 16))
ms.reset_auto_parallel_context()
with open(f"ckpt/strategy_{rank}.json", encoding="utf-8") as f:
    saved = json.load(f)
print("current_stage", saved["current_stage"])
for name, item in saved["parallel_strategy_item"].items():
    print(" ", name, "stage", item["stage"], "strategy", item["parallel_strategy"])
for name, item in saved["parallel_layout_item"].items():
    print(" ", name, {k: item[k] for k in ("dev_matrix", "tensor_map", "tensor_shape", "field")})
with open(f"ckpt/strategy_{rank}.ckpt", "rb") as f:
    mine = f.read()
with open("ckpt/strategy_0.ckpt", "rb") as f:
    print("protobuf file:", len(mine), "bytes, identical to rank 0's:", mine == f.read())
print("file mode owner-only:", oct(os.stat(f"ckpt/strategy_{rank}.ckpt").st_mode & 0o777))

ms.set_auto_parallel_context(parallel_mode="auto_parallel", dataset_strategy="full_batch",
                             strategy_ckpt_load_file=f"ckpt/strategy_{rank}.ckpt")
net = seeded_net()
model, losses = train(net, dataset(xs, ys, 16))
print("auto_parallel loading it: losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
layouts = model.train_network.parameter_layout_dict
for p in net.trainable_params():
    print(" ", p.name, "layout", layouts[p.name][:3])
ms.reset_auto_parallel_context()

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch",
                             strategy_ckpt_load_file="ckpt/missing.ckpt")
try:
    train(seeded_net(SEED_STRATEGIES), dataset(xs, ys, 16))
    print("a missing load file trained")
except RuntimeError as e:
    show(e)
ms.reset_auto_parallel_context()
