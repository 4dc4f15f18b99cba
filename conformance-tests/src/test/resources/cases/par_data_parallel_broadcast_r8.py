# ranks: 8
# parameter_broadcast on 8 CPU workers (mccl), GRAPH_MODE: every worker builds the seed-004 network
# after set_seed(rank + 1), so the initial weights differ between workers (only rank 0 has the
# set_seed(1) weights). With parameter_broadcast=True the weights are broadcast from rank 0 when the
# train graph is compiled: data_parallel training then equals stand-alone training of the set_seed(1)
# network on the global batch, on every worker. Without it the workers keep their own weights (and
# the averaged gradients do not make them equal). The broadcast also runs in parallel_mode
# "stand_alone" once init() was called. Also: what save_checkpoint(net, f, False) stores per worker.
# (ops.AllReduce with ReduceOp.MAX raises on CPU: "AllReduce only support reduce sum on CPU, but got
# max", hence the AllGather.)
import os
import tempfile

import mindspore as ms
from mindspore import ops
from mindspore.communication import init, get_rank, get_group_size
from _par_common import seeded_net, samples, dataset, train, g5, max_abs_diff

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(48)
all_gather = ops.AllGather()

ms.set_auto_parallel_context(parallel_mode="stand_alone")
initial = seeded_net()
reference = seeded_net()
_, ref = train(reference, dataset(xs, ys, 16))
print("stand-alone set_seed(1) losses", g5(ref))


def same_on_all_ranks(net):
    flat = [v for p in net.trainable_params() for v in p.reshape((-1,))[:64].tolist()]
    rows = all_gather(ms.Tensor([flat], ms.float32)).tolist()
    return all(r == rows[0] for r in rows)


def run(label, context, data):
    ms.set_auto_parallel_context(**context)
    net = seeded_net(seed=rank + 1)
    print(label, "initial weights == set_seed(1) weights:",
          all(max_abs_diff(p, q) == 0 for p, q in zip(net.trainable_params(), initial.trainable_params())))
    _, losses = train(net, data())
    print("  losses", g5(losses))
    print("  trained weights == stand-alone set_seed(1) run within 1e-6:",
          [max_abs_diff(p, q) <= 1e-6 for p, q in zip(net.trainable_params(), reference.trainable_params())])
    print("  weights identical on all ranks:", same_on_all_ranks(net))
    ms.reset_auto_parallel_context()
    return net




def shard():
    return dataset(xs, ys, 16 // size, size, rank)


net = run("data_parallel parameter_broadcast=True",
          {"parallel_mode": "data_parallel", "gradients_mean": True, "parameter_broadcast": True}, shard)
run("data_parallel parameter_broadcast=False",
    {"parallel_mode": "data_parallel", "gradients_mean": True, "parameter_broadcast": False}, shard)
run("stand_alone parameter_broadcast=True",
    {"parallel_mode": "stand_alone", "parameter_broadcast": True}, lambda: dataset(xs, ys, 16))

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, f"rank{rank}.ckpt")
    ms.save_checkpoint(net, path, False)
    saved = ms.load_checkpoint(path)
    print("checkpoint", [(k, v.shape) for k, v in saved.items()])
    print("  == trained weights:", all(max_abs_diff(saved[p.name], p) == 0 for p in net.trainable_params()))
