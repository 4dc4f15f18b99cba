# Tensors from numpy arrays keep their numpy type; asnumpy gives numpy arrays back.
import numpy as np
import mindspore as ms
from mindspore import Tensor

for arr in [np.array([1.5, 2.5]), np.array([1, 2], np.int32), np.arange(6, dtype=np.float32).reshape(2, 3),
            np.array([True, False]), np.array([[1, 2]], np.int8), np.array([0.1], np.float16),
            np.array(3.0), np.zeros((2, 0), np.float32)]:
    t = Tensor(arr)
    print(t.shape, t.dtype, t.tolist())
t = Tensor(np.array([1.9, -1.9]), ms.int32)
print("cast", t.dtype, t.tolist())
back = Tensor([[1.5, 2.0]]).asnumpy()
print(type(back).__name__, back.dtype, back.shape, back.tolist())
print(Tensor(np.array([1, 2], np.int64)).asnumpy().dtype, Tensor([True]).asnumpy().dtype)
