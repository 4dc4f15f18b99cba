# Remaining keys: grad_accumulation_step, communi_parallel_mode, optimizer_weight_shard_size,
# group_ckpt_save_file, dump_local_norm_path, loss_repeated_mean type.
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
