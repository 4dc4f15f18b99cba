# ops.MatMul / ops.matmul / @ on 2-D tensors: transposes, dtypes, errors.
import mindspore as ms
from mindspore import Tensor, ops
from _case_util import attempt

a = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = Tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
cases = [
    ("MatMul()(a, b)", lambda: ops.MatMul()(a, b)),
    ("MatMul(transpose_a=True)(a, a)", lambda: ops.MatMul(transpose_a=True)(a, a)),
    ("MatMul(transpose_b=True)(a, a)", lambda: ops.MatMul(transpose_b=True)(a, a)),
    ("MatMul(True, True)(b, a)", lambda: ops.MatMul(True, True)(b, a)),
    ("matmul(a, b)", lambda: ops.matmul(a, b)),
    ("a @ b", lambda: a @ b),
    ("int32", lambda: ops.MatMul()(Tensor([[1, 2]], ms.int32), Tensor([[3], [4]], ms.int32))),
    ("float16", lambda: ops.MatMul()(Tensor([[1, 2]], ms.float16), Tensor([[3], [4]], ms.float16))),
    ("float64", lambda: ops.MatMul()(Tensor([[0.1, 0.2]], ms.float64), Tensor([[3.0], [4.0]], ms.float64))),
    ("shape mismatch", lambda: ops.MatMul()(a, a)),
    ("1-D input", lambda: ops.MatMul()(Tensor([1.0, 2.0]), Tensor([[3.0], [4.0]]))),
    ("mixed types", lambda: ops.MatMul()(Tensor([[1, 2]], ms.float32), Tensor([[3], [4]], ms.float16))),
]
for label, fn in cases:
    attempt(label, lambda fn=fn: (lambda r: (str(r.dtype), r.shape, r.tolist()))(fn()))
big = ops.MatMul()(Tensor([[float(i % 7) for i in range(64)] for _ in range(32)]),
                   Tensor([[float((i * j) % 5) for j in range(16)] for i in range(64)]))
print("32x64 @ 64x16", big.shape, big.dtype, big.tolist()[3][:4], float(big.tolist()[31][15]))
