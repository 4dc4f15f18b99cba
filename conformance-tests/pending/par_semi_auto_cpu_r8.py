# ranks: 8
# semi_auto_parallel / auto_parallel training on the CPU backend (mccl), GRAPH_MODE: shard() accepts
# the seed-004 strategies (and, at shard() time, also strategies that are wrong for the shapes or the
# device count: those are checked only when the graph is compiled), but the first Model.train step
# fails while compiling on every worker, because MindSpore 2.10's parallel passes support only the
# Ascend and GPU backends. The message depends on the pass that asks first: with
# dataset_strategy "full_batch" the pipeline-split pass (GetWorldGroup), otherwise GetCommInfo.
# No worker hangs: each fails on its own, before any communication.
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size
from _par_common import SEED_STRATEGIES, seeded_net, samples, dataset, train, show

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank, size = get_rank(), get_group_size()
xs, ys = samples(16)


def attempt(label, context, strategies, sharded_data):
    ms.set_auto_parallel_context(**context)
    net = seeded_net(strategies)
    data = dataset(xs, ys, 16 // size, size, rank) if sharded_data else dataset(xs, ys, 16)
    try:
        _, losses = train(net, data)
        print(label, "-> trained", losses)
    except Exception as e:  # pylint: disable=broad-except
        print(label, "-> ", end="")
        show(e)
    print("  parameter_layout_dict", net.parameter_layout_dict, "shapes", [p.shape for p in net.trainable_params()])
    ms.reset_auto_parallel_context()


net = seeded_net(SEED_STRATEGIES)
print("strategies", [(n, getattr(net, n).attrs.get("in_strategy")) for n in ("matmul1", "relu1", "matmul2", "relu2", "matmul3")])
print("rank", rank, "of", size)
semi = {"parallel_mode": "semi_auto_parallel"}
attempt("semi full_batch", dict(semi, dataset_strategy="full_batch"), SEED_STRATEGIES, False)
attempt("semi full_batch gradients_mean", dict(semi, dataset_strategy="full_batch", gradients_mean=True),
        SEED_STRATEGIES, False)
attempt("semi data_parallel", dict(semi, dataset_strategy="data_parallel"), SEED_STRATEGIES, True)
attempt("semi default dataset_strategy", semi, SEED_STRATEGIES, True)
attempt("semi no strategies", semi, {}, True)
attempt("semi parameter_broadcast", dict(semi, parameter_broadcast=True), SEED_STRATEGIES, True)
attempt("auto_parallel", {"parallel_mode": "auto_parallel"}, {}, True)
attempt("auto_parallel full_batch", {"parallel_mode": "auto_parallel", "dataset_strategy": "full_batch"}, {}, False)
attempt("strategy not dividing the shape (10 by 4)", semi, {"matmul3": ((1, 1), (1, 4))}, True)
attempt("strategy product 16 on 8 devices", semi, {"matmul1": ((4, 4), (4, 1))}, True)
attempt("one input strategy for MatMul", semi, {"matmul1": ((2, 4),)}, True)
attempt("strategy value 3", semi, {"relu1": ((1, 3),)}, True)
attempt("strategy value 0", semi, {"relu1": ((0, 1),)}, True)
