# dataset_strategy validation (string and tuple forms).
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


for v in ["full_batch", "data_parallel", "model_parallel", ((1, 8), (1, 8)), ((2, 1),), [[1, 8]], ((1, 8), [1, 8]),
          ((1, 8.0),), 8, ()]:
    try_set(dataset_strategy=v)
    get("dataset_strategy")
    get("full_batch")
