# numpy values given to the context API: numpy scalars are not Python ints/bools, so the type
# checks refuse them exactly as MindSpore does; converted values are accepted.
import numpy as np
import mindspore as ms


def attempt(label, fn):
    try:
        r = fn()
        print(f"{label} -> ok" + ("" if r is None else f" {r!r}"))
    except Exception as e:  # pylint: disable=broad-except
        print(f"{label} -> {type(e).__name__}: {str(e).splitlines()[0]}")


attempt("device_num=np.int64(8)", lambda: ms.set_auto_parallel_context(device_num=np.int64(8)))
attempt("device_num=int(np.int64(8))", lambda: ms.set_auto_parallel_context(device_num=int(np.int64(8))))
attempt("gradients_mean=np.bool_(True)", lambda: ms.set_auto_parallel_context(gradients_mean=np.bool_(True)))
attempt("all_reduce_fusion_config=np.array([2, 5])",
        lambda: ms.set_auto_parallel_context(all_reduce_fusion_config=np.array([2, 5])))
attempt("all_reduce_fusion_config=np.array([2, 5]).tolist()",
        lambda: ms.set_auto_parallel_context(all_reduce_fusion_config=np.array([2, 5]).tolist()))
attempt("set_seed(np.int32(3))", lambda: ms.set_seed(np.int32(3)))
print("device_num", ms.get_auto_parallel_context("device_num"))
print("all_reduce_fusion_config", ms.get_auto_parallel_context("all_reduce_fusion_config"))
print("sum", int(np.arange(10).sum()))
