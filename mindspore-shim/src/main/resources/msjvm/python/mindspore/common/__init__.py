"""``mindspore.common``."""
from mindspore.common.seed import get_seed, set_seed

__all__ = ["set_seed", "get_seed"]
