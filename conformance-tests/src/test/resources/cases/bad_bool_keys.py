# Bool-typed keys given non-bool values (and the accepted bool values).
import mindspore as ms
from _case_util import get, try_set


BOOL_KEYS = ["gradients_mean", "gradient_fp32_sync", "loss_repeated_mean", "parameter_broadcast", "full_batch",
             "enable_parallel_optimizer", "enable_alltoall", "force_fp32_communication",
             "pipeline_result_broadcast", "auto_pipeline", "optimizer_weight_shard_aggregated_save",
             "sharding_propagation"]
for k in BOOL_KEYS:
    try_set(**{k: 1})
    try_set(**{k: "True"})
    try_set(**{k: True})
    get(k)
    try_set(**{k: False})
    get(k)
