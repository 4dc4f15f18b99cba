# all_reduce_fusion_config validation.
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


for v in [[], [20, 20], [35, 20], (20, 35), [20, "35"], [True, 3], [1.5], "20,35", [0, 7], [20, 35]]:
    try_set(all_reduce_fusion_config=v)
    get("all_reduce_fusion_config")
