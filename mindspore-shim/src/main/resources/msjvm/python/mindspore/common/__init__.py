"""``mindspore.common``."""
from mindspore.common import dtype
from mindspore.common.seed import get_seed, set_seed
from mindspore.common.tensor import Tensor
from mindspore.common import initializer  # the module; installs its set_seed hook

__all__ = ["dtype", "set_seed", "get_seed", "Tensor"]
