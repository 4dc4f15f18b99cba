"""``mindspore.runtime``: memory settings of the device runtime."""
from mindspore.runtime.memory import set_memory

__all__ = ["set_memory"]
