# Communication API before init() in a plain (non-launched) process: RANK_ID / RANK_SIZE unset.
import os
from mindspore.communication import (GlobalComm, HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                                     MCCL_WORLD_COMM_GROUP, get_rank, get_group_size, create_group,
                                     get_local_rank, get_local_rank_size, destroy_group,
                                     get_world_rank_from_group_rank, get_group_rank_from_world_rank)
from _case_util import show, attempt


print("RANK_ID set:", "RANK_ID" in os.environ, "RANK_SIZE set:", "RANK_SIZE" in os.environ)
print("HCCL_WORLD_COMM_GROUP =", HCCL_WORLD_COMM_GROUP)
print("NCCL_WORLD_COMM_GROUP =", NCCL_WORLD_COMM_GROUP)
print("MCCL_WORLD_COMM_GROUP =", MCCL_WORLD_COMM_GROUP)
print("GlobalComm.BACKEND =", GlobalComm.BACKEND)
print("GlobalComm.WORLD_COMM_GROUP =", GlobalComm.WORLD_COMM_GROUP)
print("GlobalComm.INITED =", GlobalComm.INITED)
print("GlobalComm.CHECK_ENVS =", GlobalComm.CHECK_ENVS)
attempt("get_rank()", get_rank)
attempt("get_group_size()", get_group_size)
attempt("get_rank('nccl_world_group')", lambda: get_rank("nccl_world_group"))
attempt("get_group_size('some_group')", lambda: get_group_size("some_group"))
attempt("get_rank(1)", lambda: get_rank(1))
attempt("get_group_size(None)", lambda: get_group_size(None))
attempt("get_local_rank()", get_local_rank)
attempt("get_local_rank_size()", get_local_rank_size)
attempt("create_group('g0', [0, 1])", lambda: create_group("g0", [0, 1]))
attempt("create_group(1, [0, 1])", lambda: create_group(1, [0, 1]))
attempt("destroy_group('g0')", lambda: destroy_group("g0"))
attempt("get_world_rank_from_group_rank('g0', 0)", lambda: get_world_rank_from_group_rank("g0", 0))
attempt("get_group_rank_from_world_rank(0, 'g0')", lambda: get_group_rank_from_world_rank(0, "g0"))
