# Tensor.argmax/argmin and ops.argmax/argmin (MindSpore 2.10: argmax int64 with dim/keepdim,
# argmin int32 with axis/keepdims; None flattens; a 0-d input gives 0; bool argmax counts as int32).
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

t = Tensor(np.array([[1, 5, 2], [7, 0, 3]], np.float32))
for r in (t.argmax(), t.argmax(axis=1), t.argmax(1, keepdims=True), t.argmax(dim=0, keepdim=True),
          t.argmin(), t.argmin(axis=1, keepdims=True), ops.argmin(t, 0), ops.argmax(t, 1, True),
          ops.argmax(Tensor(2.0)), ops.argmin(Tensor(np.array([3, 1, 2, 1], np.int32))),
          ops.argmax(Tensor(np.array([[True, False], [False, True]])), 1),
          Tensor(np.array([[2, 9], [9, 2]], np.int64)).argmax(axis=-1)):
    print(repr(r))
try:
    ops.argmax(t, 1, 1)
except TypeError as e:
    print("TypeError", e)
