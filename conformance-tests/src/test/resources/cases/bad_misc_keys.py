# Remaining keys: grad_accumulation_step, communi_parallel_mode, optimizer_weight_shard_size,
# group_ckpt_save_file, dump_local_norm_path, loss_repeated_mean type.
import mindspore as ms
from _case_util import get, try_set


for v in [0, -1, 2, 1, "1", 1.0]:
    try_set(grad_accumulation_step=v)
    get("grad_accumulation_step")
for v in ["same_server_group_parallel", "ALL_GROUP_PARALLEL", "x", 1, "all_group_parallel"]:
    try_set(communi_parallel_mode=v)
    get("communi_parallel_mode")
for v in [4, 1, 0, -1, True, "2", 2.5]:
    try_set(optimizer_weight_shard_size=v)
    get("optimizer_weight_shard_size")
try_set(group_ckpt_save_file=5)
try_set(group_ckpt_save_file="./group.ckpt")
get("group_ckpt_save_file")
try_set(dump_local_norm_path="./norm")
get("dump_local_norm_path")
