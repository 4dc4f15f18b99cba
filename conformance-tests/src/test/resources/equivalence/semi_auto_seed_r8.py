# ranks: 8
# semi_auto_parallel on 8 ranks with the shard strategies of MindSpore's parameter_broadcast example
# (seed 004: matmul1 ((2, 4), (4, 1)), relu1 ((4, 1),), matmul2 ((1, 8), (8, 1)), relu2 ((8, 1),),
# matmul3 and the loss without a strategy) trains exactly like the stand-alone run of the same network,
# seed and data in the same process: per-step losses within 1e-5 relative and every rank's parameter
# slice equal to the matching slice of the stand-alone weights, for dataset_strategy "full_batch" (each
# rank reads the global batch of 16) and "data_parallel" (each rank reads its 2 rows). The layouts are
# MindSpore's (device matrix with the repeated axis appended, tensor map from the right, slice shape).
# MindSpore itself cannot run this on CPU ("Invalid communication backend: CPU", case
# pending/par_semi_auto_cpu_r8), so the expected output is the stand-alone equivalence, not a golden.
from _equiv import slice_matches, losses_match, rank_slice
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size
from _par_common import seeded_net, samples, dataset, train, max_abs_diff, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(160)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
initial = seeded_net()
ref_net = seeded_net()
_, ref = train(ref_net, dataset(xs, ys, 16))
moved = max(max_abs_diff(p, q) for p, q in zip(ref_net.trainable_params(), initial.trainable_params()))
print("stand-alone: 10 steps, weights moved by more than 1e-4:", moved > 1e-4)

for strategy in ("full_batch", "data_parallel"):
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy=strategy)
    net = seeded_net(SEED_STRATEGIES)
    data = dataset(xs, ys, 16) if strategy == "full_batch" else dataset(xs, ys, 16 // size, size, rank)
    model, losses = train(net, data)
    print(strategy, "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
    layouts = model.train_network.parameter_layout_dict
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        layout = layouts[p.name]
        print(" ", p.name, "layout", layout[:3], "shape", p.shape,
              "slice == stand-alone slice within 1e-5:", slice_matches(p, rank_slice(q, layout, rank)))
    print("  net.parameter_layout_dict has the weights:", sorted(net.parameter_layout_dict))
    ms.reset_auto_parallel_context()
