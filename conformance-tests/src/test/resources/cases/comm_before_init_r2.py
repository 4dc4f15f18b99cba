# ranks: 2
# Under msrun (2 workers), before init(): get_rank()/get_group_size() come from RANK_ID / RANK_SIZE.
import os
from mindspore.communication import get_rank, get_group_size, GlobalComm

print("RANK_ID", os.environ.get("RANK_ID"), "RANK_SIZE", os.environ.get("RANK_SIZE"))
print("get_rank", get_rank(), "get_group_size", get_group_size())
print("INITED", GlobalComm.INITED)
