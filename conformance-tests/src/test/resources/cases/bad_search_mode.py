# search_mode / deprecated aliases auto_parallel_search_mode and sharding_propagation.
import mindspore as ms
from _case_util import get, try_set


for v in ["dynamic_programming", "sharding_propagation", "recursive_programming", "DP", "", 3]:
    try_set(search_mode=v)
    get("search_mode")
for v in ["dynamic_programming", "greedy", 0]:
    try_set(auto_parallel_search_mode=v)
    get("auto_parallel_search_mode")
    get("search_mode")
try_set(sharding_propagation=True)
get("sharding_propagation")
get("search_mode")
try_set(sharding_propagation=False)
get("sharding_propagation")
get("search_mode")
