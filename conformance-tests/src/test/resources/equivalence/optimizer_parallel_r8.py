# ranks: 8
# Optimizer parallel (ZeRO) on 8 data-parallel ranks: semi_auto_parallel without strategies (each rank
# its 2 rows of the global batch of 16), Momentum (one state per weight), enable_parallel_optimizer.
# Every run must train like the stand-alone run (per-step losses within 1e-5 relative; the piece of
# every weight a rank stores equal to the matching rows of the stand-alone weight), while the bytes a
# rank stores for the weights and their momenta shrink as ZeRO says: a weight sharded k ways keeps
# 1/k of itself and of its momentum. Configurations: the default threshold (64 KB: fc3_weight, 20 KB,
# stays whole), threshold 0 with optimizer_weight_shard_size 2 (pieces over rank pairs), level3
# (weights gathered again for the backward pass), and parallel_optimizer=False on fc1_weight.
from _equiv import losses_match, slice_matches
import mindspore as ms
from mindspore import nn
from mindspore.communication import init, get_rank, get_group_size
from mindspore.train import Model
from _par_common import seeded_net, samples, dataset, LossLog

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(80)


def run(data, opt_off=()):
    net = seeded_net()
    for name in opt_off:
        getattr(net, name).parallel_optimizer = False
    opt = nn.Momentum(net.trainable_params(), 1e-2, 0.9)
    model = Model(net, loss_fn=nn.CrossEntropyLoss(), optimizer=opt)
    log = LossLog()
    model.train(1, data, callbacks=[log])
    return net, opt, log.losses


def stored(params, opt):
    """Bytes this rank holds for the weights and their momenta (from the tensors' current shapes)."""
    return sum(4 * p.size for p in list(params) + list(opt.moments))


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net, ref_opt, ref = run(dataset(xs, ys, 16))
whole = stored(ref_net.trainable_params(), ref_opt)
print("stand-alone: weights + momenta", whole, "bytes")

for title, config, parts, opt_off in (
        ("default threshold", {}, {"fc1_weight": 8, "fc2_weight": 8, "fc3_weight": 1}, ()),
        ("threshold 0, shard size 2", {"parallel_optimizer_threshold": 0, "optimizer_weight_shard_size": 2},
         {"fc1_weight": 2, "fc2_weight": 2, "fc3_weight": 2}, ()),
        ("level3", {"optimizer_level": "level3"}, {"fc1_weight": 8, "fc2_weight": 8, "fc3_weight": 1}, ()),
        ("fc1_weight.parallel_optimizer = False", {}, {"fc1_weight": 1, "fc2_weight": 8, "fc3_weight": 1},
         ("fc1_weight",))):
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="data_parallel",
                                 enable_parallel_optimizer=True, parallel_optimizer_config=config)
    net, opt, losses = run(dataset(xs, ys, 16 // size, size, rank), opt_off)
    print(title + ": steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
    ok = True
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        k = parts[p.name]
        rows = q.shape[0] // k
        index = rank % k
        ok = ok and tuple(p.shape) == (rows,) + tuple(q.shape[1:]) and slice_matches(p, q[index * rows:(index + 1) * rows])
    print("  every weight's piece == its rows of the stand-alone weight:", ok)
    expect = sum(4 * q.size // parts[q.name] * 2 for q in ref_net.trainable_params())
    print("  weights + momenta on this rank:", stored(net.trainable_params(), opt), "bytes; ZeRO's sum of 2 x size / k:",
          expect)
    ms.reset_auto_parallel_context()
