# ranks: 2
# Seed 004 (parameter_broadcast docstring example): the context and communication set-up lines.
import mindspore as ms
from mindspore.communication import init

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_context(max_device_memory="28GB")
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
init()
ms.set_seed(1)

from mindspore.communication import get_rank, get_group_size
print("parallel_mode", ms.get_auto_parallel_context("parallel_mode"))
print("max_device_memory", ms.get_context("max_device_memory"))
print("rank", get_rank(), "of", get_group_size(), "seed", ms.get_seed())
