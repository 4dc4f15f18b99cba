# build_searched_strategy and merge_sliced_parameter: a JSON strategy file (the form strategy_ckpt_config
# saves with a .json name) read into per-parameter layouts, the slices of 8 ranks merged back into the
# whole parameter by device matrix and tensor map (rows over one axis, columns over another, repeated
# over a third), along axis 0 without a strategy, float16 and bfloat16 slices, and the argument checks.
import json
import os
import tempfile

import numpy as np
import mindspore as ms
from mindspore.parallel._tensor import _load_tensor

work = tempfile.mkdtemp()
path = os.path.join(work, "strategy.json")
layouts = {
    "w": {"dev_matrix": [2, 2, 2], "tensor_map": [2, 0], "field": 0, "opt_weight_shard_step": 0,
          "opt_weight_shard_size": 0},
    "v": {"dev_matrix": [8], "tensor_map": [-1, 0], "field": 0, "opt_weight_shard_step": 0,
          "opt_weight_shard_size": 0},
}
with open(path, "w") as f:
    json.dump({"current_stage": 0, "parallel_layout_item": layouts}, f)
strategy = ms.build_searched_strategy(path)
for name in sorted(strategy):
    layout = strategy[name]
    print(name, list(layout.dev_matrix[0].dim), list(layout.tensor_map[0].dim), list(layout.param_split_shape[0].dim),
          layout.field, layout.opt_weight_shard_step, layout.opt_weight_shard_size)

whole = {"w": np.arange(48, dtype=np.float32).reshape(8, 6), "v": np.arange(32, dtype=np.float16).reshape(2, 16)}
for name, data in whole.items():
    dev, tmap = layouts[name]["dev_matrix"], layouts[name]["tensor_map"]
    slices = [ms.Parameter(ms.Tensor(_load_tensor(ms.Tensor(data), dev, tmap, rank_id=r)), name=name)
              for r in range(8)]
    merged = ms.merge_sliced_parameter(slices, strategy)
    print(name, merged.name, merged.shape, merged.dtype, merged.asnumpy().tolist() == data.tolist())
rows = [ms.Parameter(ms.Tensor(np.full((2, 3), r, np.float32), ms.bfloat16), name="e") for r in range(3)]
merged = ms.parallel.merge_sliced_parameter(rows)
print(merged.name, merged.shape, merged.dtype, merged.asnumpy()[:, 0].tolist(), merged.requires_grad)

for bad in [lambda: ms.build_searched_strategy(3),
            lambda: ms.build_searched_strategy(os.path.join(work, "none.ckpt")),
            lambda: ms.merge_sliced_parameter((1, 2)),
            lambda: ms.merge_sliced_parameter([]),
            lambda: ms.merge_sliced_parameter(rows, strategy=[1]),
            lambda: ms.merge_sliced_parameter(rows + [ms.Parameter(ms.Tensor(np.zeros((2, 4), np.float32)), name="e")]),
            lambda: ms.merge_sliced_parameter(rows, strategy),
            lambda: ms.merge_sliced_parameter(rows[:2], {"e": strategy["w"]})]:
    try:
        bad()
        print("no error")
    except Exception as e:  # pylint: disable=broad-except
        print(type(e).__name__, str(e).replace(work, "<work>"))
open(os.path.join(work, "empty.ckpt"), "w").close()
try:
    ms.build_searched_strategy(os.path.join(work, "empty.ckpt"))
except ValueError as e:
    print("ValueError", str(e).replace(work, "<work>"))
