"""``mindspore.ops.function.math_func``: MindSpore 2.10's math functions composed of engine operators.

Each function follows MindSpore's definition in ``ops/function/math_func.py`` (the same composition
where MindSpore composes, its checks and texts), so its gradient and sharding come from the operators
it is made of. Complex tensors come out of ``polar`` and are read by ``real``/``imag``/``isreal``;
gradients through them are not supported yet.
"""
import math

from mindspore.ops import operations as P
from mindspore.ops.operations import _math_extra_ops as X

__all__ = ["addmv", "addr", "argmax", "argmin", "atleast_1d", "atleast_2d", "atleast_3d", "baddbmm", "block_diag", "cartesian_prod",
           "combinations", "copysign", "cumsum", "deg2rad", "diag", "diff", "digamma", "dist", "dstack", "exp2",
           "fmax", "fmin", "frac", "gcd", "hann_window", "heaviside", "hypot", "igamma", "igammac",
           "inplace_index_add", "isfinite", "isinf", "isnan", "isreal", "kaiser_window", "kron", "lcm", "ldexp",
           "lgamma", "log10", "log1p", "log2", "logaddexp", "logaddexp2", "mv", "nansum", "orgqr", "outer",
           "polar", "rad2deg", "real", "imag", "is_complex", "reciprocal", "remainder", "rot90", "rsqrt", "sign", "sin", "cos", "floor",
           "ceil", "round", "trunc", "erfc", "expm1", "trapz", "vstack", "zeta"]


def _tensor():
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor


def _mstype():
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    return mstype


def _check_tensor(name, value, prim):
    if not isinstance(value, _tensor()):
        raise TypeError(f"For {prim}, the input {name} must be a Tensor, but got {type(value)}.")


def _is_float(dtype):
    return dtype in _mstype().float_type


# ---- elementwise functions of the new primitives ----
def floor(input):  # pylint: disable=redefined-builtin
    return X.Floor()(input)


def ceil(input):  # pylint: disable=redefined-builtin
    return X.Ceil()(input)


def round(input, *, decimals=0):  # pylint: disable=redefined-builtin
    return X.Round()(input, decimals)


def trunc(input):  # pylint: disable=redefined-builtin
    return X.Trunc()(input)


def sign(input):  # pylint: disable=redefined-builtin
    return X.Sign()(input)


def log1p(input):  # pylint: disable=redefined-builtin
    return X.Log1p()(input)


def expm1(input):  # pylint: disable=redefined-builtin
    return X.Expm1()(input)


def erfc(input):  # pylint: disable=redefined-builtin
    return X.Erfc()(input)


def sin(input):  # pylint: disable=redefined-builtin
    return X.Sin()(input)


def cos(input):  # pylint: disable=redefined-builtin
    return X.Cos()(input)


def reciprocal(input):  # pylint: disable=redefined-builtin
    return X.Reciprocal()(input)


def rsqrt(input):  # pylint: disable=redefined-builtin
    return X.Rsqrt()(input)


def isnan(input):  # pylint: disable=redefined-builtin
    return X.IsNan()(input)


def isinf(input):  # pylint: disable=redefined-builtin
    return X.IsInf()(input)


def isfinite(input):  # pylint: disable=redefined-builtin
    return X.IsFinite()(input)


def lgamma(input):  # pylint: disable=redefined-builtin
    return X.Lgamma()(input)


def digamma(input):  # pylint: disable=redefined-builtin
    return X.Digamma()(input)


def igamma(input, other):  # pylint: disable=redefined-builtin
    return X.Igamma()(input, other)


def igammac(input, other):  # pylint: disable=redefined-builtin
    return X.Igammac()(input, other)


def zeta(input, other):  # pylint: disable=redefined-builtin
    """Hurwitz zeta; a Python number ``input`` or ``other`` becomes a tensor of the other's type."""
    tensor = _tensor()
    if not isinstance(input, tensor):
        input = tensor(input, other.dtype)
    if not isinstance(other, tensor):
        other = tensor(other, input.dtype)
    return X.Zeta()(input, other)


def gcd(input, other):  # pylint: disable=redefined-builtin
    return X.Gcd()(input, other)


def lcm(input, other):  # pylint: disable=redefined-builtin
    return X.Lcm()(input, other)


def cumsum(x, axis, dtype=None):
    if dtype is not None and x.dtype != dtype:
        x = P.Cast()(x, dtype)
    return X.CumSum()(x, axis)


def diag(input):  # pylint: disable=redefined-builtin
    return X.Diag()(input)


# ---- compositions ----
def _ignoring_nan(pick, input, other):  # pylint: disable=redefined-builtin
    """``pick(input, other)`` where neither is NaN, the other one where one is (NaN where both are)."""
    m = pick(input, other)
    m = P.Select()(X.IsNan()(input), P.Add()(other, P.ZerosLike()(m)), m)
    return P.Select()(X.IsNan()(other), P.Add()(input, P.ZerosLike()(m)), m)


def fmax(input, other):  # pylint: disable=redefined-builtin
    """The maximum, ignoring a NaN on either side (NaN only where both are)."""
    return _ignoring_nan(P.Maximum(), input, other)


def fmin(input, other):  # pylint: disable=redefined-builtin
    """The minimum, ignoring a NaN on either side (NaN only where both are)."""
    return _ignoring_nan(P.Minimum(), input, other)


def hypot(input, other):  # pylint: disable=redefined-builtin
    """sqrt(input^2 + other^2), elementwise with broadcasting (float inputs)."""
    for name, value in (("input", input), ("other", other)):
        _check_tensor(name, value, "hypot")
        if not _is_float(value.dtype):
            raise TypeError(f"For 'Hypot', the type of '{name}' must be float32 or float64, "
                            f"but got {value.dtype}.")
    return P.Sqrt()(P.Add()(P.Square()(input), P.Square()(other)))


def heaviside(input, values):  # pylint: disable=redefined-builtin
    """0 where input < 0, ``values`` where input == 0, 1 where input > 0."""
    _check_tensor("input", input, "heaviside")
    _check_tensor("values", values, "heaviside")
    if input.dtype != values.dtype:
        raise TypeError(f"For 'Heaviside', the dtype of 'input' and 'values' must be the same, "
                        f"but got {input.dtype} and {values.dtype}.")
    zeros = P.ZerosLike()(input + values)
    x = input + zeros
    return P.Select()(P.Equal()(x, zeros), values + zeros, P.Cast()(P.Greater()(x, zeros), input.dtype))


def ldexp(x, other):
    """x * 2**other."""
    return P.Mul()(x, P.Pow()(_tensor()(2.0, _mstype().float32), other))


def exp2(input):  # pylint: disable=redefined-builtin
    """2**input (2 as float16 for a float16 input, float32 otherwise)."""
    mstype = _mstype()
    two = _tensor()(2.0, mstype.float16 if input.dtype == mstype.float16 else mstype.float32)
    return P.Pow()(two, input)


def _log_base(input, base):
    mstype = _mstype()
    if isinstance(input, _tensor()) and input.dtype == mstype.bool_:
        input = input.astype(mstype.int64)
    dtype = input.dtype if _is_float(input.dtype) else mstype.float32
    return P.Div()(P.Log()(input if _is_float(input.dtype) else input.astype(dtype)),
                   P.Log()(_tensor()(float(base), dtype)))


def log2(input):  # pylint: disable=redefined-builtin
    return _log_base(input, 2)


def log10(input):  # pylint: disable=redefined-builtin
    return _log_base(input, 10)


def _check_float_x(x, prim):
    if not isinstance(x, _tensor()):
        raise TypeError("The input x must be tensor")
    if not _is_float(x.dtype) or x.dtype == _mstype().bfloat16:
        raise TypeError(f"For '{prim}', the 'x' must be a tensor of float16, float32 or float64, but got {x.dtype}.")


def deg2rad(x):
    _check_float_x(x, "deg2rad")
    return x * (math.pi / 180.0)


def rad2deg(x):
    _check_float_x(x, "rad2deg")
    return x * (180.0 / math.pi)


def frac(x):
    """x minus its integer part toward zero (the sign of x)."""
    return P.Sub()(x, X.Trunc()(x))


def remainder(input, other):  # pylint: disable=redefined-builtin
    """input - floor(input / other) * other (Python's %)."""
    return input - P.FloorDiv()(input, other) * other


def logaddexp(input, other):  # pylint: disable=redefined-builtin
    """log(exp(input) + exp(other)), computed stably."""
    for name, value in (("input", input), ("other", other)):
        if not isinstance(value, _tensor()):
            raise TypeError(f"For logaddexp, the {name} must be a Tensor, but got {type(value)}.")
    if not _is_float(input.dtype) or not _is_float(other.dtype):
        raise TypeError(f"For logaddexp, the dtype of 'input' and 'other' must be float,"
                        f"but got {input.dtype} and {other.dtype}.")
    m = P.Maximum()(input, other)
    return m + X.Log1p()(P.Exp()(P.Neg()(P.Abs()(input - other))))


def logaddexp2(input, other):  # pylint: disable=redefined-builtin
    """log2(2**input + 2**other), computed stably."""
    _check_tensor("input", input, "logaddexp2")
    _check_tensor("other", other, "logaddexp2")
    if not _is_float(input.dtype) or not _is_float(other.dtype):
        raise TypeError(f"For logaddexp2, the dtype of 'input' and 'other' must be float,"
                        f"but got {input.dtype} and {other.dtype}.")
    m = P.Maximum()(input, other)
    diff = P.Neg()(P.Abs()(input - other))
    two = _tensor()(2.0, diff.dtype)
    return m + log2(P.Pow()(two, diff) + 1.0)


def copysign(x, other):
    """|x| with the sign of ``other`` (negative where other < 0); integers give float32."""
    mstype = _mstype()
    tensor = _tensor()
    if not isinstance(x, tensor):
        raise TypeError("Tensor is expected, but got " + f"{type(x)}")
    if not isinstance(other, (int, float, tensor)) or isinstance(other, bool):
        raise TypeError("integer, float or Tensor is expected, but got " + f"{type(other)}")
    if x.dtype == mstype.bool_:
        raise TypeError("copysign does not accept dtype bool.")
    if not isinstance(other, tensor):
        other = tensor(other)
    other = X.BroadcastTo(tuple(x.shape))(other) if tuple(other.shape) != tuple(x.shape) else other
    x_float = x if _is_float(x.dtype) else x.astype(mstype.float32)
    pos = P.Abs()(x_float)
    return P.Select()(P.Less()(other, P.ZerosLike()(other)), P.Neg()(pos), pos)


def outer(input, vec2):  # pylint: disable=redefined-builtin
    tensor = _tensor()
    if not isinstance(input, tensor):
        raise TypeError("the input input must be Tensor!")
    if not isinstance(vec2, tensor):
        raise TypeError("the input vec2 must be Tensor!")
    return P.Mul()(P.Reshape()(input, (-1, 1)), vec2)


def mv(mat, vec):
    tensor = _tensor()
    if not isinstance(mat, tensor):
        raise TypeError("The input mat must be Tensor.")
    if not isinstance(vec, tensor):
        raise TypeError("The input vec must be Tensor.")
    return P.Reshape()(P.MatMul()(mat, P.Reshape()(vec, (vec.shape[0], 1))), (mat.shape[0],))


_ADD_TYPES = ("Float16", "Float32", "Float64", "Int16", "Int32", "Int64")


def _check_add_inputs(prim, names, x, a, b, alpha, beta):
    if not all(isinstance(t, _tensor()) for t in (x, a, b)):
        raise TypeError(f"For {prim}, inputs must be all tensors.")
    if a.dtype != b.dtype:
        raise TypeError(f"For {prim}, the {names[0]} and {names[1]} should be the same dtype.")
    if str(x.dtype) not in _ADD_TYPES:
        raise TypeError(f"For '{prim}', the input '{names[2]}' should be one of "
                        f"[float16, float32, float64, int16, int32, int64], but got {x.dtype}.")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, (int, float, bool)):
            raise TypeError(f"For '{prim}', the type of '{name}' should be int, float or bool, "
                            f"but got {type(value).__name__}.")
    if str(x.dtype).startswith("Int"):
        return int(alpha), int(beta)
    return alpha, beta


def addmv(input, mat, vec, *, beta=1, alpha=1):  # pylint: disable=redefined-builtin
    """beta * input + alpha * (mat @ vec)."""
    alpha, beta = _check_add_inputs("Addmv", ("mat", "vec", "input"), input, mat, vec, alpha, beta)
    return beta * input + alpha * mv(mat, vec)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """beta * x + alpha * outer(vec1, vec2)."""
    alpha, beta = _check_add_inputs("Addr", ("vec1", "vec2", "x"), x, vec1, vec2, alpha, beta)
    product = P.MatMul()(P.Reshape()(vec1, (vec1.shape[0], 1)), P.Reshape()(vec2, (1, vec2.shape[0])))
    return beta * x + alpha * product


def baddbmm(input, batch1, batch2, beta=1, alpha=1):  # pylint: disable=redefined-builtin
    """beta * input + alpha * (batch1 @ batch2), batched."""
    tensor = _tensor()
    if not (isinstance(input, tensor) and isinstance(batch1, tensor) and isinstance(batch2, tensor)):
        raise TypeError("For Baddbmm, inputs must be all tensors.")
    if not input.dtype == batch1.dtype == batch2.dtype:
        raise TypeError("For Baddbmm, the inputs should be the same dtype.")
    if _is_float(input.dtype):
        if not (isinstance(alpha, (int, float)) and isinstance(beta, (int, float))):
            raise TypeError("For attributes alpha and beta should be real numbers.")
    elif not (isinstance(alpha, int) and isinstance(beta, int)):
        raise TypeError("For inputs of type not FloatTensor or DoubleTensor, "
                        "arguments beta and alpha must be integers.")
    return beta * input + alpha * P.BatchMatMul()(batch1, batch2)


def kron(input, other):  # pylint: disable=redefined-builtin
    """The Kronecker product: block (i, j) is input[i, j] * other."""
    tensor = _tensor()
    if not isinstance(input, tensor):
        raise TypeError("the input must be Tensor!")
    if not isinstance(other, tensor):
        raise TypeError("the other must be Tensor!")
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    maxdim = max(input.ndim, other.ndim)
    xs = [1] * (maxdim - input.ndim) + list(input.shape)
    ys = [1] * (maxdim - other.ndim) + list(other.shape)
    x = P.Reshape()(input, tuple(v for d in xs for v in (d, 1)))
    y = P.Reshape()(other, tuple(v for d in ys for v in (1, d)))
    return P.Reshape()(x * y, tuple(a * b for a, b in zip(xs, ys)))


def _expand(x, ndim):
    while x.ndim < ndim:
        x = P.ExpandDims()(x, 0)
    return x


def atleast_1d(inputs):
    tensor = _tensor()
    if isinstance(inputs, tensor):
        return _expand(inputs, 1)
    for t in inputs:
        if not isinstance(t, tensor):
            raise TypeError(f"For 'atleast_1d', each element of 'inputs' must be a tensor, but got {type(t)}")
    return tuple(_expand(t, 1) for t in inputs)


def atleast_2d(inputs):
    tensor = _tensor()
    if isinstance(inputs, tensor):
        return _expand(inputs, 2)
    for t in inputs:
        if not isinstance(t, tensor):
            raise TypeError("expect Tensor or list of tensors, but got " + f"{type(t)}")
    return tuple(_expand(t, 2) for t in inputs)


def _expand3(x):
    if x.ndim == 0:
        return P.Reshape()(x, (1, 1, 1))
    if x.ndim == 1:
        return P.Reshape()(x, (1, x.size, 1))
    if x.ndim == 2:
        return P.Reshape()(x, tuple(x.shape) + (1,))
    return x


def atleast_3d(inputs):
    tensor = _tensor()
    if isinstance(inputs, tensor):
        return _expand3(inputs)
    for t in inputs:
        if not isinstance(t, tensor):
            raise TypeError(f"For 'atleast_3d', each element of 'inputs' must be a tensor, but got {type(t)}")
    return tuple(_expand3(t) for t in inputs)


def vstack(inputs):
    """Concatenation along dimension 0 after making every input at least 2-D."""
    tensor = _tensor()
    if not isinstance(inputs, (tuple, list)):
        raise TypeError(f"For 'vstack', list or tuple of tensors are required, but got {type(inputs)}")
    if not inputs:
        raise TypeError("For 'vstack', inputs can not be empty")
    parts = []
    for t in inputs:
        if not isinstance(t, tensor):
            raise TypeError(f"For 'vstack', Tensor is required, but got {type(t)}")
        parts.append(P.Reshape()(t, (1,) * (2 - t.ndim) + tuple(t.shape)) if t.ndim <= 1 else t)
    return P.Concat(0)(tuple(parts))


def dstack(tensors):
    """Concatenation along dimension 2 after making every input at least 3-D."""
    tensor = _tensor()
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f"For 'dstack', 'tensors' must be list or tuple of tensors, but got {type(tensors)}")
    if not tensors:
        raise TypeError("For 'dstack', 'tensors' can not be empty.")
    parts = []
    for t in tensors:
        if not isinstance(t, tensor):
            raise TypeError(f"For 'dstack', each elements of 'tensors' must be Tensor, but got {type(t)}")
        if t.ndim == 0:
            t = P.Reshape()(t, (1, 1, 1))
        elif t.ndim == 1:
            t = P.Reshape()(t, (1, t.shape[0], 1))
        elif t.ndim == 2:
            t = P.ExpandDims()(t, 2)
        parts.append(t)
    return P.Concat(2)(tuple(parts))


def block_diag(*inputs):
    """A block-diagonal matrix of the inputs (each 0-, 1- or 2-D)."""
    tensor = _tensor()

    def to_2d(a):
        if not isinstance(a, tensor):
            raise TypeError(f"For 'block_diag', each element of 'inputs' must be a tensor, but got {type(a)}")
        if a.ndim > 2:
            raise ValueError("For 'block_diag', the dimension of each elements in 'inputs' must be 0, 1, or 2, "
                             f"but got {a.ndim}")
        return _expand(a, 2)

    if not inputs:
        raise RuntimeError("For 'block_diag', the input is empty.")
    blocks = [to_2d(a) for a in inputs]
    columns = []
    for i, a in enumerate(blocks):
        column = [a if j == i else P.Zeros()((b.shape[0], a.shape[1]), b.dtype) for j, b in enumerate(blocks)]
        columns.append(P.Concat(0)(tuple(column)))
    return P.Concat(1)(tuple(columns))


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """x[1:] - x[:-1] along ``axis`` (n must be 1), after concatenating prepend/append."""
    mstype = _mstype()
    if not isinstance(x, _tensor()):
        raise TypeError(f"For 'diff', 'x' must be a tensor, but got {type(x)}")
    if x.ndim < 1:
        raise TypeError(f"For 'diff', the dimension 'x' must be at least 1, but got {x.ndim}")
    if 0 in x.shape:
        raise ValueError("For 'diff', 'x' can not be an empty Tensor.")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"For 'diff', the 'n' must be int, but got {type(n).__name__}.")
    if n != 1:
        raise RuntimeError(f"For 'diff', 'n' must be 1, but got {n}")
    parts = [t for t in (prepend, x, append) if t is not None]
    if len(parts) > 1:
        x = P.Concat(axis)(tuple(parts))
    length = x.shape[axis]
    first = _tensor()(list(range(length - 1)), mstype.int64)
    second = _tensor()(list(range(1, length)), mstype.int64)
    return P.Gather()(x, second, axis % x.ndim) - P.Gather()(x, first, axis % x.ndim)


def cartesian_prod(*inputs):
    """Every combination of one element of each 1-D input, as rows of a (prod(lengths), len(inputs))
    tensor."""
    shape = tuple(t.shape[0] for t in inputs)
    grids = []
    for i, t in enumerate(inputs):
        view = P.Reshape()(t, tuple(d if j == i else 1 for j, d in enumerate(shape)))
        grids.append(X.BroadcastTo(shape)(view))
    return P.Reshape()(P.Stack(-1)(tuple(grids)), (-1, len(inputs)))


def combinations(input, r=2, with_replacement=False):  # pylint: disable=redefined-builtin
    """The length-r combinations of a 1-D tensor's elements, as rows (itertools order)."""
    import itertools  # pylint: disable=import-outside-toplevel
    mstype = _mstype()
    if not isinstance(input, _tensor()):
        raise TypeError(f"For 'combinations', 'x' must be a tensor, but got {type(input)}")
    if input.ndim != 1:
        raise ValueError(f"For 'combinations', the dimension 'x' must be 1, but got {input.ndim}")
    if not isinstance(r, int):
        raise TypeError(f"For 'combinations', 'r' must be an integer, but got {type(r)}")
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = [i for combo in make(range(input.shape[0]), r) for i in combo]
    if not rows:
        return _tensor()(shape=(0,), dtype=input.dtype)
    picked = P.Gather()(input, _tensor()(rows, mstype.int64), 0)
    return P.Reshape()(picked, (-1, r))


def dist(input, other, p=2):  # pylint: disable=redefined-builtin
    """The p-norm of input - other, flattened (p = 0 counts non-zeros, inf takes the maximum)."""
    tensor = _tensor()
    if not isinstance(input, tensor):
        raise TypeError(f"For 'dist', 'input' must be a tensor, but got {type(input)}")
    if not isinstance(other, tensor):
        raise TypeError(f"For 'dist', 'other' must be a tensor, but got {type(other)}")
    z = input - other
    if z.ndim == 0:
        return P.Abs()(z)
    z = P.Abs()(P.Reshape()(z, (-1,)))
    if p == 0:
        return P.ReduceSum()(P.Cast()(P.NotEqual()(z, P.ZerosLike()(z)), z.dtype), ())
    if p == float("inf"):
        return P.ReduceMax()(z, ())
    if p == 2:
        return P.Sqrt()(P.ReduceSum()(P.Square()(z), ()))
    return P.Pow()(P.ReduceSum()(P.Pow()(z, float(p)), ()), 1.0 / p)


def _window(window_length, periodic, dtype, prim, weight):
    mstype = _mstype()
    if not isinstance(window_length, int) or isinstance(window_length, bool):
        raise TypeError(f"For '{prim}', 'window_length' must be a non-negative integer, "
                        f"but got {type(window_length)}")
    if window_length < 0:
        raise ValueError(f"For '{prim}', 'window_length' must be a non-negative integer, but got {window_length}")
    if window_length <= 1:
        return _tensor()([1.0] * window_length, mstype.float64)
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{prim}', 'periodic' must be a variable of Boolean type, but got {type(periodic)}")
    if dtype is not None and dtype not in mstype.float_type:
        raise TypeError(f"For '{prim}', 'dtype' must be floating point dtypes, but got {dtype}.")
    n = window_length + 1 if periodic else window_length
    values = [weight(i, n) for i in range(n)]
    out = _tensor()(values[:-1] if periodic else values, mstype.float64)
    return P.Cast()(out, dtype) if dtype is not None else out


def hann_window(window_length, periodic=True, *, dtype=None):
    """0.5 - 0.5 cos(2 pi n / (N - 1)); periodic drops the last of N + 1 (float64 unless dtype)."""
    return _window(window_length, periodic, dtype, "hann_window",
                   lambda i, n: 0.5 - 0.5 * math.cos(2 * math.pi / (n - 1) * i))


def _bessel_i0(x):
    """The modified Bessel function of the first kind, order 0 (its power series)."""
    total, term, k = 1.0, 1.0, 0
    while True:
        k += 1
        term *= (x / (2 * k)) ** 2
        total += term
        if term < total * 1e-17:
            return total


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta), a = (N - 1) / 2 (float64 unless dtype)."""
    if not isinstance(periodic, bool):
        raise TypeError(f"For 'kaiser_window', 'periodic' must be a variable of Boolean type, "
                        f"but got {type(periodic)}")

    def weight(i, n):
        alpha = (n - 1) / 2.0
        return _bessel_i0(beta * math.sqrt(max(0.0, 1 - ((i - alpha) / alpha) ** 2.0))) / _bessel_i0(float(beta))

    return _window(window_length, periodic, dtype, "kaiser_window", weight)


def isreal(input):  # pylint: disable=redefined-builtin
    """Whether each element is real: True for real types, imag == 0 for complex ones."""
    if not isinstance(input, _tensor()):
        raise TypeError(f"For 'isreal', the input 'input' must be a Tensor, but got {type(input)}.")
    if input.dtype in _mstype().complex_type:
        parts = X.Imag()(input)
        return P.Equal()(parts, P.ZerosLike()(parts))
    return P.FillV2()(tuple(input.shape), _tensor()(True))


def polar(abs, angle):  # pylint: disable=redefined-builtin,redefined-outer-name
    """abs * (cos(angle) + 1j sin(angle)), complex64 of float32 inputs, complex128 of float64."""
    for name, value in (("abs", abs), ("angle", angle)):
        _check_tensor(name, value, "polar")
    return X.Complex()(abs * X.Cos()(angle), abs * X.Sin()(angle))


def real(input):  # pylint: disable=redefined-builtin
    return X.Real()(input)


def imag(input):  # pylint: disable=redefined-builtin
    return X.Imag()(input)


def is_complex(input):  # pylint: disable=redefined-builtin
    """Whether ``input`` is a complex tensor."""
    _check_tensor("input", input, "is_complex")
    return input.dtype in _mstype().complex_type


def rot90(input, k, dims):  # pylint: disable=redefined-builtin
    """``input`` rotated k quarter turns in the plane of ``dims`` (from dims[0] toward dims[1])."""
    if not isinstance(input, _tensor()):
        raise TypeError(f"For `rot90`, the `input` must be Tensor!, but get {type(input)}.")
    if not isinstance(k, int):
        raise TypeError(f"For `rot90`, the `k` must be int!, but get {type(k)}.")
    if not isinstance(dims, (list, tuple)):
        raise TypeError(f"For `rot90`, the `dims` must be list or tuple!, but get {type(dims)}.")
    total = input.ndim
    if len(dims) != 2:
        raise ValueError(f"For `rot90`, total rotation dims must be 2, but get {len(dims)}.")
    if dims[0] == dims[1] or (dims[0] - dims[1]) == total or (dims[1] - dims[0]) == total:
        raise RuntimeError(f"For `rot90`, rotation dims must be different, but get dim0={dims[0]}, dim1={dims[1]}.")
    for i in (0, 1):
        if dims[i] >= total or dims[i] < -total:
            raise ValueError(f"For `rot90`, rotation dim{i} is out of range, dim{i}={dims[i]}.")
    k = (4 + (k % 4)) % 4
    if k == 0:
        return input
    if k == 2:
        return X.ReverseV2([dims[1]])(X.ReverseV2([dims[0]])(input))
    axes = list(range(total))
    axes[dims[0]], axes[dims[1]] = axes[dims[1]], axes[dims[0]]
    if k == 1:
        return P.Transpose()(X.ReverseV2([dims[1]])(input), tuple(axes))
    return X.ReverseV2([dims[1]])(P.Transpose()(input, tuple(axes)))


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The trapezoidal rule along ``dim``: spacing ``dx``, or sample points ``x``."""
    mstype = _mstype()
    tensor = _tensor()
    if not isinstance(y, tensor):
        raise TypeError(f"For `trapz`, the input `y` must be Tensor, but get {type(y)}.")
    if not isinstance(dx, float):
        raise TypeError(f"For `trapz`, the input `dx` must be float, but get f{type(dx)}.")
    if not isinstance(dim, int):
        raise TypeError(f"For `trapz`, the input `dim` must be int, but get {type(dim)}.")
    if not _is_float(y.dtype):
        y = P.Cast()(y, mstype.float32)
    if not -y.ndim <= dim < y.ndim:
        raise ValueError(f"For 'trapz', the 'dim' must be in range [{-y.ndim}, {y.ndim}), but got {dim}.")
    dim %= y.ndim
    n = y.shape[dim]
    if n == 0:
        return P.ReduceSum()(y, (dim,))
    left = tensor(list(range(n - 1)), mstype.int64)
    right = tensor(list(range(1, n)), mstype.int64)
    pair_sum = P.Gather()(y, left, dim) + P.Gather()(y, right, dim)
    if x is None:
        return P.ReduceSum()(pair_sum * (dx / 2.0), (dim,))
    if not isinstance(x, tensor):
        raise TypeError(f"For `trapz`, the input `x` must be Tensor, but get {type(x)}.")
    x = P.Cast()(x, mstype.float32)
    xdim = dim - y.ndim + x.ndim if x.ndim != y.ndim else dim
    widths = P.Gather()(x, right, xdim) - P.Gather()(x, left, xdim)
    return P.ReduceSum()(pair_sum * widths / 2.0, (dim,))


def nansum(input, axis=None, keepdims=False, *, dtype=None):  # pylint: disable=redefined-builtin
    """The sum over ``axis`` with NaNs counted as zero."""
    mstype = _mstype()
    if not isinstance(input, _tensor()):
        raise TypeError(f"For nansum, the input input must be a Tensor, but got {type(input)}.")
    if input.dtype == mstype.bool_:
        input = input.astype(mstype.int64)
    axis = () if axis is None else axis
    clean = P.Select()(X.IsNan()(input), P.ZerosLike()(input), input)
    out = P.ReduceSum(keepdims)(clean, axis)
    return out.astype(dtype) if dtype is not None and out.dtype != dtype else out


def inplace_index_add(var, indices, updates, axis):  # pylint: disable=redefined-outer-name
    return X.InplaceIndexAdd(axis)(var, indices, updates)


def orgqr(input, input2):  # pylint: disable=redefined-builtin
    """The first n columns of Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^T, from Householder vectors
    below the diagonal of ``input`` (..., m, n) and ``input2`` = tau (..., k): LAPACK's orgqr."""
    mstype = _mstype()
    tensor = _tensor()
    for name, value in (("x", input), ("tau", input2)):
        if not isinstance(value, tensor):
            raise TypeError(f"For 'Orgqr', the input '{name}' must be a Tensor, but got {type(value)}.")
    if input.ndim < 2 or input2.ndim != input.ndim - 1:
        raise ValueError(f"For 'Orgqr', 'x' must be at least 2-D and 'tau' one dimension less, "
                         f"but got {input.shape} and {input2.shape}.")
    m, n = input.shape[-2], input.shape[-1]
    k = input2.shape[-1]
    if not k <= n <= m:
        raise ValueError(f"For 'Orgqr', the shapes must satisfy k <= n <= m, but got m={m}, n={n}, k={k}.")
    batch = tuple(input.shape[:-2])
    eye = X.BroadcastTo(batch + (m, m))(P.Eye()(m, m, input.dtype))
    q = eye
    for i in range(k):
        column = P.Gather()(input, tensor([i], mstype.int32), input.ndim - 1)  # (..., m, 1)
        below = tensor([[1.0 if r > i else 0.0] for r in range(m)], input.dtype)
        unit = tensor([[1.0 if r == i else 0.0] for r in range(m)], input.dtype)
        v = column * below + unit
        tau = P.Reshape()(P.Gather()(input2, tensor([i], mstype.int32), input2.ndim - 1), batch + (1, 1))
        h = eye - tau * P.BatchMatMul(False, True)(v, v) if batch else eye - tau * P.MatMul(False, True)(v, v)
        q = P.BatchMatMul()(q, h) if batch else P.MatMul()(q, h)
    return P.Gather()(q, tensor(list(range(n)), mstype.int32), input.ndim - 1)


def argmax(input, dim=None, keepdim=False):  # pylint: disable=redefined-builtin
    """Index (int64) of the first maximum along ``dim``; None: of all elements (MindSpore's
    ``array_func.argmax``: bool counts as int32, a 0-d input gives 0)."""
    mstype = _mstype()
    if not isinstance(keepdim, bool):
        raise TypeError(f"For 'argmax', the type of 'keepdim' should be 'bool', but got type "
                        f"'{type(keepdim).__name__}'.")
    if not input.shape:
        return _tensor()(0)
    if input.dtype == mstype.bool_:
        input = input.astype(mstype.int32)
    return _first_max_index(input, dim, keepdim, mstype.int64)


def argmin(input, axis=None, keepdims=False):  # pylint: disable=redefined-builtin
    """Index (int32) of the first minimum along ``axis``; None: of all elements (MindSpore's
    ``math_func.argmin``), the first maximum of the negated input."""
    mstype = _mstype()
    if not input.shape:
        return _tensor()(0)
    if input.dtype == mstype.bool_:
        raise TypeError("For 'Argmin', the input must be a numeric tensor, but got Bool.")
    return _first_max_index(P.Neg()(input), axis, keepdims, mstype.int32)


def _first_max_index(input, axis, keepdims, output_type):  # pylint: disable=redefined-builtin
    """Argmax along ``axis`` as ``output_type``, of the flattened input when ``axis`` is None (then
    ``keepdims`` does not apply, as in MindSpore)."""
    if axis is None:
        return P.Argmax(0, output_type)(P.Reshape()(input, (-1,)))
    out = P.Argmax(axis, output_type)(input)
    return P.ExpandDims()(out, axis) if keepdims else out
