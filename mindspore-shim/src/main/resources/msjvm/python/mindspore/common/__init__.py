"""``mindspore.common``."""
from mindspore.common import dtype
from mindspore.common.seed import get_seed, set_seed
from mindspore.common.tensor import Tensor
from mindspore.common import initializer  # the module; installs its set_seed hook
from mindspore.common.parameter import Parameter
from mindspore.common._parameter_tuple import ParameterTuple

__all__ = ["dtype", "set_seed", "get_seed", "Tensor", "Parameter", "ParameterTuple"]
