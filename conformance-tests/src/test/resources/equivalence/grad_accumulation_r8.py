# ranks: 8
# Gradient accumulation on 8 ranks: GradAccumulation(WithLossCell(net), 4) in semi_auto_parallel (the
# seed's shard strategies, dataset_strategy full_batch: every rank reads the global batch of 32) builds
# MindSpore's _TrainGradAccuStepCell: the loss is the sum of the 4 micro-batch losses and the gradient
# applied is that sum's gradient / 4. The run must equal the stand-alone run of the same script (its
# stand-alone GradAccumulation step is the same cell; see DEVIATIONS.md for MindSpore 2.10's): per-step
# losses within 1e-5 relative, every rank's parameter slices within float32 tolerance; the same with
# optimizer parallel on (weights and states stored as pieces). A micro size that does not divide the
# batch raises MindSpore's ValueError on every rank.
from _equiv import losses_match, slice_matches, rank_slice
import mindspore as ms
from mindspore import nn
from mindspore.communication import init, get_rank
from mindspore.parallel.nn import GradAccumulation
from mindspore.train import Model
from _par_common import seeded_net, samples, dataset, LossLog, show, max_abs_diff, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
MICRO = 4
LR = 0.1
xs, ys = samples(320)


def slice_ranges(layout, r):
    """The starting index of rank r's slice along each dimension (rank_slice's arithmetic)."""
    dev_matrix, tensor_map, slice_shape = layout[0], layout[1], layout[2]
    coords, rest = [], r
    for size in reversed(dev_matrix):
        coords.append(rest % size)
        rest //= size
    return [0 if axis == -1 else coords[axis] * slice_shape[d] for d, axis in enumerate(tensor_map)]


def run(lr, strategies=None, micro=MICRO):
    net = seeded_net(strategies)
    cell = GradAccumulation(nn.WithLossCell(net, nn.CrossEntropyLoss()), micro)
    model = Model(cell, optimizer=nn.SGD(net.trainable_params(), lr))
    log = LossLog()
    model.train(1, dataset(xs, ys, 32), callbacks=[log])
    return net, model, log.losses


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net, _, ref = run(LR)
moved = max(max_abs_diff(p, q) for p, q in zip(ref_net.trainable_params(), seeded_net().trainable_params()))
print("stand-alone: steps", len(ref), "weights moved by more than 1e-4:", moved > 1e-4)
for title, extra in (("GradAccumulation(net, 4)", {}),
                     ("with optimizer parallel", {"enable_parallel_optimizer": True,
                                                  "parallel_optimizer_config": {"parallel_optimizer_threshold": 0}})):
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch", **extra)
    net, model, losses = run(LR, SEED_STRATEGIES)
    print(title + ": steps", len(losses), "losses == stand-alone within 1e-5 relative:",
          losses_match(losses, ref))
    layouts = model.train_network.parameter_layout_dict
    ok = True
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        layout = layouts[p.name]
        part = rank_slice(q, layout, rank)
        if tuple(p.shape) != tuple(part.shape):
            # An optimizer-parallel piece: the ranks holding the same slice (in rank order) each keep
            # their share of its rows.
            replicas = [r for r in range(8) if slice_ranges(layout, r) == slice_ranges(layout, rank)]
            rows = p.shape[0]
            index = replicas.index(rank) % (part.shape[0] // rows)
            part = part[index * rows:(index + 1) * rows]
        ok = ok and slice_matches(p, part)
    print("  every rank's parameters == stand-alone within float32 tolerance:", ok)
    ms.reset_auto_parallel_context()

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
try:
    run(LR, SEED_STRATEGIES, micro=5)
    print("micro 5 for a batch of 32 -> trained")
except ValueError as e:
    print("micro 5 for a batch of 32 ->", end=" ")
    show(e)
ms.reset_auto_parallel_context()
