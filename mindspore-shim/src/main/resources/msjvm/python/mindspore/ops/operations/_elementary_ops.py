"""MindSpore 2.10's elementwise and reduction primitives that its parallel tests build beside the others.

Engine operators (``ElementaryOps``, ``ReductionOps``: kernel, inference, gradient and sharding rule
declared once): the inverse and hyperbolic trigonometric functions, Erfinv, Rint, Inv, the Bessel
functions of order 0 and 1, Mish, SeLU, HSigmoid, HShrink, SoftShrink, Elu; Mod, Atan2, DivNoNan,
MulNoNan, TruncateDiv, TruncateMod, Xdivy, Xlogy, SquaredDifference, Hypot, NextAfter, the bitwise and
logical operators, LeftShift, RightShift, ApproximateEqual, IsClose, RemainderTensorTensor, FmodTensor,
Polar, MaskedFill, AssignSub; ReduceProd, CumProd, ArgMaxWithValue, ArgMinWithValue, Argmin and
SquareSumAll. Constructor arguments, their checks and the call-time texts are MindSpore 2.10's
(``ops/auto_generate/gen_ops_prim.py``, ``ops/operations/math_ops.py``, ``nn_ops.py``).
"""
import numbers

from mindspore.ops.primitive import Primitive
from mindspore.ops.operations import _Reduce, _ms_type_name
from mindspore.ops.operations._array_math_ops import AssignAdd, _is_int
from mindspore.ops.operations._nn_ops import _tensor_cls, _type_name

__all__ = ["ACos", "Acosh", "ApproximateEqual", "ArgMaxWithValue", "ArgMinWithValue", "Argmin", "Asin", "Asinh",
           "AssignSub", "Atan", "Atan2", "Atanh", "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0",
           "BesselJ1", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Cosh", "CumProd", "DivNoNan", "Elu", "Erfinv",
           "FmodTensor", "HSigmoid", "HShrink", "Hypot", "InplaceCopy", "Inv", "IsClose", "LeftShift", "LogicalAnd",
           "LogicalOr", "MaskedFill", "Mish", "Mod", "MulNoNan", "NextAfter", "Polar", "ReduceProd",
           "RemainderTensorTensor", "RightShift", "Rint", "SeLU", "Sinh", "SoftShrink", "SquareSumAll",
           "SquaredDifference", "Tan", "TruncateDiv", "TruncateMod", "Xdivy", "Xlogy", "PReLU", "L2Normalize", "RmsNorm", "Triu", "Tril", "FastGeLU", "TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
           "TensorScatterMul", "TensorScatterDiv", "TensorScatterMax", "TensorScatterMin", "ScatterNdUpdate", "ScatterNdAdd",
           "ScatterNdSub", "GatherD", "TraceV2"]


class _OneTensor(Primitive):
    """A one-input engine operator; ``arg`` is MindSpore's name of its input in 'Failed calling' texts."""

    arg = "input"

    def __init__(self):
        super().__init__(type(self).__name__)

    def _signature(self):
        return f"{self.name}()"

    def __call__(self, x):
        if not isinstance(x, _tensor_cls()):
            raise TypeError(f'Failed calling {self.name} with "{self._signature()}({self.arg}={_type_name(x)})".')
        return self._run_engine(x)


def _unary(name, doc, arg="input"):
    return type(name, (_OneTensor,), {"__doc__": doc, "arg": arg})


Tan = _unary("Tan", "Elementwise tangent (float tensors).")
Sinh = _unary("Sinh", "Elementwise hyperbolic sine.")
Cosh = _unary("Cosh", "Elementwise hyperbolic cosine.")
Atan = _unary("Atan", "Elementwise arctangent.")
Atanh = _unary("Atanh", "Elementwise inverse hyperbolic tangent (NaN outside [-1, 1]).")
Asin = _unary("Asin", "Elementwise arcsine.")
ACos = _unary("ACos", "Elementwise arccosine.")
Asinh = _unary("Asinh", "Elementwise inverse hyperbolic sine.")
Acosh = _unary("Acosh", "Elementwise inverse hyperbolic cosine (NaN below 1).")
Erfinv = _unary("Erfinv", "Elementwise inverse error function.")
Rint = _unary("Rint", "Elementwise round half to even (floats).", "x")
Inv = _unary("Inv", "Elementwise 1 / x (integers truncate).", "x")
BesselI0e = _unary("BesselI0e", "exp(-|x|) I0(x).", "input_x")
BesselI1e = _unary("BesselI1e", "exp(-|x|) I1(x).", "input_x")
BesselI0 = _unary("BesselI0", "The modified Bessel function of order 0.", "x")
BesselI1 = _unary("BesselI1", "The modified Bessel function of order 1.", "x")
BesselJ0 = _unary("BesselJ0", "The Bessel function of the first kind of order 0.", "x")
BesselJ1 = _unary("BesselJ1", "The Bessel function of the first kind of order 1.", "x")
Mish = _unary("Mish", "x tanh(softplus(x)).", "input_x")
SeLU = _unary("SeLU", "The scaled exponential linear unit.", "input_x")
HSigmoid = _unary("HSigmoid", "relu6(x + 3) / 6 (integers: in integer arithmetic).", "input_x")
FastGeLU = _unary("FastGeLU", "x * sigmoid(1.702 x) (float16, float32).", "x")


def _float_arg(prim, name, value):
    """MindSpore's ``type_it`` for a float argument: bools and ints become floats."""
    if isinstance(value, (bool, numbers.Integral)):
        return float(value)
    if not isinstance(value, float):
        raise TypeError(f"For '{prim}', the type of '{name}' should be one of '[float, bool, int]', "
                        f"but got type '{type(value).__name__}'.")
    return value


class _Shrink(_OneTensor):
    arg = "input"

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _float_arg(self.name, "lambd", lambd)
        self.add_prim_attr("lambd", self.lambd)

    def _engine_attrs(self):
        return ["lambd", self.lambd]


class HShrink(_Shrink):
    """x where |x| > lambd, else 0 (float16 and float32)."""


class SoftShrink(_Shrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0 (float16 and float32)."""

    def __call__(self, x):
        if self.lambd < 0:
            raise RuntimeError(f"For 'SoftShrink', the values for lambd should be greater or equal to 0, , "
                               f"but found to be [{self.lambd:g}].")
        return super().__call__(x)


class Elu(_OneTensor):
    """x above zero, alpha (e^x - 1) else; MindSpore 2.10 takes alpha 1.0 only."""

    arg = "input_x"

    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha
        self.add_prim_attr("alpha", alpha)

    def _engine_attrs(self):
        return ["alpha", float(self.alpha)]

    def __call__(self, input_x):
        if not isinstance(self.alpha, float):
            raise TypeError(f'Failed calling Elu with "Elu(alpha={_type_name(self.alpha)})'
                            f'(input_x={_type_name(input_x)})".')
        if self.alpha != 1.0:
            raise ValueError("EluIn Elu, alpha must be 1.0f.")
        return super().__call__(input_x)


def _scalar_tensor(value, like):
    """A Python scalar as the tensor MindSpore makes of it beside ``like`` (its type if it holds the value)."""
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if isinstance(value, bool):
        dtype = like.dtype
    elif isinstance(value, numbers.Integral):
        dtype = mstype.int64 if like.dtype == mstype.bool_ else like.dtype
    else:
        dtype = like.dtype if like.dtype in (mstype.float16, mstype.float32, mstype.float64,
                                             mstype.bfloat16) else mstype.float32
    return _tensor_cls()(value, dtype)


class _TwoTensors(Primitive):
    """A two-input engine operator. ``args``: MindSpore's input names; ``scalars``: the Python scalars
    it takes beside a tensor (``(bool,)`` for the logical operators, none for the shifts)."""

    args = ("x", "y")
    scalars = (bool, numbers.Real)

    def __init__(self):
        super().__init__(type(self).__name__)

    def _signature(self):
        return f"{self.name}()"

    def __call__(self, x, y):
        tensor = _tensor_cls()
        x_ok, y_ok = isinstance(x, tensor), isinstance(y, tensor)
        if x_ok and not y_ok and self._takes(y):
            y = _scalar_tensor(y, x)
        elif y_ok and not x_ok and self._takes(x):
            x = _scalar_tensor(x, y)
        if not isinstance(x, tensor) or not isinstance(y, tensor):
            raise TypeError(f'Failed calling {self.name} with "{self._signature()}({self.args[0]}={_type_name(x)}, '
                            f'{self.args[1]}={_type_name(y)})".')
        return self._run_engine(x, y)

    def _takes(self, value):
        return any(isinstance(value, kind) for kind in self.scalars)


def _binary(name, doc, args=("x", "y"), scalars=(bool, numbers.Real)):
    return type(name, (_TwoTensors,), {"__doc__": doc, "args": args, "scalars": scalars})


Mod = _binary("Mod", "The remainder of a division truncated toward zero (MindSpore's Mod).")
Atan2 = _binary("Atan2", "Elementwise atan2(x, y).")
DivNoNan = _binary("DivNoNan", "x / y, 0 where y is 0.", ("x1", "x2"))
MulNoNan = _binary("MulNoNan", "x * y, 0 where y is 0.")
TruncateDiv = _binary("TruncateDiv", "x / y truncated toward zero.")
TruncateMod = _binary("TruncateMod", "The remainder with the dividend's sign (C's fmod).")
Xdivy = _binary("Xdivy", "x / y, 0 where x is 0.")
Xlogy = _binary("Xlogy", "x * log(y).", ("input", "other"), ())
SquaredDifference = _binary("SquaredDifference", "(x - y) ** 2.")
Hypot = _binary("Hypot", "sqrt(x1 ** 2 + x2 ** 2).", ("x1", "x2"))
NextAfter = _binary("NextAfter", "The next representable value after x1 toward x2.", ("input", "other"), ())
BitwiseAnd = _binary("BitwiseAnd", "Elementwise x & y (integers and bool).")
BitwiseOr = _binary("BitwiseOr", "Elementwise x | y (integers and bool).")
BitwiseXor = _binary("BitwiseXor", "Elementwise x ^ y (integers and bool).")
LogicalAnd = _binary("LogicalAnd", "Elementwise x and y (non-zero is true), as bool.", scalars=(bool,))
LogicalOr = _binary("LogicalOr", "Elementwise x or y (non-zero is true), as bool.", scalars=(bool,))
LeftShift = _binary("LeftShift", "x1 << x2 (integers of one type).", ("x1", "x2"), ())
RightShift = _binary("RightShift", "x >> y, arithmetic (integers of one type).", ("input_x", "input_y"), ())
RemainderTensorTensor = _binary("RemainderTensorTensor", "Python's remainder (the divisor's sign).",
                                ("input", "other"))
FmodTensor = _binary("FmodTensor", "C's fmod (the dividend's sign).", ("input", "other"))
Polar = _binary("Polar", "abs * (cos(angle) + i sin(angle)), complex.", ("abs", "angle"), ())


class ApproximateEqual(_TwoTensors):
    """|x1 - x2| < tolerance, as bool (float tensors of one shape)."""

    args = ("x1", "x2")
    scalars = ()

    def __init__(self, tolerance=1e-05):
        super().__init__()
        if not isinstance(tolerance, float):
            raise TypeError(f"For 'ApproximateEqual', the type of 'tolerance' should be 'float', "
                            f"but got type '{type(tolerance).__name__}'.")
        self.tolerance = tolerance
        self.add_prim_attr("tolerance", tolerance)

    def _engine_attrs(self):
        return ["tolerance", self.tolerance]

    def __call__(self, x1, x2):
        tensor = _tensor_cls()
        if isinstance(x1, tensor) and not isinstance(x2, tensor) and isinstance(x2, numbers.Real):
            x2 = _scalar_tensor(x2, x1)
        return super().__call__(x1, x2)


class IsClose(_TwoTensors):
    """|input - other| <= atol + rtol |other|, as bool; NaNs equal when ``equal_nan``."""

    args = ("input", "other")
    scalars = ()

    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=False):
        super().__init__()
        self.rtol = _float_arg("IsClose", "rtol", rtol)
        self.atol = _float_arg("IsClose", "atol", atol)
        self.equal_nan = equal_nan
        for key in ("rtol", "atol", "equal_nan"):
            self.add_prim_attr(key, getattr(self, key))

    def _engine_attrs(self):
        return ["rtol", self.rtol, "atol", self.atol, "equal_nan", bool(self.equal_nan)]


class MaskedFill(Primitive):
    """``input_x`` with ``value`` (a 0-d tensor or a number, cast to its type) where ``mask`` holds."""

    def __init__(self):
        super().__init__("MaskedFill")

    def __call__(self, input_x, mask, value):
        tensor = _tensor_cls()
        number = isinstance(value, numbers.Real) and not isinstance(value, (bool, tensor))
        if not isinstance(input_x, tensor) or not isinstance(mask, tensor) or not (number or isinstance(value, tensor)):
            raise TypeError(f'Failed calling MaskedFill with "MaskedFill()(input_x={_type_name(input_x)}, '
                            f'mask={_type_name(mask)}, value={_type_name(value)})".')
        if number:
            # a scalar, not an input (a strategy then has two entries, as MindSpore's)
            return self._run_engine(input_x, mask, extra=("value", float(value)))
        return self._run_engine(input_x, mask, value)


class AssignSub(AssignAdd):
    """Subtracts ``value`` (of the Parameter's shape) from a Parameter in place; returns the new value."""

    def __init__(self):  # pylint: disable=super-init-not-called,non-parent-init-called
        Primitive.__init__(self, "AssignSub")


class InplaceCopy(Primitive):
    """Copies ``src`` (broadcast) into ``input``, a Parameter, and returns it (MindSpore writes any tensor's
    storage; here only a Parameter's value can change in place)."""

    def __init__(self):
        super().__init__("InplaceCopy")
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, input, src, non_blocking=False):  # pylint: disable=redefined-builtin,unused-argument
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations import Assign, BroadcastTo  # pylint: disable=import-outside-toplevel
        if not isinstance(input, Parameter):
            raise NotImplementedError("msjvm: InplaceCopy writes into a Parameter only; copy into a Tensor "
                                      "that is not a Parameter is not supported yet.")
        if not isinstance(src, _tensor_cls()):
            src = _tensor_cls()(src, input.dtype)
        if tuple(src.shape) != tuple(input.shape):
            src = BroadcastTo(tuple(input.shape))(src)
        return Assign()(input, src)


class ReduceProd(_Reduce):
    """The product over axes (() : all); the result keeps the input type (bool: a logical and)."""


class CumProd(Primitive):
    """Running products along ``axis``: ``CumProd(exclusive=False, reverse=False)(x, axis)``."""

    def __init__(self, exclusive=False, reverse=False):
        super().__init__("CumProd")
        self.exclusive = bool(exclusive)
        self.reverse = bool(reverse)
        self.add_prim_attr("exclusive", self.exclusive)
        self.add_prim_attr("reverse", self.reverse)

    def _engine_attrs(self):
        return ["exclusive", self.exclusive, "reverse", self.reverse]

    def __call__(self, x, axis):
        tensor = _tensor_cls()
        if isinstance(axis, tensor):
            axis = axis.item()
        if not isinstance(x, tensor) or not _is_int(axis):
            raise TypeError(f'Failed calling CumProd with "CumProd(exclusive=bool, reverse=bool)(x={_ms_type_name(x)}, '
                            f'axis={_ms_type_name(axis)})".')
        return self._run_engine(x, extra=("axis", axis))


class _ArgWithValue(Primitive):
    """ArgMaxWithValue / ArgMinWithValue: ``(index (int64), value)`` of the extreme along ``axis``."""

    def __init__(self, axis=0, keep_dims=False):
        super().__init__(type(self).__name__)
        self.axis = axis.item() if isinstance(axis, _tensor_cls()) else axis
        self.keep_dims = keep_dims
        self.add_prim_attr("axis", self.axis)
        self.add_prim_attr("keep_dims", keep_dims)

    def _engine_attrs(self):
        return ["axis", int(self.axis), "keep_dims", bool(self.keep_dims)]

    def __call__(self, input):  # pylint: disable=redefined-builtin
        if not isinstance(input, _tensor_cls()) or not isinstance(self.axis, numbers.Real) \
                or not isinstance(self.keep_dims, bool):
            raise TypeError(f'Failed calling {self.name} with "{self.name}(axis={_ms_type_name(self.axis)}, '
                            f'keep_dims={_ms_type_name(self.keep_dims)})(input={_ms_type_name(input)})".')
        return self._run_engine(input, all_outputs=True)


class ArgMaxWithValue(_ArgWithValue):
    """The index (int64) and the value of the first maximum along ``axis``."""


class ArgMinWithValue(_ArgWithValue):
    """The index (int64) and the value of the first minimum along ``axis``."""


class Argmin(Primitive):
    """The index of the first minimum along ``axis``, as ``output_type`` (int32 default, or int64)."""

    def __init__(self, axis=-1, output_type=None):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        from mindspore._c_expression.typing import type_to_type_id  # pylint: disable=import-outside-toplevel
        super().__init__("Argmin")
        self.axis = axis.item() if isinstance(axis, _tensor_cls()) else axis
        self._dtype = mstype.int32 if output_type is None else output_type
        self.add_prim_attr("axis", self.axis)
        # MindSpore keeps the type as its TypeId number (what the primitive prints)
        self.add_prim_attr("output_type", type_to_type_id(self._dtype))

    def _engine_attrs(self):
        return ["axis", self.axis, "output_type", self._dtype.engine_name]

    def __call__(self, x):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        if not isinstance(x, _tensor_cls()) or not _is_int(self.axis):
            raise TypeError(f'Failed calling Argmin with "Argmin(axis={_ms_type_name(self.axis)}, '
                            f'output_type=mindspore.dtype)(x={_ms_type_name(x)})".')
        if self._dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'Argmin', the 'output_type' must be Int32 or Int64, but got {self._dtype}.")
        return self._run_engine(x)


class SquareSumAll(Primitive):
    """The sums of squares of ``x`` and of ``y`` (float16/float32 tensors of one shape), as two 0-d tensors."""

    def __init__(self):
        super().__init__("SquareSumAll")

    def __call__(self, x, y):
        tensor = _tensor_cls()
        if not isinstance(x, tensor) or not isinstance(y, tensor):
            raise TypeError(f'Failed calling SquareSumAll with "SquareSumAll()(x={_type_name(x)}, y={_type_name(y)})".')
        return self._run_engine(x, y, all_outputs=True)


class PReLU(Primitive):
    """``x`` where positive, ``weight[c] * x`` elsewhere (``c``: the channel, dimension 1)."""

    def __init__(self):
        super().__init__("PReLU")

    def __call__(self, x, weight):
        tensor = _tensor_cls()
        if not isinstance(x, tensor) or not isinstance(weight, tensor):
            raise TypeError(f'Failed calling PReLU with "PReLU()(x={_type_name(x)}, weight={_type_name(weight)})".')
        return self._run_engine(x, weight)


class L2Normalize(Primitive):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""

    def __init__(self, axis=0, epsilon=1e-4):
        super().__init__("L2Normalize")
        axis = [axis] if isinstance(axis, int) else axis
        if not isinstance(axis, (list, tuple)):
            raise TypeError(f"For 'L2Normalize', the type of 'axis' should be one of '['list', 'tuple']', "
                            f"but got type '{type(axis).__name__}'.")
        if not isinstance(epsilon, (int, float)) or isinstance(epsilon, bool):
            raise TypeError(f"For 'L2Normalize', the type of 'epsilon' should be one of '['int', 'float']', "
                            f"but got type '{type(epsilon).__name__}'.")
        if len(axis) != 1:
            raise TypeError(f"For 'L2Normalize', the length of 'axis' must be 1, but got {len(axis)}, "
                            f"later will support multiple axis!")
        self.add_prim_attr("axis", list(axis))
        self.add_prim_attr("epsilon", epsilon)

    def _engine_attrs(self):
        return ["axis", int(self.attrs["axis"][0]), "epsilon", float(self.attrs["epsilon"])]

    def __call__(self, input_x):
        if not isinstance(input_x, _tensor_cls()):
            raise TypeError(f'Failed calling L2Normalize with "L2Normalize()(input_x={_type_name(input_x)})".')
        epsilon = self.attrs["epsilon"]
        if not isinstance(epsilon, float):
            # MindSpore's kernel reads the attribute as a float (its check at construction allows ints)
            raise RuntimeError(f"Cast failed, original value: {epsilon}, type: Int64Imm")
        return self._run_engine(input_x)


class RmsNorm(Primitive):
    """``(x * rstd * gamma, rstd)`` with ``rstd = 1 / sqrt(mean(x ** 2) + epsilon)`` over gamma's dims."""

    def __init__(self, epsilon=1e-6):
        super().__init__("RmsNorm")
        self.epsilon = _float_arg("RmsNorm", "epsilon", epsilon)
        self.add_prim_attr("epsilon", self.epsilon)

    def _engine_attrs(self):
        return ["epsilon", self.epsilon]

    def __call__(self, x, gamma):
        tensor = _tensor_cls()
        if not isinstance(x, tensor) or not isinstance(gamma, tensor):
            raise TypeError(f'Failed calling RmsNorm with "RmsNorm(epsilon=float)(x={_type_name(x)}, '
                            f'gamma={_type_name(gamma)})".')
        return self._run_engine(x, gamma, all_outputs=True)


class _Triangle(_OneTensor):
    """Triu / Tril of the last two dims: ``diagonal`` 0 keeps the main diagonal, 1 the one above it."""

    arg = "input"

    def __init__(self, diagonal=0):
        super().__init__()
        if isinstance(diagonal, _tensor_cls()):
            diagonal = diagonal.item()
        if not isinstance(diagonal, int) or isinstance(diagonal, bool):
            raise TypeError(f"For '{self.name}', the type of 'diagonal' should be one of '[Tensor, int]', "
                            f"but got {type(diagonal)}.")
        self.diagonal = diagonal
        self.add_prim_attr("diagonal", diagonal)

    def _engine_attrs(self):
        return ["diagonal", self.diagonal]


class Triu(_Triangle):
    """The upper triangle (``col - row >= diagonal``), zeros elsewhere."""


class Tril(_Triangle):
    """The lower triangle (``col - row <= diagonal``), zeros elsewhere."""


class _TensorScatter(Primitive):
    """``input_x`` with each index tuple's slice combined with its updates (TensorScatterUpdate, Add...)."""

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, input_x, indices, updates):
        tensor = _tensor_cls()
        if not all(isinstance(a, tensor) for a in (input_x, indices, updates)):
            raise TypeError(f'Failed calling {self.name} with "{self.name}()(input_x={_type_name(input_x)}, '
                            f'indices={_type_name(indices)}, updates={_type_name(updates)})".')
        return self._run_engine(input_x, indices, updates)


TensorScatterUpdate = type("TensorScatterUpdate", (_TensorScatter,), {"__doc__": "The tuples' slices replaced."})
TensorScatterAdd = type("TensorScatterAdd", (_TensorScatter,), {"__doc__": "The updates added."})
TensorScatterSub = type("TensorScatterSub", (_TensorScatter,), {"__doc__": "The updates subtracted."})
TensorScatterMul = type("TensorScatterMul", (_TensorScatter,), {"__doc__": "Multiplied by the updates."})
TensorScatterDiv = type("TensorScatterDiv", (_TensorScatter,), {"__doc__": "Divided by the updates."})
TensorScatterMax = type("TensorScatterMax", (_TensorScatter,), {"__doc__": "The larger of each and its update."})
TensorScatterMin = type("TensorScatterMin", (_TensorScatter,), {"__doc__": "The smaller of each and its update."})


class _ScatterNdInPlace(_TensorScatter):
    """ScatterNdUpdate / Add / Sub: the scatter written into a Parameter, whose new value is returned."""

    def __init__(self, use_locking=False):
        super().__init__()
        if not isinstance(use_locking, bool):
            raise TypeError(f"For '{self.name}', the type of 'use_locking' should be 'bool', "
                            f"but got type '{type(use_locking).__name__}'.")
        self.add_prim_attr("use_locking", use_locking)

    def _engine_attrs(self):
        return []

    def __call__(self, input_x, indices, updates):
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        if not isinstance(input_x, Parameter):
            raise TypeError(f"For '{self.name}', the 'input_x' must be a Parameter, but got {_type_name(input_x)}.")
        return super().__call__(input_x, indices, updates)


ScatterNdUpdate = type("ScatterNdUpdate", (_ScatterNdInPlace,), {"__doc__": "The tuples' slices replaced, in place."})
ScatterNdAdd = type("ScatterNdAdd", (_ScatterNdInPlace,), {"__doc__": "The updates added, in place."})
ScatterNdSub = type("ScatterNdSub", (_ScatterNdInPlace,), {"__doc__": "The updates subtracted, in place."})


class GatherD(Primitive):
    """``out[i] = x[i with i[dim] = index[i]]`` (index of x's rank; a negative index counts from the end)."""

    def __init__(self):
        super().__init__("GatherD")

    def __call__(self, x, dim, index):
        tensor = _tensor_cls()
        if isinstance(dim, tensor):
            dim = dim.item()
        if not isinstance(x, tensor) or not isinstance(index, tensor) or not _is_int(dim):
            raise TypeError(f'Failed calling GatherD with "GatherD()(x={_ms_type_name(x)}, dim={_ms_type_name(dim)}, '
                            f'index={_ms_type_name(index)})".')
        return self._run_engine(x, index, extra=("dim", dim))


class TraceV2(Primitive):
    """``TraceV2()(input, offset=0, axis1=1, axis2=0, dtype=None)``: the sums of the diagonals ``offset``
    (``input[..., i, i + offset]``, i along axis1) of the (axis1, axis2) planes; the other dims stay, in
    order. Integer inputs narrower than int64 sum to int64 unless ``dtype`` says otherwise."""

    def __init__(self):
        super().__init__("TraceV2")

    def __call__(self, input, offset=0, axis1=1, axis2=0, dtype=None):  # pylint: disable=redefined-builtin
        tensor = _tensor_cls()
        if not isinstance(input, tensor):
            raise TypeError(f"For 'TraceV2', the input 'input' must be a Tensor, but got {_type_name(input)}.")
        for name, value in (("offset", offset), ("axis1", axis1), ("axis2", axis2)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'TraceV2', the type of '{name}' should be int, but got {type(value).__name__}.")
        extra = ("offset", offset, "axis1", axis1, "axis2", axis2)
        if dtype is not None:
            extra += ("dtype", dtype.engine_name)
        return self._run_engine(input, extra=extra)
