# parallel_mode validation, in PyNative (the default) and in GRAPH mode.
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


print("mode", ms.get_context("mode"))
for v in ["stand_alone", "data_parallel", "hybrid_parallel", "semi_auto_parallel", "auto_parallel",
          "AUTO_PARALLEL", "model_parallel", "", 1]:
    try_set(parallel_mode=v)
    get("parallel_mode")
ms.set_context(mode=ms.GRAPH_MODE)
print("mode", ms.get_context("mode"))
for v in ["hybrid_parallel", "semi_auto_parallel", "bad_mode"]:
    try_set(parallel_mode=v)
    get("parallel_mode")
