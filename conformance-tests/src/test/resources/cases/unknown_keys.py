# Unknown keys for set and get, and keys that are set-only or get-only.
import mindspore as ms
from _case_util import get, show, try_set


try_set(parallel_stages=4)
try_set(device_number=8)
try_set(Device_Num=8)
get("parallel_stages")
get("device_number")
get("")
for k in ["pipeline_segments", "group_ckpt_save_file", "parallel_optimizer_config", "pipeline_config"]:
    get(k)
for k in ["full_batch_is_set", "pipeline_interleave", "pipeline_scheduler"]:
    try_set(**{k: True})
try:
    ms.set_auto_parallel_context()
    print("set () -> ok")
except Exception as e:  # pylint: disable=broad-except
    show(e)
try:
    ms.get_auto_parallel_context(1)
except Exception as e:  # pylint: disable=broad-except
    show(e)
try:
    ms.set_auto_parallel_context(8)
except Exception as e:  # pylint: disable=broad-except
    show(e)
