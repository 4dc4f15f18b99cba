# dataset_strategy validation (string and tuple forms).
import mindspore as ms
from _case_util import get, try_set


for v in ["full_batch", "data_parallel", "model_parallel", ((1, 8), (1, 8)), ((2, 1),), [[1, 8]], ((1, 8), [1, 8]),
          ((1, 8.0),), 8, ()]:
    try_set(dataset_strategy=v)
    get("dataset_strategy")
    get("full_batch")
