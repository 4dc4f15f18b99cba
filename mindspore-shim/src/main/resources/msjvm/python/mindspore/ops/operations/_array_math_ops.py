"""More of MindSpore 2.10's primitives: AddN, Argmax, AssignAdd, LogicalNot, ReduceAll/ReduceAny, Slice,
Stack/Unstack (engine operators with kernels, gradients and sharding rules), the constant makers
Eye/Fill/FillV2/Ones/Zeros, and DType, Conj, InvertPermutation, Load, Partial, ApplyMomentum and
ScalarSummary.

Signatures, attributes and error texts are MindSpore 2.10's (``ops/auto_generate/gen_ops_prim.py``,
``ops/operations/array_ops.py``, ``other_ops.py``, ``nn_ops.py``, ``debug_ops.py``).
"""
import functools

from mindspore.ops.primitive import Primitive
from mindspore.ops.operations._nn_ops import _check_tensors, _tensor_cls, _type_name


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _tensors(prim, values):
    if not isinstance(values, (tuple, list)) or not values:
        raise TypeError(f"For '{prim}', the input must be a non-empty tuple or list of Tensors, "
                        f"but got {_type_name(values)}.")
    _check_tensors(prim, [f"x[{i}]" for i in range(len(values))], values)
    return values


class AddN(Primitive):
    """The sum of a tuple or list of tensors of one shape and type."""

    def __init__(self):
        super().__init__("AddN")

    def __call__(self, x):
        return self._run_engine(*_tensors("AddN", x))


class LogicalNot(Primitive):
    """Elementwise logical not (numbers: true where zero)."""

    def __init__(self):
        super().__init__("LogicalNot")

    def __call__(self, input):  # pylint: disable=redefined-builtin
        _check_tensors("LogicalNot", ("input",), (input,))
        return self._run_engine(input)


def _axes(prim, axis, rank):
    if axis is None:
        return []
    axes = [axis] if _is_int(axis) else list(axis) if isinstance(axis, (tuple, list)) else None
    if axes is None or not all(_is_int(a) for a in axes):
        raise TypeError(f"For '{prim}', the 'axis' must be an int, a tuple or a list of ints, but got {axis}.")
    for a in axes:
        if not -max(rank, 1) <= a < max(rank, 1):
            raise ValueError(f"For '{prim}', the 'axis' must be in [{-max(rank, 1)}, {max(rank, 1)}), "
                             f"but got {a}.")
    return axes


class _Logical(Primitive):
    """ReduceAll / ReduceAny: whether all / any elements along ``axis`` are true (non-zero)."""

    def __init__(self, keep_dims=False):
        super().__init__(type(self).__name__)
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For '{self.name}', the 'keep_dims' must be a bool, but got {type(keep_dims).__name__}.")
        self.add_prim_attr("keep_dims", keep_dims)

    def __call__(self, input, axis=None):  # pylint: disable=redefined-builtin
        _check_tensors(self.name, ("input",), (input,))
        return self._run_engine(input, extra=("axis", _axes(self.name, axis, input.ndim)))


class ReduceAll(_Logical):
    """Logical and over ``axis`` (None or ``()``: all dimensions)."""


class ReduceAny(_Logical):
    """Logical or over ``axis`` (None or ``()``: all dimensions)."""

    def __call__(self, x, axis=()):  # pylint: disable=arguments-renamed
        return super().__call__(x, axis)


class Argmax(Primitive):
    """The index of the first maximum along ``axis``, as ``output_type`` (int32 or int64)."""

    def __init__(self, axis=-1, output_type=None):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        super().__init__("Argmax")
        output_type = mstype.int32 if output_type is None else output_type
        if not _is_int(axis):
            raise TypeError(f"For 'Argmax', the 'axis' must be an int, but got {type(axis).__name__}.")
        if output_type not in (mstype.int32, mstype.int64):
            raise ValueError(f"Argmax error: dtype should be Int32 or Int64 but got {output_type}")
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("output_type", output_type)

    def _engine_attrs(self):
        return ["axis", self.attrs["axis"], "output_type", self.attrs["output_type"].engine_name]

    def __call__(self, input_x):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        _check_tensors("Argmax", ("input_x",), (input_x,))
        if input_x.dtype == mstype.bool_:
            raise TypeError("For 'Argmax', the input must be a numeric tensor, but got Bool.")
        return self._run_engine(input_x)


class AssignAdd(Primitive):
    """Adds ``value`` to a Parameter in place; returns the new value."""

    def __init__(self):
        super().__init__("AssignAdd")

    def __call__(self, variable, value):
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        if not isinstance(variable, Parameter):
            raise TypeError(f"For '{self.name}', the 'variable' must be a Parameter, but got {_type_name(variable)}.")
        if not isinstance(value, _tensor_cls()):
            value = _tensor_cls()(value, variable.dtype)
        return self._run_engine(variable, value)


class Slice(Primitive):
    """``size[i]`` elements of dimension ``i`` from ``begin[i]`` (-1: to the end)."""

    def __init__(self):
        super().__init__("Slice")

    def __call__(self, input, begin, size):  # pylint: disable=redefined-builtin
        _check_tensors("Slice", ("input",), (input,))
        for name, value in (("begin", begin), ("size", size)):
            if not isinstance(value, (tuple, list)) or not all(_is_int(v) for v in value):
                raise TypeError(f"For 'Slice', the '{name}' must be a tuple of ints, but got {value}.")
        shape = input.shape
        if not len(begin) == len(size) == len(shape):
            raise ValueError("For Slice, the shape of input|begin|size must be equal.")
        end = []
        for i, (b, s) in enumerate(zip(begin, size)):
            s = shape[i] - b if s == -1 else s
            if b < 0 or s < 0 or b + s > shape[i]:
                raise ValueError(f"For Slice, the sum of begin_shape[{i}] and size_shape[{i}] must be no greater "
                                 f"than input_x_shape[{i}].")
            end.append(b + s)
        return self._run_engine(input, extra=("begin", list(begin), "end", end, "strides", [1] * len(shape)))


class Stack(Primitive):
    """Joins tensors of one shape along a new ``axis``."""

    def __init__(self, axis=0):
        super().__init__("Stack")
        if not _is_int(axis):
            raise TypeError(f"For 'Stack', the type of 'axis' must be int, but got {type(axis).__name__}.")
        self.add_prim_attr("axis", axis)

    def __call__(self, x):
        return self._run_engine(*_tensors("Stack", x))


class Unstack(Primitive):
    """Splits a tensor along ``axis`` into the tensors Stack would join (a tuple)."""

    def __init__(self, axis=0, num=None):
        super().__init__("Unstack")
        if not _is_int(axis):
            raise TypeError(f"For 'Unstack', the type of 'axis' must be int, but got {type(axis).__name__}.")
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("num", num)

    def __call__(self, input_x):
        _check_tensors("Unstack", ("input_x",), (input_x,))
        return self._run_engine(input_x, all_outputs=True)


def _dtype_arg(prim, dtype):
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if dtype is None:
        return mstype.float32
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"For '{prim}', the 'dtype' must be a mindspore dtype, but got {dtype}.")
    return dtype


def _shape_arg(prim, shape):
    if _is_int(shape):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(_is_int(d) and d >= 0 for d in shape):
        raise TypeError(f"For '{prim}', the 'shape' must be an int or a tuple of non-negative ints, "
                        f"but got {shape}.")
    return tuple(shape)


def _filled(shape, dtype, value):
    from mindspore.ops import function as F  # pylint: disable=import-outside-toplevel
    return F.zeros(shape, dtype) if value == 0 else F.ones_like(F.zeros(shape, dtype)) * value


class Ones(Primitive):
    """A tensor of ones of ``shape`` and ``dtype`` (default float32)."""

    def __init__(self):
        super().__init__("Ones")

    def __call__(self, shape, dtype=None):
        return _filled(_shape_arg(self.name, shape), _dtype_arg(self.name, dtype), 1)


class Zeros(Primitive):
    """A tensor of zeros of ``size`` and ``dtype`` (default float32)."""

    def __init__(self):
        super().__init__("Zeros")

    def __call__(self, size, dtype=None):
        return _filled(_shape_arg(self.name, size), _dtype_arg(self.name, dtype), 0)


class Fill(Primitive):
    """A tensor of ``shape`` and ``type`` holding ``value``."""

    def __init__(self):
        super().__init__("Fill")

    def __call__(self, type, shape, value):  # pylint: disable=redefined-builtin
        if isinstance(value, _tensor_cls()):
            value = value.asnumpy().item() if value.ndim == 0 else value
        return _filled(_shape_arg("Fill", shape), _dtype_arg("Fill", type), value)


class FillV2(Primitive):
    """A tensor of ``shape`` holding the single value of tensor ``value`` (its dtype)."""

    def __init__(self):
        super().__init__("FillV2")

    def __call__(self, shape, value):
        if isinstance(shape, _tensor_cls()):
            shape = tuple(int(v) for v in shape.asnumpy().tolist())
        _check_tensors("FillV2", ("value",), (value,))
        return _filled(_shape_arg("FillV2", shape), value.dtype, value.asnumpy().item())


class Eye(Primitive):
    """An ``n`` x ``m`` tensor of ``dtype`` with ones on the diagonal."""

    def __init__(self):
        super().__init__("Eye")

    def __call__(self, n, m, dtype):
        for name, value in (("n", n), ("m", m)):
            if not _is_int(value) or value < 0:
                raise TypeError(f"For 'Eye', the '{name}' must be a non-negative int, but got {value}.")
        rows = [[1 if i == j else 0 for j in range(m)] for i in range(n)]
        return _tensor_cls()(rows, _dtype_arg("Eye", dtype))


class DType(Primitive):
    """The data type of a tensor (a constant in graphs)."""

    def __init__(self):
        super().__init__("DType")

    def __call__(self, x):
        _check_tensors("DType", ("input_x",), (x,))
        return x.dtype


class Conj(Primitive):
    """The complex conjugate; the engine's types are real, so the input itself."""

    def __init__(self):
        super().__init__("Conj")

    def __call__(self, input):  # pylint: disable=redefined-builtin
        _check_tensors("Conj", ("input",), (input,))
        return input


class InvertPermutation(Primitive):
    """The inverse of a permutation given as a tuple or list of ints (a constant)."""

    def __init__(self):
        super().__init__("InvertPermutation")

    def __call__(self, x):
        if not isinstance(x, (tuple, list)) or not all(_is_int(v) for v in x):
            raise TypeError(f"For 'InvertPermutation', the 'input_x' must be a tuple or list of ints, but got {x}.")
        if sorted(x) != list(range(len(x))):
            raise ValueError(f"For 'InvertPermutation', the values of 'input_x' must be a permutation of "
                             f"[0, {len(x)}), but got {x}.")
        inverse = [0] * len(x)
        for i, v in enumerate(x):
            inverse[v] = i
        return type(x)(inverse)


class Load(Primitive):
    """The value a Parameter holds (MindSpore's graphs load parameters through it; ``u`` is its monad)."""

    def __init__(self):
        super().__init__("Load")

    def __call__(self, para, u=None):  # pylint: disable=unused-argument
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        if not isinstance(para, Parameter):
            raise TypeError(f"For 'Load', the 'para' must be a Parameter, but got {_type_name(para)}.")
        return self._run_engine(para)


class Partial(Primitive):
    """``Partial()(fn, *args)``: ``fn`` with its first arguments bound."""

    def __init__(self):
        super().__init__("Partial")

    def __call__(self, *args):
        if not args or not callable(args[0]):
            raise TypeError("For 'Partial', the first input must be a function.")
        return functools.partial(args[0], *args[1:])


class ApplyMomentum(Primitive):
    """``accum = accum * momentum + gradient``; ``variable -= lr * accum`` (Nesterov: MindSpore's form)."""

    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        super().__init__("ApplyMomentum")
        for name, value in (("use_nesterov", use_nesterov), ("use_locking", use_locking)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'ApplyMomentum', the '{name}' must be a bool, but got {type(value).__name__}.")
        self.add_prim_attr("use_nesterov", use_nesterov)
        self.add_prim_attr("use_locking", use_locking)
        self.add_prim_attr("gradient_scale", float(gradient_scale))

    def __call__(self, variable, accumulation, learning_rate, gradient, momentum):
        tensor = _tensor_cls()
        args = [a if isinstance(a, tensor) else tensor(a, variable.dtype) for a in
                (variable, accumulation, learning_rate, gradient, momentum)]
        if self.attrs["gradient_scale"] != 1.0:
            args[3] = args[3] * self.attrs["gradient_scale"]
        return self._run_engine(*args)

    def _engine_attrs(self):
        return ["use_nesterov", self.attrs["use_nesterov"]]


class ScalarSummary(Primitive):
    """Records a scalar for a SummaryRecord under ``name``; nothing is recorded without one."""

    def __init__(self):
        super().__init__("ScalarSummary")

    def __call__(self, name, value):
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'ScalarSummary', the name must be a non-empty string, but got {name!r}.")
        _check_tensors("ScalarSummary", ("value",), (value,))
        if value.size != 1:
            raise ValueError(f"For 'ScalarSummary', the value must be a scalar or a tensor of one element, "
                             f"but got a tensor of shape {value.shape}.")


class MaxPoolWithArgmax(Primitive):
    """Max pooling that also returns where each maximum is (int32, within its sample)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        from mindspore.ops.operations._nn_ops import _pair  # pylint: disable=import-outside-toplevel
        super().__init__("MaxPoolWithArgmax")
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For 'MaxPoolWithArgmax', the 'pad_mode' must be one of ['VALID', 'SAME'], "
                             f"but got '{pad_mode}'.")
        self.add_prim_attr("kernel_size", (1, 1) + _pair(self.name, "kernel_size", kernel_size))
        self.add_prim_attr("strides", (1, 1) + _pair(self.name, "strides", strides))
        self.add_prim_attr("pad_mode", pad_mode.upper())
        self.add_prim_attr("data_format", data_format)

    def __call__(self, x):
        _check_tensors(self.name, ("x",), (x,))
        return self._run_engine(x, all_outputs=True)


class ResizeBilinearV2(Primitive):
    """Bilinear resizing of NCHW images to ``size`` (a tuple or list of two ints, or a tensor)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        super().__init__("ResizeBilinearV2")
        for arg, value in (("align_corners", align_corners), ("half_pixel_centers", half_pixel_centers)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'ResizeBilinearV2', the '{arg}' must be a bool, but got {type(value).__name__}.")
        self.add_prim_attr("align_corners", align_corners)
        self.add_prim_attr("half_pixel_centers", half_pixel_centers)

    def __call__(self, image, size):
        _check_tensors(self.name, ("image",), (image,))
        if isinstance(size, _tensor_cls()):
            size = size.asnumpy().tolist()
        if not isinstance(size, (tuple, list)) or len(size) != 2 or not all(_is_int(v) for v in size):
            raise TypeError(f"For 'ResizeBilinearV2', the 'size' must be a tuple or list of two ints, but got {size}.")
        return self._run_engine(image, extra=("size", list(size)))
