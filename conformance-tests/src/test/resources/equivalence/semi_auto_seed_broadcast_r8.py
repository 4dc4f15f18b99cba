# ranks: 8
# The parameter_broadcast example of MindSpore (seed 004) on 8 ranks, with the synthetic dataset of
# the par_* cases for its create_dataset(): semi_auto_parallel, matmul1 ((2, 4), (4, 1)), relu1
# ((4, 1),), matmul2 ((1, 8), (8, 1)), relu2 ((8, 1),); model.train(1), save_checkpoint(net, ...,
# False), layout = model.train_network.parameter_layout_dict, load_checkpoint + load_param_into_net,
# parameter_broadcast(model.train_network, layout, rank, 0), model.train(1) with the step callback.
# (Each rank writes its own checkpoint file: the example's shared "./simple.ckpt" would be written by
# all 8 workers at once.) Checked against the stand-alone run: the losses of both epochs, the ranks
# holding the same slice hold the same values after the broadcast, and a forward call of the trained
# network after training (a second graph, compiled once the parameters are slices) gives each rank
# its rows of the stand-alone logits.
import os
import tempfile

from _equiv import slice_matches, losses_match, rank_slice
import mindspore as ms
from mindspore import ops
from mindspore.communication import init, get_rank, get_group_size
from mindspore.parallel.parameter_broadcast import parameter_broadcast
from mindspore.train import Callback
from mindspore.train.serialization import load_checkpoint, load_param_into_net
from _par_common import seeded_net, samples, dataset, train, max_abs_diff, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(64)
probe = ms.Tensor(xs[:16], ms.float32)

ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
_, ref1 = train(ref_net, dataset(xs, ys, 16))
_, ref2 = train(ref_net, dataset(xs, ys, 16))
ref_logits = ref_net(probe)


class LossCallBack(Callback):
    def __init__(self):
        super().__init__()
        self.steps, self.losses = [], []

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        self.steps.append(cb_params.cur_step_num)
        self.losses.append(cb_params.net_outputs.item())


ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
net = seeded_net(SEED_STRATEGIES)
optim = ms.nn.SGD(net.trainable_params(), 1e-2)
model = ms.train.Model(net, loss_fn=ms.nn.CrossEntropyLoss(), optimizer=optim)
first = LossCallBack()
model.train(1, dataset(xs, ys, 16 // size, size, rank), callbacks=[first])
print("epoch 1 losses == stand-alone within 1e-5 relative:",
      losses_match(first.losses, ref1))
ckpt = os.path.join(tempfile.mkdtemp(), f"simple_{rank}.ckpt")
ms.save_checkpoint(net, ckpt, False)
layout = model.train_network.parameter_layout_dict
param_dict = load_checkpoint(ckpt)
print("checkpoint holds the slices:", sorted((k, tuple(v.shape)) for k, v in param_dict.items()))
load_param_into_net(net, param_dict)
parameter_broadcast(model.train_network, layout, rank, 0)
gather = ops.AllGather()
for p in net.trainable_params():
    rows = gather(p.reshape((1, -1))).tolist()
    same = [r for r in range(size) if rows[r] == rows[rank]]
    print(" ", p.name, "ranks holding this rank's values:", len(same))
second = LossCallBack()
model.train(1, dataset(xs, ys, 16 // size, size, rank), callbacks=[second])
print("epoch 2 steps", second.steps, "losses == stand-alone within 1e-5 relative:",
      losses_match(second.losses, ref2))
for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
    print(" ", p.name, "slice == stand-alone slice within 1e-5:",
          slice_matches(p, rank_slice(q, layout[p.name], rank)))
logits = net(ms.Tensor(xs[2 * rank:2 * rank + 2], ms.float32))  # this rank's rows of the batch
print("forward after training: local logits", logits.shape, "== stand-alone rows within 1e-5:",
      max_abs_diff(logits, ref_logits[2 * rank:2 * rank + 2]) <= 1e-5)
