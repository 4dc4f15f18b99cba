"""MindSpore 2.10's elementwise math, special-function, triangular-solve and set primitives.

Engine operators (kernel, inference, gradient and sharding rule declared once): the unary ones
(Floor, Ceil, Round, Trunc, Sign, Log1p, Expm1, Erfc, Sin, Cos, Reciprocal, Rsqrt, IsNan, IsInf,
IsFinite, Lgamma, Digamma), CumSum, Igamma, Igammac, IgammaGradA, Zeta, Gcd, Lcm,
MatrixTriangularSolve and MatrixBandPart. Diag is composed of engine operators. The set operations
(DenseToDenseSetOperation, DenseToSparseSetOperation) have outputs whose shape depends on the values,
so they run on the host in PyNative mode. NPUAllocFloatStatus, NPUGetFloatStatus and
NPUClearFloatStatus are Ascend operators: on the CPU they raise MindSpore's kernel-select error.

Signatures, attributes and error texts are MindSpore 2.10's (``ops/auto_generate/gen_ops_prim.py``,
``ops/operations/math_ops.py``, ``_grad_ops.py``, ``sparse_ops.py``).
"""
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations import _Unary
from mindspore.ops.operations._array_math_ops import _is_int
from mindspore.ops.operations._nn_ops import _tensor_cls, _type_name


class Floor(_Unary):
    """Elementwise round toward minus infinity (float tensors)."""


class Ceil(_Unary):
    """Elementwise round toward plus infinity (float tensors)."""


class Round(_Unary):
    """Elementwise round half to even (int32, int64 and float tensors)."""

    def __call__(self, input, decimals=0):  # pylint: disable=redefined-builtin,arguments-differ
        if decimals != 0:
            raise NotImplementedError("msjvm: Round(decimals != 0) is not supported yet.")
        return super().__call__(input)


class Trunc(_Unary):
    """Elementwise round toward zero (every type; integers are kept)."""


class Sign(_Unary):
    """Elementwise -1, 0 or 1 (NaN gives 0)."""


class Log1p(_Unary):
    """Elementwise log(1 + x)."""


class Expm1(_Unary):
    """Elementwise exp(x) - 1."""


class Erfc(_Unary):
    """Elementwise complementary error function."""


class Sin(_Unary):
    """Elementwise sine."""


class Cos(_Unary):
    """Elementwise cosine."""


class Reciprocal(_Unary):
    """Elementwise 1 / x (integers give float32)."""


class Rsqrt(_Unary):
    """Elementwise 1 / sqrt(x)."""


class IsNan(_Unary):
    """Elementwise x is NaN (bool)."""


class IsInf(_Unary):
    """Elementwise x is +-inf (bool)."""


class IsFinite(_Unary):
    """Elementwise x is neither NaN nor infinite (bool)."""


class Lgamma(_Unary):
    """Elementwise log |Gamma(x)|."""


class Digamma(_Unary):
    """Elementwise d/dx log Gamma(x)."""


class CumSum(Primitive):
    """Running sums along ``axis``: ``CumSum(exclusive=False, reverse=False)(input, axis)``."""

    def __init__(self, exclusive=False, reverse=False):
        super().__init__("CumSum")
        self.add_prim_attr("exclusive", bool(exclusive))
        self.add_prim_attr("reverse", bool(reverse))
        self.exclusive = bool(exclusive)
        self.reverse = bool(reverse)

    def _engine_attrs(self):
        return ["exclusive", self.exclusive, "reverse", self.reverse]

    def __call__(self, input, axis):  # pylint: disable=redefined-builtin
        tensor = _tensor_cls()
        if not isinstance(input, tensor):
            raise TypeError(f"For primitive[CumSum], the input argument[input] must be a Tensor, "
                            f"but got {_type_name(input)}.")
        if isinstance(axis, tensor):
            axis = axis.item()
        if not _is_int(axis):
            raise TypeError(f"For primitive[CumSum], the input argument[axis] must be an int, "
                            f"but got {_type_name(axis)}.")
        return self._run_engine(input, extra=("axis", axis))


class _TwoTensors(Primitive):
    """A two-input engine operator that takes tensors only (``names``: MindSpore's input names)."""

    names = ("x", "y")

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, x, y):
        for name, value in zip(self.names, (x, y)):
            if not isinstance(value, _tensor_cls()):
                raise TypeError(f"For primitive[{self.name}], the input argument[{name}] must be a Tensor, "
                                f"but got {_type_name(value)}.")
        return self._run_engine(x, y)


class Igamma(_TwoTensors):
    """The regularized lower incomplete gamma function P(a, x): ``Igamma()(a, x)``."""

    names = ("a", "x")


class Igammac(_TwoTensors):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""

    names = ("a", "x")


class IgammaGradA(_TwoTensors):
    """dP(a, x)/da, Igamma's gradient in ``a``."""

    names = ("a", "x")


class Zeta(_TwoTensors):
    """The Hurwitz zeta function: ``Zeta()(x, q)`` is sum over k >= 0 of (k + q)^-x."""

    names = ("x", "q")


class Gcd(_TwoTensors):
    """Elementwise greatest common divisor of integer tensors."""

    names = ("x1", "x2")


class Lcm(_TwoTensors):
    """Elementwise least common multiple of integer tensors."""

    names = ("x1", "x2")


class MatrixTriangularSolve(Primitive):
    """Solves ``op(matrix) X = rhs`` for triangular ``matrix`` (``lower``; ``adjoint``: op is the
    transpose), batched over the leading dimensions."""

    def __init__(self, adjoint=False, lower=True):
        super().__init__("MatrixTriangularSolve")
        for name, value in (("adjoint", adjoint), ("lower", lower)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatrixTriangularSolve', the type of '{name}' must be bool, "
                                f"but got {type(value).__name__}.")
        self.adjoint = adjoint
        self.lower = lower
        self.add_prim_attr("adjoint", adjoint)
        self.add_prim_attr("lower", lower)

    def _engine_attrs(self):
        return ["adjoint", self.adjoint, "lower", self.lower]

    def __call__(self, matrix, rhs):
        for name, value in (("matrix", matrix), ("rhs", rhs)):
            if not isinstance(value, _tensor_cls()):
                raise TypeError(f"For 'MatrixTriangularSolve', the input '{name}' must be a Tensor, "
                                f"but got {_type_name(value)}.")
        return self._run_engine(matrix, rhs)


class MatrixBandPart(Primitive):
    """Keeps the band ``lower`` below and ``upper`` above the diagonal of each innermost matrix
    (a negative bound keeps that whole triangle); ``MatrixBandPart()(x, lower, upper)``."""

    def __init__(self):
        super().__init__("MatrixBandPart")

    def __call__(self, x, lower, upper):
        if not isinstance(x, _tensor_cls()):
            raise TypeError(f"For 'MatrixBandPart', the input 'x' must be a Tensor, but got {_type_name(x)}.")
        bounds = []
        for name, value in (("lower", lower), ("upper", upper)):
            if isinstance(value, _tensor_cls()):
                value = value.item()
            if not _is_int(value):
                raise TypeError(f"For 'MatrixBandPart', the '{name}' must be an int, but got {_type_name(value)}.")
            bounds += [name, value]
        return self._run_engine(x, extra=tuple(bounds))


class Diag(Primitive):
    """A tensor of shape ``x.shape + x.shape`` with ``x`` on its diagonal: ``out[i..., i...] = x[i...]``."""

    def __init__(self):
        super().__init__("Diag")

    def __call__(self, input_x):
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        if not isinstance(input_x, _tensor_cls()):
            raise TypeError(f"For primitive[Diag], the input argument[input_x] must be a Tensor, "
                            f"but got {_type_name(input_x)}.")
        if input_x.ndim < 1:
            raise ValueError(f"For primitive[Diag], the input rank must be greater than or equal to 1, "
                             f"but got {input_x.ndim}.")
        if input_x.dtype not in (mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"Select CPU operator[Diag] fail! Unsupported data type! The supported data types "
                            f"are input[Int32], output[Int32]; input[Int64], output[Int64]; input[Float16], "
                            f"output[Float16]; input[Float32], output[Float32]; input[Float64], "
                            f"output[Float64]; , but get input[{input_x.dtype} ] and output[{input_x.dtype} ]")
        n = input_x.size
        eye = P.Eye()(n, n, input_x.dtype)
        flat = P.Reshape()(input_x, (n, 1))
        return P.Reshape()(P.Mul()(flat, eye), tuple(input_x.shape) * 2)


class _AscendOnly(Primitive):
    """An Ascend operator: MindSpore's CPU backend has no kernel for it."""

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, *args):
        raise RuntimeError(f"Unsupported op [{self.name}] on CPU, Please confirm whether the device target "
                           f"setting is correct, or refer to 'mindspore.ops' at https://www.mindspore.cn to query "
                           f"the operator support list.")


class NPUAllocFloatStatus(_AscendOnly):
    """Ascend's float-status buffer (not on the CPU)."""


class NPUGetFloatStatus(_AscendOnly):
    """Ascend's float-status read (not on the CPU)."""


class NPUClearFloatStatus(_AscendOnly):
    """Ascend's float-status reset (not on the CPU)."""


_SET_OPERATIONS = ("a-b", "b-a", "intersection", "union")


def _set_result(rows_a, rows_b, operation, dtype):
    """The sparse (indices, values, shape) of a row-wise set operation, values sorted per row."""
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    tensor = _tensor_cls()
    results = []
    for ra, rb in zip(rows_a, rows_b):
        sa, sb = set(ra), set(rb)
        if operation == "a-b":
            out = sa - sb
        elif operation == "b-a":
            out = sb - sa
        elif operation == "intersection":
            out = sa & sb
        else:
            out = sa | sb
        results.append(sorted(out))
    width = max((len(r) for r in results), default=0)
    indices = [[i, j] for i, r in enumerate(results) for j in range(len(r))]
    values = [v for r in results for v in r]
    if not indices:
        indices_t = tensor(shape=(0, 2), dtype=mstype.int64)
        values_t = tensor(shape=(0,), dtype=dtype)
    else:
        indices_t = tensor(indices, mstype.int64)
        values_t = tensor(values, dtype)
    return indices_t, values_t, tensor([len(rows_a), width], mstype.int64)


class _SetOperation(Primitive):
    def __init__(self, set_operation="a-b", validate_indices=True):
        super().__init__(type(self).__name__)
        if not isinstance(set_operation, str) or set_operation.lower() not in _SET_OPERATIONS:
            raise ValueError(f"For '{self.name}', the attr set_operation must be any one of "
                             f"['a-b', 'b-a', 'intersection', 'union'], but got {set_operation}.")
        if not isinstance(validate_indices, bool):
            raise TypeError(f"For '{self.name}', the type of 'validate_indices' must be bool, "
                            f"but got {type(validate_indices).__name__}.")
        self.set_operation = set_operation.lower()
        self.validate_indices = validate_indices
        self.add_prim_attr("set_operation", self.set_operation)
        self.add_prim_attr("validate_indices", validate_indices)


def _rows(prim, x):
    """The last-dimension rows of a dense tensor of rank >= 2, as Python lists."""
    if x.ndim < 2:
        raise ValueError(f"For '{prim}', the rank of input must be at least 2, but got {x.ndim}.")
    if x.ndim != 2:
        raise NotImplementedError(f"msjvm: {prim} supports rank-2 inputs only, but got rank {x.ndim}.")
    return x.tolist()


class DenseToDenseSetOperation(_SetOperation):
    """Row-wise set operation of two dense tensors; returns a sparse (indices, values, shape)."""

    def __call__(self, x1, x2):
        if x1.dtype != x2.dtype:
            raise TypeError(f"For '{self.name}', the dtype of x1 and x2 must be the same, "
                            f"but got {x1.dtype} and {x2.dtype}.")
        a, b = _rows(self.name, x1), _rows(self.name, x2)
        if len(a) != len(b):
            raise ValueError(f"For '{self.name}', the first dimension of x1 and x2 must be the same, "
                             f"but got {len(a)} and {len(b)}.")
        return _set_result(a, b, self.set_operation, x1.dtype)


class DenseToSparseSetOperation(_SetOperation):
    """Row-wise set operation of a dense tensor and a sparse one (indices, values, shape)."""

    def __call__(self, x1, x2_indices, x2_values, x2_shape):
        if x1.dtype != x2_values.dtype:
            raise TypeError(f"For '{self.name}', the dtype of x1 and x2_values must be the same, "
                            f"but got {x1.dtype} and {x2_values.dtype}.")
        a = _rows(self.name, x1)
        shape = x2_shape.tolist()
        if len(shape) != 2 or shape[0] != len(a):
            raise ValueError(f"For '{self.name}', x2_shape must be [{len(a)}, n], but got {shape}.")
        b = [[] for _ in a]
        for (row, _), value in zip(x2_indices.tolist(), x2_values.tolist()):
            b[row].append(value)
        return _set_result(a, b, self.set_operation, x1.dtype)


class BroadcastTo(Primitive):
    """``x`` broadcast to ``shape`` (a -1 keeps that dimension of ``x``)."""

    def __init__(self, shape):
        super().__init__("BroadcastTo")
        if not isinstance(shape, (tuple, list)) or not all(_is_int(d) for d in shape):
            raise TypeError(f"For 'BroadcastTo', the 'shape' must be a tuple of ints, but got {shape}.")
        self.shape = tuple(shape)
        self.add_prim_attr("shape", self.shape)

    def _engine_attrs(self):
        return []

    def __call__(self, x):
        if not isinstance(x, _tensor_cls()):
            raise TypeError(f"For 'BroadcastTo', the input 'x' must be a Tensor, but got {_type_name(x)}.")
        lead = len(self.shape) - x.ndim
        if lead < 0:
            raise ValueError(f"For 'BroadcastTo', the rank of 'x' {x.ndim} is greater than the length of "
                             f"'shape' {len(self.shape)}.")
        shape = [x.shape[i - lead] if d == -1 and i >= lead else d for i, d in enumerate(self.shape)]
        if any(d < 0 for d in shape):
            raise ValueError(f"For 'BroadcastTo', -1 in 'shape' must match a dimension of 'x', but got "
                             f"{self.shape}.")
        return self._run_engine(x, extra=("shape", shape))


class ReverseV2(Primitive):
    """``x`` with the dimensions in ``axis`` reversed (a Gather of the indices counted down)."""

    def __init__(self, axis):
        super().__init__("ReverseV2")
        if not isinstance(axis, (tuple, list)) or not all(_is_int(a) for a in axis):
            raise TypeError(f"For 'ReverseV2', the 'axis' must be a tuple or list of ints, but got {axis}.")
        self.axis = tuple(axis)
        self.add_prim_attr("axis", self.axis)

    def __call__(self, x):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations._nn_ops import Gather  # pylint: disable=import-outside-toplevel
        if not isinstance(x, _tensor_cls()):
            raise TypeError(f"For 'ReverseV2', the input 'x' must be a Tensor, but got {_type_name(x)}.")
        for a in self.axis:
            if not -x.ndim <= a < x.ndim:
                raise ValueError(f"For 'ReverseV2', the 'axis[{self.axis.index(a)}]' must be in range of "
                                 f"[{-x.ndim}, {x.ndim}), but got {a}.")
            n = x.shape[a]
            x = Gather()(x, _tensor_cls()(list(range(n - 1, -1, -1)), mstype.int32), a % x.ndim)
        return x


class InplaceIndexAdd(Primitive):
    """``var[..., indices[i], ...] += updates[..., i, ...]`` along ``axis`` (repeated indices add up);
    ``var`` is a Parameter, updated in place and returned."""

    def __init__(self, axis):
        super().__init__("InplaceIndexAdd")
        if not _is_int(axis):
            raise TypeError(f"For 'InplaceIndexAdd', the 'axis' must be an int, but got {_type_name(axis)}.")
        self.axis = axis
        self.add_prim_attr("axis", axis)

    def _engine_attrs(self):
        return []

    def __call__(self, var, indices, updates):
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations import Add  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations._nn_ops import Assign  # pylint: disable=import-outside-toplevel
        tensor = _tensor_cls()
        for name, value in (("var", var), ("indices", indices), ("updates", updates)):
            if not isinstance(value, tensor):
                raise TypeError(f"For 'InplaceIndexAdd', the input '{name}' must be a Tensor, "
                                f"but got {_type_name(value)}.")
        if indices.dtype != mstype.int32 or indices.ndim != 1:
            raise TypeError(f"For 'InplaceIndexAdd', the 'indices' must be a 1-D int32 tensor, "
                            f"but got {indices.dtype} of rank {indices.ndim}.")
        axis = self.axis % max(var.ndim, 1)
        if var.dtype != updates.dtype or updates.ndim != var.ndim or updates.shape[axis] != indices.shape[0] or \
                any(u != v for d, (u, v) in enumerate(zip(updates.shape, var.shape)) if d != axis):
            raise ValueError(f"For 'InplaceIndexAdd', 'updates' must have the dtype of 'var' and its shape with "
                             f"dimension {axis} of the length of 'indices', but got {updates.dtype}{updates.shape}"
                             f" for var {var.dtype}{var.shape} and indices {indices.shape}.")
        added = self._run_engine(updates, indices, name="GatherGrad",
                                 extra=("axis", axis, "shape", list(var.shape)))
        out = Add()(var, added)
        if isinstance(var, Parameter):
            Assign()(var, out)
            return var
        return out


class _Part(Primitive):
    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, input):  # pylint: disable=redefined-builtin
        if not isinstance(input, _tensor_cls()):
            raise TypeError(f"For '{self.name}', the input must be a Tensor, but got {_type_name(input)}.")
        return self._run_engine(input)


class Real(_Part):
    """The real parts of a complex tensor (float32 of complex64, float64 of complex128); a real
    tensor is returned as it is."""


class Imag(_Part):
    """The imaginary parts of a complex tensor; zeros for a real tensor."""


class Complex(Primitive):
    """``real + 1j * imag`` from two float32 (complex64) or float64 (complex128) tensors."""

    def __init__(self):
        super().__init__("Complex")

    def __call__(self, real, imag):
        for name, value in (("real", real), ("imag", imag)):
            if not isinstance(value, _tensor_cls()):
                raise TypeError(f"For 'Complex', the input '{name}' must be a Tensor, but got {_type_name(value)}.")
        return self._run_engine(real, imag)
