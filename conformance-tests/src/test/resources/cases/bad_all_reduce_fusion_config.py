# all_reduce_fusion_config validation.
import mindspore as ms
from _case_util import get, try_set


for v in [[], [20, 20], [35, 20], (20, 35), [20, "35"], [True, 3], [1.5], "20,35", [0, 7], [20, 35]]:
    try_set(all_reduce_fusion_config=v)
    get("all_reduce_fusion_config")
