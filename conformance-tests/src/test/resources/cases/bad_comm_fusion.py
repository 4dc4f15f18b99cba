# comm_fusion dict validation (types, keys, modes).
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


try_set(comm_fusion=[("allreduce", 1)])
try_set(comm_fusion={"alltoall": {"mode": "auto", "config": None}})
try_set(comm_fusion={"openstate": 1})
try_set(comm_fusion={"allreduce": "auto"})
try_set(comm_fusion={"allreduce": {"config": 32}})
try_set(comm_fusion={"allreduce": {"mode": "size"}})
try_set(comm_fusion={"allreduce": {"mode": "ring", "config": 32}})
try_set(comm_fusion={"allgather": {"mode": "index", "config": [2, 4]}})
try_set(comm_fusion={"reducescatter": {"mode": "index", "config": [2, 4]}})
try_set(comm_fusion={"allreduce": {"mode": "size", "config": -1}})
try_set(comm_fusion={"allreduce": {"mode": "size", "config": "32"}})
try_set(comm_fusion={"allgather": {"mode": "size", "config": -5}})
try_set(comm_fusion={"allreduce": {"mode": "index", "config": []}})
try_set(comm_fusion={"allreduce": {"mode": "index", "config": [4, 2]}})
get("comm_fusion")
try_set(comm_fusion={"allreduce": {"mode": "index", "config": [2, 4]}})
get("all_reduce_fusion_config")
get("comm_fusion")
try_set(comm_fusion={"openstate": False, "allgather": {"mode": "auto", "config": None}})
get("comm_fusion")
try_set(comm_fusion={"reducescatter": {"mode": "size", "config": 0}})
get("comm_fusion")
