# parallel_optimizer_config validation.
import mindspore as ms
from _case_util import get, try_set


try_set(parallel_optimizer_config=[1])
try_set(parallel_optimizer_config={"unknown": 1})
try_set(parallel_optimizer_config={"gradient_accumulation_shard": 1})
try_set(parallel_optimizer_config={"parallel_optimizer_threshold": -1})
try_set(parallel_optimizer_config={"parallel_optimizer_threshold": 1.5})
try_set(parallel_optimizer_config={"parallel_optimizer_threshold": 0})
try_set(parallel_optimizer_config={"optimizer_weight_shard_size": 0})
try_set(parallel_optimizer_config={"optimizer_weight_shard_size": 2})
get("optimizer_weight_shard_size")
try_set(parallel_optimizer_config={"optimizer_weight_shard_size": -1})
get("optimizer_weight_shard_size")
try_set(parallel_optimizer_config={"optimizer_level": "level4"})
try_set(parallel_optimizer_config={"gradient_accumulation_shard": True, "optimizer_level": "level1"})
try_set(parallel_optimizer_config={"gradient_accumulation_shard": True, "optimizer_level": "level2"})
try_set(parallel_optimizer_config={"optimizer_level": "level3"})
try_set(parallel_optimizer_config={})
get("parallel_optimizer_config")
