# global_rank validation: [0, 4095], int only.
import mindspore as ms
from _case_util import get, try_set


for v in [-1, 4095, 4096, 0, "0", 1.0, False]:
    try_set(global_rank=v)
    get("global_rank")
