# ranks: 8
# Layout strategies that split one dimension over several device axes in any order, adjacent or not
# (MindSpore's Layout((2, 2, 2), ("dp", "sp", "mp")) with layout("mp", ("sp", "dp")) as in the
# docs' advanced operator-parallel sample): each trained 3 steps on the seed-004 network and compared
# with the stand-alone run (losses within 1e-5 relative, every rank's parameter slice equal to the
# stand-alone weight's slice at the place its reported layout names). The parameters report the
# Layout as written (its device matrix, a multi-axis dimension as a list of axes), as MindSpore does.
# - matmul1 x: ("mp", ("sp", "dp")), w: (("sp", "dp"), "None"): the reduction over sp and dp, in
#   reverse order, in both inputs;
# - matmul1 x: (("dp", "mp"), "sp"), w: ("sp", "None"): rows over dp and mp, which sp separates;
# - relu1 over ("mp", "sp", "dp"): all three axes reversed, the activation redistributed to and from it.
from _equiv import slice_matches, losses_match, rank_slice
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size
from mindspore.parallel import Layout
from _par_common import seeded_net, samples, dataset, train

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(48)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
_, ref = train(ref_net, dataset(xs, ys, 16))
cube = Layout((2, 2, 2), ("dp", "sp", "mp"))
runs = {
    "reduction over (sp, dp)": {"matmul1": (cube("mp", ("sp", "dp")), cube(("sp", "dp"), "None"))},
    "rows over (dp, mp) around sp": {"matmul1": (cube(("dp", "mp"), "sp"), cube("sp", "None"))},
    "relu over (mp, sp, dp)": {"relu1": (cube(("mp", "sp", "dp"), "None"),)},
}
for title, strategies in runs.items():
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="data_parallel")
    net = seeded_net(strategies)
    model, losses = train(net, dataset(xs, ys, 16 // size, size, rank))
    print(title, "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
    layouts = model.train_network.parameter_layout_dict
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        layout = layouts[p.name]
        print(" ", p.name, "layout", layout[:3],
              "slice == stand-alone slice within 1e-5:", slice_matches(p, rank_slice(q, layout, rank)))
    ms.reset_auto_parallel_context()
