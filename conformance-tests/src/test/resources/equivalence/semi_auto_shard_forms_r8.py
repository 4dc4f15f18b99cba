# ranks: 8
# semi_auto_parallel on 8 ranks with the other forms of strategy MindSpore accepts, each run trained 5 steps
# on the seed-004 network and compared with the stand-alone run of the same seed and data (losses within
# 1e-5 relative, every rank's parameter slices equal to the stand-alone weights' within 1e-5):
# - out_strategy: matmul1.shard(((2, 4), (4, 1)), out_strategy=((8, 1),)): the partial sums over the 4
#   devices splitting the reduction dimension become a ReduceScatter (MindSpore's MatMul, matmul_info.cc);
# - Layout strategies (mindspore.parallel.Layout with alias names) giving the seed strategies, one of them
#   splitting a dimension over two axes (layout(("dp", "mp"), "None")); parameters report the Layout's
#   device matrix and tensor map;
# - nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean") as the loss with per-rank data slices
#   (its gradient kernel divides by the global batch on every rank);
# - enable_alltoall=True with the seed strategies: redistributions moving a split from one dimension to
#   another (relu1's rows to matmul2's columns) use one AlltoAll; the numbers do not change;
# - a Layout arranging the devices its own way (matmul1 x: layout("mp", "dp"), w: layout("dp", "None"):
#   rows over the 4-device axis, the reduction over the 2-device one) trains like the others, the
#   parameter reporting that Layout;
# - Layouts splitting the reduction dimension 4 ways in x and 2 ways in w: MindSpore's "Failure:operator
#   MatMul init failed" on every rank, no rank hangs, the next network trains.
from _equiv import slice_matches, losses_match, rank_slice
import mindspore as ms
from mindspore import nn
from mindspore.communication import init, get_rank, get_group_size
from mindspore.parallel import Layout
from _par_common import seeded_net, samples, dataset, train, max_abs_diff, show, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(80)


def sparse_loss():
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
_, ref = train(ref_net, dataset(xs, ys, 16))
sparse_ref_net = seeded_net()
_, sparse_ref = train(sparse_ref_net, dataset(xs, ys, 16), loss_fn=sparse_loss())

grid = Layout((2, 4), ("dp", "mp"))
quads = Layout((4, 2), ("dp", "mp"))
line = Layout((8,), ("mp",))
LAYOUTS = {"matmul1": (grid("dp", "mp"), grid("mp", "None")), "relu1": (quads("dp", "None"),),
           "matmul2": (line("None", "mp"), line("mp", "None")), "relu2": (grid(("dp", "mp"), "None"),)}


def out_strategy_net():
    net = seeded_net(SEED_STRATEGIES)
    net.matmul1.shard(((2, 4), (4, 1)), out_strategy=((8, 1),))
    return net


runs = [("out_strategy ReduceScatter", out_strategy_net, ref, ref_net, None, {}),
        ("Layout strategies", lambda: seeded_net(LAYOUTS), ref, ref_net, None, {}),
        ("sparse softmax cross-entropy", lambda: seeded_net(SEED_STRATEGIES), sparse_ref, sparse_ref_net,
         sparse_loss, {}),
        ("enable_alltoall", lambda: seeded_net(SEED_STRATEGIES), ref, ref_net, None, {"enable_alltoall": True}),
        ("crossed Layout", lambda: seeded_net({"matmul1": (grid("mp", "dp"), grid("dp", "None"))}), ref, ref_net,
         None, {})]
for title, make, expected, expected_net, loss, extra in runs:
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="data_parallel", **extra)
    net = make()
    model, losses = train(net, dataset(xs, ys, 16 // size, size, rank), loss_fn=loss() if loss else None)
    print(title, "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, expected))
    layouts = model.train_network.parameter_layout_dict
    for p, q in zip(net.trainable_params(), expected_net.trainable_params()):
        layout = layouts[p.name]
        print(" ", p.name, "layout", layout[:3],
              "slice == stand-alone slice within 1e-5:", slice_matches(p, rank_slice(q, layout, rank)))
    ms.reset_auto_parallel_context()

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="data_parallel")
clashing = seeded_net({"matmul1": (grid("dp", "mp"), grid("dp", "None"))})
try:
    train(clashing, dataset(xs, ys, 16 // size, size, rank))
    print("clashing Layouts: trained (unexpected)")
except RuntimeError as e:
    show(e)
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="data_parallel")
_, losses = train(seeded_net(SEED_STRATEGIES), dataset(xs, ys, 16 // size, size, rank))
print("after the refusal: steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
