# ranks: 2
# init() on CPU (mccl) under msrun with 2 workers; world-group queries.
import os
import mindspore as ms
from mindspore.communication import (init, get_rank, get_group_size, get_local_rank, get_local_rank_size,
                                     GlobalComm, get_world_rank_from_group_rank, get_group_rank_from_world_rank)
from _case_util import show, attempt


ms.set_context(device_target="CPU")
init()
print("INITED", GlobalComm.INITED, "BACKEND", GlobalComm.BACKEND, "WORLD_COMM_GROUP", GlobalComm.WORLD_COMM_GROUP)
print("get_rank", get_rank(), "get_group_size", get_group_size())
print("get_local_rank", get_local_rank(), "get_local_rank_size", get_local_rank_size())
print("world group:", get_rank(GlobalComm.WORLD_COMM_GROUP), get_group_size(GlobalComm.WORLD_COMM_GROUP))
print("RANK_ID env", os.environ.get("RANK_ID"))
attempt("get_rank('hccl_world_group')", lambda: get_rank("hccl_world_group"))
attempt("get_rank(0)", lambda: get_rank(0))
attempt("get_group_size(0)", lambda: get_group_size(0))
attempt("get_world_rank_from_group_rank(world, 1)",
        lambda: get_world_rank_from_group_rank(GlobalComm.WORLD_COMM_GROUP, 1))
attempt("get_group_rank_from_world_rank(1, world)",
        lambda: get_group_rank_from_world_rank(1, GlobalComm.WORLD_COMM_GROUP))
attempt("init() again", init)
print("get_rank", get_rank())
print("auto parallel global_rank", ms.get_auto_parallel_context("global_rank"),
      "device_num", ms.get_auto_parallel_context("device_num"))
