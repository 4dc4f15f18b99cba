# Default strategy search mode. The seed documents say the default is "dynamic_programming"
# (current MindSpore master says "recursive_programming"): this golden follows the seeds.
import mindspore as ms

print("fresh:", ms.get_auto_parallel_context("search_mode"), ms.get_auto_parallel_context("auto_parallel_search_mode"))
ms.set_auto_parallel_context(search_mode="sharding_propagation")
print("set:", ms.get_auto_parallel_context("search_mode"), ms.get_auto_parallel_context("auto_parallel_search_mode"))
ms.reset_auto_parallel_context()
print("after reset:", ms.get_auto_parallel_context("search_mode"),
      ms.get_auto_parallel_context("auto_parallel_search_mode"))
ms.set_auto_parallel_context(search_mode="recursive_programming")
print("set:", ms.get_auto_parallel_context("search_mode"))
ms.reset_auto_parallel_context()
print("after reset:", ms.get_auto_parallel_context("search_mode"))
print("sharding_propagation:", ms.get_auto_parallel_context("sharding_propagation"))
