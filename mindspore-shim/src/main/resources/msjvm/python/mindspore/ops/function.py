"""Functional forms of the operators (``mindspore.ops.add``, ``mindspore.ops.sum`` ...)."""
from mindspore.ops import operations as P

_ADD, _SUB, _MUL, _DIV = P.Add(), P.Sub(), P.Mul(), P.Div()
_MAXIMUM, _MINIMUM, _POW = P.Maximum(), P.Minimum(), P.Pow()
_NEG, _ABS, _EXP, _LOG, _SQRT, _SQUARE = P.Neg(), P.Abs(), P.Exp(), P.Log(), P.Sqrt(), P.Square()
_RELU, _SIGMOID, _TANH = P.ReLU(), P.Sigmoid(), P.Tanh()
_MATMUL = P.MatMul()


def add(input, other):  # pylint: disable=redefined-builtin
    return _ADD(input, other)


def sub(input, other):  # pylint: disable=redefined-builtin
    return _SUB(input, other)


def mul(input, other):  # pylint: disable=redefined-builtin
    return _MUL(input, other)


def div(input, other):  # pylint: disable=redefined-builtin
    return _DIV(input, other)


def maximum(input, other):  # pylint: disable=redefined-builtin
    return _MAXIMUM(input, other)


def minimum(input, other):  # pylint: disable=redefined-builtin
    return _MINIMUM(input, other)


def pow(input, exponent):  # pylint: disable=redefined-builtin
    return _POW(input, exponent)


def neg(input):  # pylint: disable=redefined-builtin
    return _NEG(input)


def abs(input):  # pylint: disable=redefined-builtin
    return _ABS(input)


def exp(input):  # pylint: disable=redefined-builtin
    return _EXP(input)


def log(input):  # pylint: disable=redefined-builtin
    return _LOG(input)


def sqrt(input):  # pylint: disable=redefined-builtin
    return _SQRT(input)


def square(input):  # pylint: disable=redefined-builtin
    return _SQUARE(input)


def relu(input):  # pylint: disable=redefined-builtin
    return _RELU(input)


def sigmoid(input):  # pylint: disable=redefined-builtin
    return _SIGMOID(input)


def tanh(input):  # pylint: disable=redefined-builtin
    return _TANH(input)


def matmul(input, other):  # pylint: disable=redefined-builtin
    return _MATMUL(input, other)


def softmax(input, axis=-1, *, dtype=None):  # pylint: disable=redefined-builtin
    """Softmax along ``axis`` (after casting to ``dtype`` when given)."""
    if dtype is not None:
        input = input.astype(dtype)
    return P.Softmax(axis)(input)


def log_softmax(input, axis=-1):  # pylint: disable=redefined-builtin
    """Log-softmax along ``axis``."""
    return P.LogSoftmax(axis)(input)


def _dim_list(dim):
    return [] if dim is None else [dim] if isinstance(dim, int) else list(dim)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # pylint: disable=redefined-builtin
    """Sum over ``dim`` (None: all); integer and bool inputs sum as int64 (MindSpore's SumExt)."""
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if dtype is not None:
        input = input.astype(dtype)
    elif input.dtype == mstype.bool_ or input.dtype in mstype.int_type + mstype.uint_type:
        input = input.astype(mstype.int64)
    return P._reduce("ReduceSum", "SumExt", input, _dim_list(dim), keepdim)  # pylint: disable=protected-access


def mean(input, axis=None, keep_dims=False):  # pylint: disable=redefined-builtin
    """Mean over ``axis`` (None: all); integer inputs keep their type."""
    return P._reduce("ReduceMean", "ReduceMean", input, _dim_list(axis), keep_dims)  # pylint: disable=protected-access
