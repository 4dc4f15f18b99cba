# device_num validation. The seed documents bound device_num to [1, 4096]: 4097 must raise ValueError
# (current MindSpore master accepts it; see DEVIATIONS.md).
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


for v in [0, -1, 4096, 4097, 1, True, "8", 8.0, None]:
    try_set(device_num=v)
    get("device_num")
