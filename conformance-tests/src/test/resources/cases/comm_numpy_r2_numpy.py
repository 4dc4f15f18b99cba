# ranks: 2
# numpy in every rank of a launched job (each rank loads its own copy of numpy's native code).
import numpy as np
import mindspore as ms
from mindspore.communication import init, get_rank, get_group_size

init()
rank = get_rank()
x = np.arange(6, dtype=np.float32).reshape(2, 3) * (rank + 1)
print("rank", rank, "of", get_group_size(), "sum", float(x.sum()), "shape", x.shape)
ms.set_auto_parallel_context(device_num=get_group_size(), global_rank=rank)
print("global_rank", ms.get_auto_parallel_context("global_rank"))
