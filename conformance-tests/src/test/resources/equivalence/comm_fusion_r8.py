# ranks: 8
# Communication fusion on 8 data-parallel ranks (semi_auto_parallel without strategies, each rank its 2
# rows of the global batch of 16): the gradient AllReduces (and, with the optimizer sharded, the weight
# AllGathers and gradient ReduceScatters) that share a fusion id run as one collective over one buffer.
# Every configuration trains like the stand-alone run (losses within 1e-5 relative, the rank's weights
# or weight pieces equal to the stand-alone ones); the fused buckets are read from the plan report
# (save_graphs). Bucket rule (MindSpore's greedy one, in this engine's backward order fc3, fc2, fc1 with
# 5120, 262144 and 401408 elements): size 1 MB keeps all apart, size 2 MB fuses fc3 and fc2; split
# indices [1] (MindSpore's backend: the AllReduces 0..1 in execution order, then the rest) fuse fc3 and
# fc2; without the fusion pass Parameter.comm_fusion decides (default 1: all fused).
import glob
import os
import tempfile
from _equiv import losses_match, slice_matches
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size
from _par_common import seeded_net, samples, dataset, train

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(80)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net = seeded_net()
_, ref = train(ref_net, dataset(xs, ys, 16))


def buckets(folder):
    """The fused calls the plan report lists: (kind, parameters)."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, f"rank_{rank}", "parallel_plan_*.txt"))):
        for line in open(path, encoding="utf-8"):
            if line.startswith("comm fusion:") and "fused into one call" in line:
                kind = line.split()[3]
                names = line[line.rindex("[") + 1:line.rindex("]")].replace("'", "").split(", ")
                out.append((kind, sorted(names)))
    return out


for title, context, fusion_ids in (
        ("default (Parameter.comm_fusion 1)", {}, None),
        ("allreduce size 1 MB", {"comm_fusion": {"allreduce": {"mode": "size", "config": 1}}}, None),
        ("allreduce size 2 MB", {"comm_fusion": {"allreduce": {"mode": "size", "config": 2}}}, None),
        ("all_reduce_fusion_config [1]", {"all_reduce_fusion_config": [1]}, None),
        ("comm_fusion ids fc1 0, fc2 2, fc3 2", {}, {"fc1_weight": 0, "fc2_weight": 2, "fc3_weight": 2}),
        ("optimizer parallel, allgather + reducescatter fusion",
         {"enable_parallel_optimizer": True, "parallel_optimizer_config": {"parallel_optimizer_threshold": 0},
          "comm_fusion": {"allgather": {"mode": "auto", "config": None},
                          "reducescatter": {"mode": "auto", "config": None}}}, None)):
    folder = tempfile.mkdtemp()
    ms.set_context(save_graphs=True, save_graphs_path=folder)
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="data_parallel", **context)
    net = seeded_net()
    for name, fusion in (fusion_ids or {}).items():
        getattr(net, name).comm_fusion = fusion
    _, losses = train(net, dataset(xs, ys, 16 // size, size, rank))
    ok = True
    for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
        k = q.shape[0] // p.shape[0]
        rows = p.shape[0]
        index = rank % k
        ok = ok and slice_matches(p, q[index * rows:(index + 1) * rows])
    print(title + ": losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
          "weights == stand-alone:", ok)
    print("  fused:", buckets(folder))
    ms.set_context(save_graphs=False)
    ms.reset_auto_parallel_context()
