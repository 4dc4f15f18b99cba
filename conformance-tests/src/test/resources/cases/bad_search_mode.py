# search_mode / deprecated aliases auto_parallel_search_mode and sharding_propagation.
import mindspore as ms
from _case_util import show


def try_set(**kw):
    label = ", ".join(f"{k}={v!r}" for k, v in kw.items())
    try:
        ms.set_auto_parallel_context(**kw)
        print(f"set {label} -> ok")
    except Exception as e:  # pylint: disable=broad-except
        print(f"set {label} -> ", end="")
        show(e)


def get(key):
    try:
        print(f"get {key} = {ms.get_auto_parallel_context(key)!r}")
    except Exception as e:  # pylint: disable=broad-except
        print(f"get {key} -> ", end="")
        show(e)


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
