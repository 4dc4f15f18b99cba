"""Functional forms of the elementwise operators (``mindspore.ops.add`` ...)."""
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
