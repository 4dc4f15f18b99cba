# ranks: 8
# Distributed checkpoints of a parallel training run, used the ways MindSpore's tutorials use them, each
# checked against the stand-alone run of the same network and data:
# 1. semi_auto_parallel with the seed strategies trains one epoch; each rank saves its checkpoint (its
#    slices) and its strategy file. load_distributed_checkpoint of the 8 files into a stand-alone network
#    gives the stand-alone logits.
# 2. Distributed prediction under other strategies: Model.infer_predict_layout on a fresh network, then
#    load_distributed_checkpoint with that layout puts this rank's slice of the trained weights into each
#    parameter, and Model.predict gives the stand-alone logits.
# 3. A 2-stage pipeline (4 ranks per stage, Dense MatMuls split 4 ways) saves per-rank strategy files
#    holding its own stage; merge_pipeline_strategys joins them, transform_checkpoints turns the 8
#    ranks' checkpoints into one whole checkpoint (no destination strategy), which equals the weights of
#    the stand-alone run without the Pipeline wrapper (the pipeline's step applies the gradient of the
#    summed micro-batch losses / micro-batches: the full batch's gradient).
import os

from _equiv import rank_slice, slice_matches
import mindspore as ms
from mindspore import nn, ops
from mindspore.communication import init, get_rank
from mindspore.parallel.nn import Pipeline
from mindspore.train import Model
from _par_common import seeded_net, samples, dataset, train, max_abs_diff, LossLog, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
xs, ys = samples(48)
probe = ms.Tensor(xs[:16], ms.float32)


def barrier():
    """Every rank has written its files."""
    ops.AllReduce()(ms.Tensor([1.0], ms.float32))


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
train(ref_net, dataset(xs, ys, 16))
ref_logits = ref_net(probe)

# ---- 1. train under semi_auto_parallel, load the 8 ranks' checkpoints into a stand-alone network
os.makedirs("ckpt", exist_ok=True)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch",
                             strategy_ckpt_config={"save_file": f"ckpt/strategy_{rank}.ckpt"})
net = seeded_net(SEED_STRATEGIES)
train(net, dataset(xs, ys, 16))
ms.save_checkpoint(net, f"ckpt/rank_{rank}.ckpt")
ms.reset_auto_parallel_context()
barrier()
files = [f"ckpt/rank_{r}.ckpt" for r in range(8)]
print("rank checkpoint holds slices:", [tuple(p.shape) for p in net.trainable_params()])

ms.set_auto_parallel_context(parallel_mode="stand_alone")
whole = seeded_net(seed=5)
print("load_distributed_checkpoint:", ms.load_distributed_checkpoint(whole, files, None,
                                                                    f"ckpt/strategy_{rank}.ckpt"))
print("  whole parameters:", [tuple(p.shape) for p in whole.trainable_params()])
print("  logits == stand-alone within 1e-4:", max_abs_diff(whole(probe), ref_logits) <= 1e-4)

# ---- 2. distributed prediction under other strategies
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
predict_strategies = {"matmul1": ((1, 8), (8, 1)), "relu1": ((1, 1),), "matmul2": ((4, 2), (2, 1)),
                      "matmul3": ((1, 1), (1, 1))}
predict_net = seeded_net(predict_strategies, seed=5)
model = Model(predict_net)
layout = model.infer_predict_layout(probe)
for name in sorted(layout):
    print("  predict layout", name, layout[name][:3])
ms.load_distributed_checkpoint(predict_net, files, layout, f"ckpt/strategy_{rank}.ckpt")
ok = True
for p, q in zip(predict_net.trainable_params(), ref_net.trainable_params()):
    piece = layout[p.name][2]
    ok = ok and tuple(p.shape) == tuple(piece) and slice_matches(p, rank_slice(q, layout[p.name], rank))
print("  each parameter holds its predict slice of the stand-alone weights:", ok)
print("  predict == stand-alone logits within 1e-4:", max_abs_diff(model.predict(probe), ref_logits) <= 1e-4)
ms.reset_auto_parallel_context()

# ---- 3. a 2-stage pipeline: merge the stages' strategy files, transform to one whole checkpoint
MICRO = 4


class Stack(nn.Cell):
    def __init__(self, strategies=None):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(28 * 28, 64)
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(64, 64)
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(64, 10)
        for name, strategy in (strategies or {}).items():
            getattr(self, name).matmul.shard(strategy)

    def construct(self, x):
        return self.layer3(self.relu2(self.layer2(self.relu1(self.layer1(self.flatten(x))))))


def train_stack(lr, stages=None, strategies=None):
    ms.set_seed(1)
    stack = Stack(strategies)
    cell = nn.WithLossCell(stack, nn.CrossEntropyLoss())
    if stages:
        cell = Pipeline(cell, MICRO, stage_config=stages)
    Model(cell, optimizer=nn.SGD(stack.trainable_params(), lr)).train(1, dataset(xs, ys, 16),
                                                                      callbacks=[LossLog()])
    return stack


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_stack = train_stack(1e-2)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=2, dataset_strategy="full_batch",
                             strategy_ckpt_config={"save_file": f"pipe/strategies/strategy_{rank}.ckpt"})
stack = train_stack(1e-2, {"_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1,
                           "_backbone.relu2": 1, "_backbone.layer3": 1},
                    {"layer1": ((1, 4), (1, 4)), "layer2": ((4, 1), (1, 1)), "layer3": ((1, 4), (1, 4))})
os.makedirs(f"pipe/ckpt/rank_{rank}", exist_ok=True)
ms.save_checkpoint(stack, f"pipe/ckpt/rank_{rank}/stack.ckpt")
ms.reset_auto_parallel_context()
barrier()
mine = ms.build_searched_strategy(f"pipe/strategies/strategy_{rank}.ckpt")
print("pipeline stage", rank // 4, "strategy file holds", sorted(mine))
merged = f"pipe/merged_{rank}.ckpt"
ms.merge_pipeline_strategys("pipe/strategies", merged)
print("  merged:", sorted(ms.build_searched_strategy(merged)))
print("  ranks for one whole checkpoint:", ms.rank_list_for_transform(0, merged, None))
ms.transform_checkpoints("pipe/ckpt", f"pipe/whole_{rank}", "whole_", merged, None)
whole = ms.load_checkpoint(f"pipe/whole_{rank}/rank_0/whole_0.ckpt")
ok = sorted(whole) == sorted(p.name for p in ref_stack.trainable_params())
for p in ref_stack.trainable_params():
    ok = ok and slice_matches(whole[p.name], p)
print("  whole checkpoint == stand-alone weights within float32 tolerance:", ok)
