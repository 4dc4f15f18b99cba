"""``mindspore.parallel.function``: ``reshard``."""
from mindspore.parallel.function import reshard_func
from mindspore.parallel.function.reshard_func import reshard

__all__ = []
__all__.extend(reshard_func.__all__)
