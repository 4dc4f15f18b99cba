# ranks: 6
# auto_parallel's search errors on 6 ranks, raised on every rank without hanging the others:
# recursive_programming needs a power-of-2 device count (MindSpore's RuntimeError text); the same network
# then trains with dynamic_programming, which has no such limit.
from _equiv import rank_slice  # noqa: F401  (puts the cases' helpers on the path)
import mindspore as ms
from mindspore.communication import init
from _par_common import seeded_net, samples, dataset, train, show

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
xs, ys = samples(24)
ms.set_auto_parallel_context(parallel_mode="auto_parallel", search_mode="recursive_programming",
                             dataset_strategy="full_batch")
try:
    train(seeded_net(), dataset(xs, ys, 12))
    print("recursive_programming on 6 devices trained")
except RuntimeError as e:
    show(e)
ms.reset_auto_parallel_context()
ms.set_auto_parallel_context(parallel_mode="auto_parallel", dataset_strategy="full_batch")
_, losses = train(seeded_net(), dataset(xs, ys, 12))
print("dynamic_programming on 6 devices: steps", len(losses), "finite:", all(l == l for l in losses))
