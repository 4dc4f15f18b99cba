# global_rank validation: [0, 4095], int only.
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


for v in [-1, 4095, 4096, 0, "0", 1.0, False]:
    try_set(global_rank=v)
    get("global_rank")
