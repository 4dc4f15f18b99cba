# Elementwise primitives and functional forms, run eagerly: result dtypes, values, errors.
import mindspore as ms
from mindspore import Tensor, ops
from _case_util import attempt, rounded

try:
    # MindSpore 2.10 fails the first primitive call with a Python scalar operand in a process
    # (a SystemError showing a memory address); later calls work. Warm it up silently.
    ops.Mul()(Tensor([1.0]), 1.0)
except SystemError:
    pass

i = Tensor([1, 2, -3], ms.int32)
f = Tensor([0.5, -1.5, 4.0])
h = Tensor([1.0, 2.0], ms.float16)
cases = [
    ("Add(i, i)", lambda: ops.Add()(i, i)), ("Add(i, 2)", lambda: ops.Add()(i, 2)), ("Add(2, i)", lambda: ops.Add()(2, i)),
    ("Sub(f, i)", lambda: ops.Sub()(f, i)), ("Mul(i, 2.5)", lambda: ops.Mul()(i, 2.5)), ("Div(i, 2)", lambda: ops.Div()(i, 2)),
    ("Maximum(i, f)", lambda: ops.Maximum()(i, f)), ("Minimum(f, 0.0)", lambda: ops.Minimum()(f, 0.0)),
    ("Pow(i, 2)", lambda: ops.Pow()(i, 2)), ("FloorDiv(i, 2)", lambda: ops.FloorDiv()(i, 2)),
    ("FloorMod(i, 2)", lambda: ops.FloorMod()(i, 2)), ("Equal(i, 2)", lambda: ops.Equal()(i, 2)),
    ("Less(f, i)", lambda: ops.Less()(f, i)), ("GreaterEqual(i, i)", lambda: ops.GreaterEqual()(i, i)),
    ("Neg(i)", lambda: ops.Neg()(i)), ("Abs(f)", lambda: ops.Abs()(f)), ("Sqrt(Tensor([4, 9]))", lambda: ops.Sqrt()(Tensor([4, 9]))),
    ("Square(i)", lambda: ops.Square()(i)), ("ReLU(i)", lambda: ops.ReLU()(i)), ("ReLU(f)", lambda: ops.ReLU()(f)),
    ("Exp(Tensor([0.0, 1.0]))", lambda: ops.Exp()(Tensor([0.0, 1.0]))), ("Log(Tensor([1.0]))", lambda: ops.Log()(Tensor([1.0]))),
    ("Sigmoid(Tensor([0.0]))", lambda: ops.Sigmoid()(Tensor([0.0]))), ("Tanh(Tensor([0.0]))", lambda: ops.Tanh()(Tensor([0.0]))),
    ("Add(h, h)", lambda: ops.Add()(h, h)), ("Mul(h, f[:2]-like)", lambda: ops.Mul()(h, Tensor([2.0, 3.0]))),
    ("add(f, 1)", lambda: ops.add(f, 1)), ("sub(1, f)", lambda: ops.sub(1, f)), ("mul(i, i)", lambda: ops.mul(i, i)),
    ("div(i, i)", lambda: ops.div(i, i)), ("maximum(i, 0)", lambda: ops.maximum(i, 0)), ("relu(f)", lambda: ops.relu(f)),
    ("neg(f)", lambda: ops.neg(f)), ("abs(i)", lambda: ops.abs(i)), ("square(f)", lambda: ops.square(f)),
    ("Add broadcast", lambda: ops.Add()(Tensor([[1.0], [2.0]]), Tensor([10.0, 20.0, 30.0]))),
    ("Neg()(1)", lambda: ops.Neg()(1)), ("Add()(t, 'a')", lambda: ops.Add()(Tensor([1]), 'a')),
]


# Floats are compared to 5 significant digits (MindSpore's CPU Exp/Log/Tanh differ in the last float32 bits).


for label, fn in cases:
    attempt(label, lambda fn=fn: (lambda r: (str(r.dtype), rounded(r.tolist())))(fn()))
