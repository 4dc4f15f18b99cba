# ParallelMode constants and their use as parallel_mode values.
import mindspore as ms
from mindspore import context
from mindspore.context import ParallelMode

print(ParallelMode.STAND_ALONE, ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL,
      ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
print(ParallelMode.MODE_LIST)
print(ms.ParallelMode is ParallelMode, context.ParallelMode is ParallelMode)
ms.set_context(mode=ms.GRAPH_MODE)
for m in ParallelMode.MODE_LIST:
    ms.set_auto_parallel_context(parallel_mode=m)
    print(ms.get_auto_parallel_context("parallel_mode") == m, ms.get_auto_parallel_context("parallel_mode"))
print(ms.GRAPH_MODE, ms.PYNATIVE_MODE, context.GRAPH_MODE, context.PYNATIVE_MODE)
