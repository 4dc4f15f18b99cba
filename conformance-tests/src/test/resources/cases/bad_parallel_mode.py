# parallel_mode validation, in PyNative (the default) and in GRAPH mode.
import mindspore as ms
from _case_util import get, try_set


print("mode", ms.get_context("mode"))
for v in ["stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel", "auto_parallel",
          "AUTO_PARALLEL", "model_parallel", "", 1]:
    try_set(parallel_mode=v)
    get("parallel_mode")
ms.set_context(mode=ms.GRAPH_MODE)
print("mode", ms.get_context("mode"))
for v in ["hybrid_parallel", "semi_auto_parallel", "bad_mode"]:
    try_set(parallel_mode=v)
    get("parallel_mode")
