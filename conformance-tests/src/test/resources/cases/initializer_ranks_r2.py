# ranks: 2
# Each rank has its own initializer seed stream: rank 0 draws more than rank 1, and both still get
# MindSpore 2.10's values for their own set_seed (in MindSpore every rank is its own process).
import os
import mindspore as ms
from mindspore.common.initializer import initializer, Normal, Uniform

rank = int(os.environ.get("RANK_ID", "0"))
ms.set_seed(10 + rank)
if rank == 0:
    print("extra", initializer(Uniform(), [3]).init_data().tolist())
print("normal", initializer(Normal(sigma=1.0), [4]).init_data().tolist())
ms.set_seed(99)
print("same seed", initializer('uniform', [3]).init_data().tolist())
