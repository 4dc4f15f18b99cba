# ranks: 8
# data_parallel training on 8 CPU workers (mccl) of the seed-004 network (no shard), against the
# stand-alone run of the same seed and data in the same process: each worker reads its shard
# (num_shards=8, shard_id=rank: rows rank, rank+8, ...) in batches of 2, i.e. a global batch of 16.
# The loss each worker reports is the mean over its local batch; the mean of the 8 local losses is
# the stand-alone loss. gradients_mean=True trains exactly like stand-alone; gradients_mean=False
# sums the 8 workers' gradients, i.e. trains like stand-alone with an 8 times larger learning rate.
# (Measured on MindSpore 2.10: weights differ from the stand-alone ones by <= 4e-9, mean losses by
# <= 5e-7; the lr 0.01 and lr 0.08 weights differ by 1e-4 .. 1e-3, so the 1e-6 check discriminates.)
import mindspore as ms
from mindspore import ops
from mindspore.communication import init, get_rank, get_group_size
from _par_common import seeded_net, samples, dataset, train, g5, max_abs_diff

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(48)

ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
_, ref = train(ref_net, dataset(xs, ys, 16))
ref8_net = seeded_net()
_, ref8 = train(ref8_net, dataset(xs, ys, 16), lr=8e-2)
print("stand-alone batch 16 lr 0.01 losses", g5(ref))
print("stand-alone batch 16 lr 0.08 losses", g5(ref8))
all_reduce = ops.AllReduce()

for mean, reference, reference_net in ((True, ref, ref_net), (False, ref8, ref8_net)):
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=mean)
    net = seeded_net()
    model, losses = train(net, dataset(xs, ys, 16 // size, size, rank))
    print(f"gradients_mean={mean} rank {rank} local losses", g5(losses))
    glob = [v / size for v in all_reduce(ms.Tensor(losses, ms.float32)).tolist()]
    print(f"  mean over ranks", g5(glob), "== stand-alone within 1e-5:",
          all(abs(a - b) <= 1e-5 for a, b in zip(glob, reference)))
    print("  weights == stand-alone (lr", 0.01 if mean else 0.08, ") within 1e-6:",
          [max_abs_diff(p, q) <= 1e-6 for p, q in zip(net.trainable_params(), reference_net.trainable_params())])
    print("  shapes", [(p.name, p.shape) for p in net.trainable_params()])
    print("  net.parameter_layout_dict", net.parameter_layout_dict,
          "train_network.parameter_layout_dict", model.train_network.parameter_layout_dict)
