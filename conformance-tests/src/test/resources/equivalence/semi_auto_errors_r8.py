# ranks: 8
# semi_auto_parallel on 8 ranks: strategies MindSpore refuses raise its RuntimeError
# "Failure:operator <Op> init failed" when the network compiles (model.train), on every rank, with the
# reason MindSpore logs as the second line ("<Op>Info: ..."); no rank waits for another, and the next
# network compiles and trains. (MindSpore reaches these checks only on Ascend/GPU: on CPU its backend
# check comes first, case pending/par_semi_auto_cpu_r8.)
from _equiv import rank_slice  # noqa: F401  (puts the cases' helpers on the path)
import mindspore as ms
from mindspore.communication import init, get_rank
from _par_common import seeded_net, samples, dataset, train, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
xs, ys = samples(48)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")

BAD = [
    ("a split that does not divide the dimension (10 by 4)", {"matmul3": ((2, 1), (1, 4))}, 16),
    ("a strategy using more devices than the stage has (2*8)", {"matmul1": ((2, 8), (8, 1))}, 16),
    ("a product that does not divide the device count (3)", {"relu1": ((3, 1),)}, 24),
    ("one strategy for a two-input operator", {"matmul1": ((2, 4),)}, 16),
    ("a strategy of the wrong rank", {"relu2": ((8, 1, 1),)}, 16),
]
for label, strategies, batch in BAD:
    net = seeded_net(strategies)
    try:
        train(net, dataset(xs, ys, batch))
        print(label, "-> trained (not refused)")
    except RuntimeError as e:
        lines = str(e).splitlines()
        print(label, "->", type(e).__name__ + ":", lines[0])
        print("   ", lines[1] if len(lines) > 1 else "")

net = seeded_net(SEED_STRATEGIES)
_, losses = train(net, dataset(xs, ys, 16))
print("afterwards the seed strategies train:", len(losses), "steps")
