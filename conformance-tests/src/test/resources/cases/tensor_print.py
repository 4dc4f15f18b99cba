# print(tensor) and repr(tensor) for common dtypes, ranks and magnitudes.
import mindspore as ms
from mindspore import Tensor

for t in [Tensor([1, 2, 3]), Tensor([[1.5, 2], [3, 4]]), Tensor(True), Tensor(2.5), Tensor(7),
          Tensor([[0.001, 1e6], [-3, 0]]), Tensor([1, 2], ms.float16), Tensor([[True, False]]),
          Tensor([1.0, 2.0, 3.0]), Tensor([[1, -20], [300, 4]], ms.int32), Tensor([0.1, 0.25], ms.float64),
          Tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]), Tensor([]), Tensor(shape=(2, 0), dtype=ms.float32),
          Tensor([float(i) / 7 for i in range(30)]), Tensor([[i * 1.5 for i in range(8)] for _ in range(8)])]:
    print(t)
    print(repr(t))
