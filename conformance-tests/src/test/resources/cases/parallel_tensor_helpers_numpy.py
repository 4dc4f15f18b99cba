# mindspore.parallel._tensor, the private slicing helpers MindSpore's tests and checkpoint scripts
# import: strategies (multi-axis dims too), coordinates (floats, as MindSpore's), slice indices,
# cutting a whole tensor into a rank's slice, joining gathered slices, slice shapes, error texts.
import numpy as np
import mindspore as ms
from mindspore.parallel import _tensor as t

print(t._get_tensor_strategy([2, 4], [1, -1]), t._get_tensor_strategy([2, 2, 2], [[1, 2], -1]),
      t._get_tensor_strategy([2, 2, 2], [(0, -1), 2]))
print(t._rank_to_coordinate(5, [2, 4]), t._coordinate_to_rank([1, 1], [2, 4]))
for rank in range(8):
    print(rank, t._get_tensor_slice_index([2, 4], [2, 1], [1, -1], rank),
          t._get_tensor_slice_index([2, 2, 2], [2, 2], [0, 2], rank))
whole = ms.Tensor(np.arange(48, dtype=np.float32).reshape(8, 6))
print(t._load_tensor(whole, [2, 4], [1, -1], rank_id=5))
print(t._load_tensor(whole, [2, 2, 2], [0, 2], [8, 6], rank_id=3))
print([p.shape for p in t._chunk_tensor_by_strategy(np.zeros((4, 6)), [2, 3])])
layout = ([2, 4], [0, 1], [2, 3], 0, True, '', [8, 6])
piece = t._load_tensor_by_layout(whole, layout, 6)
print(piece.dtype, piece.shape, piece)
print(t._load_tensor_shape([2, 4], [0, 1], [8, 6], 6), t._count_tensor_shape([2, 4], [0, 1], [8, 6], 6))
print(t._load_tensor_shape_by_layout(whole, ([2, 4], [0, 1], [], 0, True, '', [8, 6]), 6))
# The gathered slices of every device stacked along axis 0, joined back.
dev_mat, tensor_map = [2, 4], [0, 1]
gathered = np.concatenate([t._load_tensor(whole, dev_mat, tensor_map, rank_id=r) for r in range(8)], axis=0)
print(t._reshape_param_data(ms.Tensor(gathered), dev_mat, tensor_map).asnumpy().tolist() == whole.asnumpy().tolist())
print(t._reshape_param_data_with_weight(ms.Tensor(np.arange(24, dtype=np.float32).reshape(12, 2)), [2, 2], 3))
for bad in [lambda: t._chunk_tensor_by_strategy([1, 2], [1]),
            lambda: t._chunk_tensor_by_strategy(np.zeros((4, 6)), [2]),
            lambda: t._chunk_tensor_by_strategy(np.zeros((4, 6)), [3, 1]),
            lambda: t._load_tensor_by_layout(whole, [[2, 4], [0, 1]], 0),
            lambda: t._load_tensor_by_layout(whole, ([2, 4], [0, 1]), 0),
            lambda: t._load_tensor_by_layout(whole, ([2, 4], [0, 1], [2, 3], 0, 0, '', [8, 6]), 0)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
