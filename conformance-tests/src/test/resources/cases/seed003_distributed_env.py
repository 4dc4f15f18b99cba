# ranks: 2
# Seed 003 (multi-dimensional hybrid parallel case), "Configuring Distributed Environment" snippet.
import os
import mindspore as ms
from mindspore.communication import init

os.environ['MS_DEV_SAVE_GRAPHS'] = '2'
ms.set_context(mode=ms.GRAPH_MODE)
ms.runtime.set_memory(max_size="25GB")
init()
ms.set_seed(1)

from mindspore.communication import get_rank, get_group_size
print("mode", ms.get_context("mode"), "seed", ms.get_seed())
print("rank", get_rank(), "of", get_group_size())
try:
    ms.runtime.set_memory(max_size="25GB")
except RuntimeError as e:
    print(f"{type(e).__name__}: {e}")
