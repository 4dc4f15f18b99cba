# ranks: 2
# create_group / destroy_group validation and sub-group queries on 2 ranks (CPU, mccl).
import mindspore as ms
from mindspore.communication import (init, get_rank, get_group_size, create_group, destroy_group,
                                     get_world_rank_from_group_rank, get_group_rank_from_world_rank,
                                     get_process_group_ranks)
from _case_util import show, attempt


ms.set_context(device_target="CPU")
init()
rank = get_rank()
attempt("create_group('g_empty', [])", lambda: create_group("g_empty", []))
attempt("create_group('g_dup', [0, 0])", lambda: create_group("g_dup", [0, 0]))
attempt("create_group('g_tuple', (0, 1))", lambda: create_group("g_tuple", (0, 1)))
attempt("create_group(5, [0, 1])", lambda: create_group(5, [0, 1]))
attempt("create_group('g01', [1, 0])", lambda: create_group("g01", [1, 0]))
attempt("get_rank('g01')", lambda: get_rank("g01"))
attempt("get_group_size('g01')", lambda: get_group_size("g01"))
attempt("get_process_group_ranks('g01')", lambda: get_process_group_ranks("g01"))
attempt("get_group_rank_from_world_rank(rank, 'g01')", lambda: get_group_rank_from_world_rank(rank, "g01"))
attempt("get_world_rank_from_group_rank('g01', 0)", lambda: get_world_rank_from_group_rank("g01", 0))
attempt("get_world_rank_from_group_rank('g01', 1)", lambda: get_world_rank_from_group_rank("g01", 1))
attempt("get_world_rank_from_group_rank('g01', '1')", lambda: get_world_rank_from_group_rank("g01", "1"))
attempt("get_group_rank_from_world_rank('0', 'g01')", lambda: get_group_rank_from_world_rank("0", "g01"))
attempt("create_group('g01', [0, 1]) again", lambda: create_group("g01", [0, 1]))
attempt("destroy_group('g01')", lambda: destroy_group("g01"))
attempt("destroy_group(world)", lambda: destroy_group("mccl_world_group"))
attempt("destroy_group(1)", lambda: destroy_group(1))
