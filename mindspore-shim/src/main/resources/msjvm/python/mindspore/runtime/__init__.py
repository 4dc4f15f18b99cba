"""``mindspore.runtime``: memory settings of the device runtime and the memory counts."""
from mindspore.runtime.memory import (set_memory, memory_allocated, max_memory_allocated,
                                      reset_max_memory_allocated, reset_peak_memory_stats)

__all__ = ["set_memory", "memory_allocated", "max_memory_allocated", "reset_max_memory_allocated",
           "reset_peak_memory_stats"]
