# Tensor construction from Python data: inferred dtype and shape, casts, tolist/item, errors.
# (No bfloat16 tolist here: MindSpore 2.10 crashes with a segmentation fault on it.)
import mindspore as ms
from mindspore import Tensor
from _case_util import show


def build(label, fn):
    try:
        t = fn()
        print(f"{label} -> shape {t.shape} dtype {t.dtype} ndim {t.ndim} size {t.size} values {t.tolist()!r}")
    except Exception as e:  # pylint: disable=broad-except
        print(f"{label} -> ", end="")
        show(e)


build("Tensor(2)", lambda: Tensor(2))
build("Tensor(2.5)", lambda: Tensor(2.5))
build("Tensor(True)", lambda: Tensor(True))
build("Tensor([])", lambda: Tensor([]))
build("Tensor([1, 2, 3])", lambda: Tensor([1, 2, 3]))
build("Tensor((1, 2))", lambda: Tensor((1, 2)))
build("Tensor([True, False])", lambda: Tensor([True, False]))
build("Tensor([True, 2])", lambda: Tensor([True, 2]))
build("Tensor([1, 2.5])", lambda: Tensor([1, 2.5]))
build("Tensor([[1, 2], [3, 4]])", lambda: Tensor([[1, 2], [3, 4]]))
build("Tensor([[[1.5]], [[2.5]]])", lambda: Tensor([[[1.5]], [[2.5]]]))
build("Tensor([1.7, -1.7], int32)", lambda: Tensor([1.7, -1.7], ms.int32))
build("Tensor([300, -1], uint8)", lambda: Tensor([300, -1], ms.uint8))
build("Tensor([0.1], float16)", lambda: Tensor([0.1], ms.float16))
build("Tensor([0.1], float32)", lambda: Tensor([0.1], ms.float32))
build("Tensor([0.1], float64)", lambda: Tensor([0.1], ms.float64))
build("Tensor([0, 2], bool_)", lambda: Tensor([0, 2], ms.bool_))
build("Tensor(2**40)", lambda: Tensor(2**40))
build("Tensor(shape=(2, 3), dtype=float32)", lambda: Tensor(shape=(2, 3), dtype=ms.float32))
build("Tensor(Tensor([1, 2]), float32)", lambda: Tensor(Tensor([1, 2]), ms.float32))
build("Tensor([[1, 2], [3]])", lambda: Tensor([[1, 2], [3]]))
build("Tensor(None)", lambda: Tensor(None))
build("Tensor('abc')", lambda: Tensor('abc'))
build("Tensor([1], dtype=int)", lambda: Tensor([1], dtype=int))
build("Tensor(2**70)", lambda: Tensor(2**70))
t = Tensor([[1.5, 2.0], [3.0, 4.0]])
print("astype(int32)", t.astype(ms.int32).tolist(), t.astype(ms.int32).dtype)
print("len", len(t), "item", Tensor([[7]]).item(), "int", int(Tensor(3)), "float", float(Tensor(2.5)),
      "bool", bool(Tensor(False)))
print("dtypes", ms.float32, ms.dtype.float16, ms.bool_, ms.int64 == ms.dtype.int64, repr(ms.float32), [ms.int8])
try:
    Tensor([1, 2]).item()
except Exception as e:  # pylint: disable=broad-except
    show(e)
