# Bad input to the compute core gets MindSpore's exception classes and texts: MatMul shape and
# dtype mismatches, an unknown primitive attribute, a Parameter name clash, reassigning a
# Parameter attribute, and broadcasting shape errors.
import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from _case_util import attempt

a = Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = Tensor([[1.0, 2.0], [3.0, 4.0]])
attempt("matmul shapes", lambda: ops.MatMul()(a, b).tolist())
attempt("matmul dtypes", lambda: ops.MatMul()(b, Tensor([[1, 2], [3, 4]], ms.int32)).tolist())
attempt("matmul rank", lambda: ops.MatMul()(Tensor([1.0, 2.0]), b).tolist())
attempt("unknown attribute", lambda: ops.MatMul().no_such_attr)
attempt("add shapes", lambda: (a + b).tolist())
attempt("dense input", lambda: nn.Dense(3, 2)(b).tolist())


class Clash(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ws = [Parameter(Tensor([1.0]), name="w"), Parameter(Tensor([2.0]), name="w")]


attempt("name clash", lambda: Clash() and None)


class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([1.0, 2.0]), name="w")


h = Holder()
attempt("assign int to parameter", lambda: setattr(h, "w", 3))
h.w = Tensor([5.0, 6.0])
print("assign tensor ->", h.w.name, h.w.tolist())
attempt("ParameterTuple clash",
        lambda: ms.ParameterTuple([Parameter(Tensor([1.0]), name="p"), Parameter(Tensor([2.0]), name="p")]) and None)
attempt("softmax int", lambda: ops.Softmax()(Tensor([1, 2], ms.int32)).tolist())
attempt("reshape", lambda: a.reshape((4, 2)).tolist())
