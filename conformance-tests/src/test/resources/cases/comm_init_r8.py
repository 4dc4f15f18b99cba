# ranks: 8
# init() on CPU (mccl) with 8 workers; sub-groups of even and odd ranks.
import mindspore as ms
from mindspore.communication import (init, get_rank, get_group_size, get_local_rank, get_local_rank_size,
                                     create_group, destroy_group, get_world_rank_from_group_rank,
                                     get_group_rank_from_world_rank)
from _case_util import show, attempt


ms.set_context(device_target="CPU")
init()
rank = get_rank()
print("get_rank", rank, "get_group_size", get_group_size())
print("get_local_rank", get_local_rank(), "get_local_rank_size", get_local_rank_size())
name = "even" if rank % 2 == 0 else "odd"
members = [0, 2, 4, 6] if rank % 2 == 0 else [1, 3, 5, 7]
attempt(f"create_group('{name}', {members})", lambda: create_group(name, members))
attempt(f"get_rank('{name}')", lambda: get_rank(name))
attempt(f"get_group_size('{name}')", lambda: get_group_size(name))
attempt(f"get_group_rank_from_world_rank({rank}, '{name}')", lambda: get_group_rank_from_world_rank(rank, name))
attempt(f"world ranks of '{name}'", lambda: [get_world_rank_from_group_rank(name, i) for i in range(4)])
attempt(f"destroy_group('{name}')", lambda: destroy_group(name))
