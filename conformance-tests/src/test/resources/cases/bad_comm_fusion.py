# comm_fusion dict validation (types, keys, modes).
import mindspore as ms
from _case_util import get, try_set


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
