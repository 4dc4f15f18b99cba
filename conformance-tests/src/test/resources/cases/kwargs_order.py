# kwargs are applied in the order given; the first failing key raises and the earlier keys
# stay applied (no rollback); later keys are not applied.
import mindspore as ms
from _case_util import get, try_set


try_set(device_num=8, parallel_mode="bad_mode", global_rank=5)
get("device_num")
get("parallel_mode")
get("global_rank")
try_set(gradients_mean=True, pipeline_stages=0, enable_alltoall=True)
get("gradients_mean")
get("pipeline_stages")
get("enable_alltoall")
# the decorator type check runs before any key is applied
try_set(global_rank=2, device_num="8")
get("global_rank")
get("device_num")
# inner-only type check (grad_accumulation_step) also runs before any key is applied
try_set(global_rank=3, grad_accumulation_step="1")
get("global_rank")
try_set(all_reduce_fusion_config=[1, 2], comm_fusion={"bad": 1}, full_batch=True)
get("all_reduce_fusion_config")
get("full_batch")
