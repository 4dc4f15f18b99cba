"""``mindspore.Tensor``: a dense tensor whose data lives in the Java engine.

Construction follows MindSpore 2.10: Python bools build Bool tensors, ints Int64, floats Float32
(any float in a list makes it Float32); numpy arrays keep their type; ``dtype`` casts with numpy's
rules (floats truncate toward zero). Arithmetic operators run eagerly in the engine
(``Elementwise``) with MindSpore's result types.
"""
import numbers

from mindspore._host import host, to_python
from mindspore.common import dtype as mstype
from mindspore.common._nested import bulk_bytes, nested_list, plain_tensor

__all__ = ["Tensor"]

_SUPPORTED_INPUT = "['TensorPy', 'Tensor', 'ndarray', 'str_', 'list', 'tuple', 'float', 'int', 'bool', " \
                   "'complex', 'bytes']"
_DTYPE_LIST = ("[mindspore.int8, mindspore.int16, mindspore.int32, mindspore.int64, mindspore.uint8, "
               "mindspore.uint16, mindspore.uint32, mindspore.uint64, mindspore.float16, mindspore.float32, "
               "mindspore.float64, mindspore.bfloat16, mindspore.complex64, mindspore.complex128, "
               "mindspore.int4, mindspore.float8_e4m3fn, mindspore.float8_e5m2, mindspore.hifloat8, "
               "mindspore.bool, mindspore.string_]")
_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1
_NUMPY_TO_ENGINE = {"bool": "BOOL", "int8": "INT8", "int16": "INT16", "int32": "INT32", "int64": "INT64",
                    "uint8": "UINT8", "float16": "FLOAT16", "float32": "FLOAT32", "float64": "FLOAT64",
                    "complex64": "COMPLEX64", "complex128": "COMPLEX128"}


def _numpy_array_type():
    try:
        import numpy  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return numpy.ndarray


def _flatten(data, original):
    """Row-major values and shape of nested lists/tuples; TypeError for ragged or odd elements."""
    if isinstance(data, (list, tuple)):
        if not data:
            return [], [0]
        parts = [_flatten(x, original) for x in data]
        inner = parts[0][1]
        if any(p[1] != inner for p in parts):
            raise TypeError(f"For Tensor, the input_data is {original} that contain unsupported element.")
        return [v for p in parts for v in p[0]], [len(data)] + inner
    if isinstance(data, Tensor) and data.ndim == 0:
        return [data.item()], []
    if isinstance(data, (bool, numbers.Number)):
        return [data], []
    raise TypeError(f"For Tensor, the input_data is {original} that contain unsupported element.")


def _infer_dtype(values):
    if any(isinstance(v, complex) for v in values):
        return mstype.complex128
    if any(isinstance(v, float) or (isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral))
           for v in values):
        return mstype.float32
    if values and all(isinstance(v, bool) for v in values):
        return mstype.bool_
    if not values:
        return mstype.float32
    return mstype.int64


def _dynamic_placeholder(tensor, shape, dtype):
    """``Tensor(shape=[Symbol(...), None, 28], dtype=...)``: no values, only the shape (-1 where it is
    dynamic), the dtype and, with Symbols, ``symbolic_shape`` (their constraints as dicts), as
    ``Cell.set_inputs`` takes them."""
    from mindspore.graph.symbol import Symbol  # pylint: disable=import-outside-toplevel
    tensor.__dict__["_dyn_shape"] = tuple(-1 if d is None or isinstance(d, Symbol) or d == -1 else int(d)
                                          for d in shape)
    tensor.__dict__["_dyn_dtype"] = dtype
    if any(isinstance(d, Symbol) for d in shape):
        tensor.__dict__["symbolic_shape"] = [d.to_dict() if isinstance(d, Symbol) else d for d in shape]


class Tensor:
    """A tensor: ``Tensor(input_data=None, dtype=None, shape=None, init=None)``."""

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
        # pylint: disable=unused-argument
        if dtype is not None and not isinstance(dtype, mstype.Type):
            name = getattr(dtype, "__name__", str(dtype))
            raise TypeError(f"For 'Tensor', the 'dtype' should be one of {_DTYPE_LIST}, but got '{name}'.")
        if init is not None:
            _defer_init(self, input_data, dtype, shape, init)
            return
        ndarray = _numpy_array_type()
        if input_data is None:
            if shape is None:
                raise TypeError(f"For 'Tensor', the type of 'input_data' should be one of '{_SUPPORTED_INPUT}', "
                                f"but got type 'NoneType'.")
            shape = [shape] if isinstance(shape, int) else list(shape)
            from mindspore.graph.symbol import Symbol  # pylint: disable=import-outside-toplevel
            if any(d is None or isinstance(d, Symbol) or d == -1 for d in shape):
                _dynamic_placeholder(self, shape, dtype or mstype.float32)
                return
            self._java = host().tensorZeros((dtype or mstype.float32).engine_name, shape).java
            return
        if isinstance(input_data, Tensor):
            java = host().valueOf(input_data._java).java
            if dtype is not None and dtype != input_data.dtype:
                java = host().tensorAstype(java, dtype.engine_name).java
            self._java = java
            return
        if ndarray is not None and isinstance(input_data, ndarray):
            self._java = _from_numpy(input_data, dtype)
            return
        if isinstance(input_data, (str, bytes)) or not isinstance(
                input_data, (list, tuple, bool, numbers.Number)):
            raise TypeError(f"For 'Tensor', the type of 'input_data' should be one of '{_SUPPORTED_INPUT}', "
                            f"but got type '{type(input_data).__name__}'.")
        if isinstance(input_data, (list, tuple)):
            # Plain nested lists of bool/int/float are converted in bulk; anything else (and every
            # error) takes the element-wise path below.
            fast = plain_tensor(input_data, dtype.engine_name if dtype else None, "FLOAT32")
            if fast is not None:
                self._java = fast
                return
        values, dims = _flatten(input_data, input_data)
        for v in values:
            if isinstance(v, numbers.Integral) and not _INT64_MIN <= int(v) <= _INT64_MAX:
                raise RuntimeError("Unsupported tensor type!")
        if any(not isinstance(v, numbers.Real) for v in values):
            values = [complex(v) for v in values]
            java = host().tensorOfComplex("COMPLEX128", dims, [v.real for v in values],
                                          [v.imag for v in values]).java
            if dtype is not None and dtype != mstype.complex128:
                java = host().tensorAstype(java, dtype.engine_name).java
            self._java = java
            return
        values = [bool(v) if isinstance(v, bool) else int(v) if isinstance(v, numbers.Integral) else float(v)
                  for v in values]
        target = dtype or _infer_dtype(values)
        self._java = host().tensorOf(target.engine_name, dims, values).java

    # ---- Deferred initialization (``Tensor(shape=..., dtype=..., init=One())``, ``initializer``) ----
    # A deferred tensor has ``init`` set and no ``_java`` yet; ``init_data()`` fills it, and so does
    # the first use of its data (``__getattr__`` runs only when ``_java`` is missing). MindSpore 2.10
    # fills on ``asnumpy()`` too but raises for an operator on an uninitialized tensor.
    init = None

    @property
    def has_init(self):
        """Whether this tensor still waits for ``init_data()``."""
        return self.init is not None

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):  # pylint: disable=unused-argument
        """Fills this tensor from its ``init`` (once) and returns it."""
        if self.init is None:
            raise TypeError("init_data must be set Tensor.init, init can't be None")
        from mindspore.common.initializer import _fill_java  # pylint: disable=import-outside-toplevel
        self._java = _fill_java(self.init, self._init_shape if shape is None else tuple(shape), self._init_dtype,
                                self.__dict__.get("_pinned_seed"))
        self.init = None
        return self

    def __getattr__(self, name):
        if name == "_java" and self.__dict__.get("init") is not None:
            return self.init_data()._java
        if name == "_java" and "_dyn_shape" in self.__dict__:
            raise NotImplementedError(
                f"A Tensor of dynamic shape {list(self._dyn_shape)} holds no values: msjvm uses it to check "
                f"the inputs given by set_inputs, and compiles a graph for each shape the cell is called with; "
                f"compiling or computing with the placeholder itself is not supported yet.")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    # ---- end of deferred initialization ----

    @classmethod
    def _wrap(cls, java):
        t = cls.__new__(cls)
        t._java = java
        return t

    @property
    def shape(self):
        """The dimensions, as a tuple (-1 for a dynamic one)."""
        if "_dyn_shape" in self.__dict__:
            return self._dyn_shape
        if self.init is not None:
            return self._init_shape
        return tuple(host().tensorShape(self._java))

    @property
    def dtype(self):
        """The element type (``mindspore.float32``...)."""
        if "_dyn_shape" in self.__dict__:
            return self._dyn_dtype
        if self.init is not None:
            return self._init_dtype
        return mstype._by_engine_name(host().tensorDtype(self._java))  # pylint: disable=protected-access

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def dim(self):
        return self.ndim

    def numel(self):
        return self.size

    def tolist(self):
        """The values as (nested) Python lists of bool/int/float; a scalar for a 0-d tensor."""
        return nested_list(self._java, self.dtype.engine_name, self.shape)

    def item(self):
        """The value of a one-element tensor as a Python scalar."""
        if self.size != 1:
            raise ValueError(f"The tensor should have only one element, but got {self.size}, "
                             "more than one element is ambiguous.")
        if self.dtype in mstype.complex_type:
            value = self.tolist()
            while isinstance(value, list):
                value = value[0]
            return value
        value = host().tensorToList(self._java)  # one element: one call, no byte decoding
        while isinstance(value, list):
            value = value[0]
        return value

    def is_complex(self):
        """Whether this tensor's type is complex64 or complex128."""
        return self.dtype in mstype.complex_type

    def is_floating_point(self):
        """Whether this tensor's type is a float type."""
        return self.dtype in mstype.float_type

    def astype(self, dtype, copy=True):  # pylint: disable=unused-argument
        """This tensor converted to ``dtype``."""
        if not isinstance(dtype, mstype.Type):
            dtype = mstype.pytype_to_dtype(dtype)
        return Tensor._wrap(host().tensorAstype(self._java, dtype.engine_name).java)

    def asnumpy(self):
        """A numpy array with this tensor's values: from the tensor's raw bytes in one piece (the
        nested lists of ``tolist`` cost 23 s for a 4 MiB tensor), or through ``tolist`` for small
        tensors and types numpy has no buffer for."""
        import numpy as np  # pylint: disable=import-outside-toplevel
        nptype = mstype.dtype_to_nptype(self.dtype)
        engine = self.dtype.engine_name
        bulk = bulk_bytes(self._java, engine, self.shape)
        if bulk is not None:
            wide = np.float32 if engine in ("FLOAT16", "BFLOAT16") else nptype
            return np.frombuffer(bulk[1], dtype=wide).reshape(self.shape).astype(nptype)
        return np.array(self.tolist(), dtype=nptype)

    def __str__(self):
        if self.init is not None:
            return _uninitialized_text(self)
        if self.dtype in mstype.complex_type:
            return str(self.asnumpy())  # MindSpore's str is numpy's
        return host().tensorStr(self._java)

    def __repr__(self):
        if self.init is not None:
            return _uninitialized_text(self)
        if "_dyn_shape" in self.__dict__:
            return f"Tensor(shape={list(self._dyn_shape)}, dtype={self._dyn_dtype}, value=\n)"
        return host().tensorRepr(self._java)

    def __getitem__(self, index):
        from mindspore.common._indexing import getitem  # pylint: disable=import-outside-toplevel
        return getitem(self, index)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __bool__(self):
        return bool(self.item())

    def __int__(self):
        return int(self.item())

    def __float__(self):
        return float(self.item())

    def __index__(self):
        if self.dtype not in mstype.int_type + mstype.uint_type:
            raise TypeError("Only integer tensors of a single element can be converted to an index.")
        return int(self.item())


    # Arithmetic and comparisons: one engine call each; operands are Tensors or Python scalars.
    def _binary(self, op, other, reflected=False):
        if isinstance(other, Tensor):
            x, y = (other, self) if reflected else (self, other)
            return Tensor._wrap(host().binary(op, x._java, y._java).java)
        if isinstance(other, bool):
            scalar = other
        elif isinstance(other, numbers.Integral):
            scalar = int(other)
        elif isinstance(other, numbers.Real):
            scalar = float(other)
        else:
            return NotImplemented
        return Tensor._wrap(host().binaryScalar(op, self._java, scalar, reflected).java)

    def _matmul(self, other, transpose_a=False, transpose_b=False):
        return Tensor._wrap(host().matmul(self._java, other._java, transpose_a, transpose_b).java)

    def _reduce(self, op, axis, keepdims):
        from mindspore.ops.operations import _reduce  # pylint: disable=import-outside-toplevel
        axes = [] if axis is None else [axis] if isinstance(axis, int) else list(axis)
        return _reduce(op, op, self, axes, keepdims)

    def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
        """Sum over ``axis`` (None: all); integer and bool tensors sum as int64."""
        from mindspore.ops.function import sum as _sum  # pylint: disable=import-outside-toplevel
        result = _sum(self, axis, keepdims, dtype=dtype)
        return result if initial is None else result + initial

    def mean(self, axis=None, keep_dims=False):
        """Mean over ``axis`` (None: all); integer tensors keep their type."""
        return self._reduce("ReduceMean", axis, keep_dims)

    def max(self, axis=None, keepdims=False):
        """Maximum over ``axis`` (None: all)."""
        return self._reduce("ReduceMax", axis, keepdims)

    def min(self, axis=None, keepdims=False):
        """Minimum over ``axis`` (None: all)."""
        return self._reduce("ReduceMin", axis, keepdims)

    def argmax(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        """Index (int64) of the first maximum along ``axis`` (or ``dim``); None: of all elements."""
        from mindspore.ops.function.math_func import argmax  # pylint: disable=import-outside-toplevel
        return argmax(self, axis if dim is None else dim, keepdims if keepdim is None else keepdim)

    def argmin(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        """Index (int32) of the first minimum along ``axis`` (or ``dim``); None: of all elements."""
        from mindspore.ops.function.math_func import argmin  # pylint: disable=import-outside-toplevel
        return argmin(self, axis if dim is None else dim, keepdims if keepdim is None else keepdim)

    def reshape(self, *shape):
        """This tensor with a new shape (``reshape(3, 2)`` or ``reshape((3, 2))``)."""
        from mindspore.ops.operations import Reshape  # pylint: disable=import-outside-toplevel
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return Reshape()(self, tuple(shape))

    def transpose(self, *axes):
        """Dimensions permuted by ``axes`` (reversed when none are given)."""
        from mindspore.ops.operations import Transpose  # pylint: disable=import-outside-toplevel
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = axes[0]
        if not axes:
            axes = tuple(range(self.ndim - 1, -1, -1))
        return Transpose()(self, tuple(axes))

    @property
    def T(self):  # pylint: disable=invalid-name
        """The transpose (dimensions reversed)."""
        return self.transpose()

    def flatten(self):
        """A 1-D copy of the values."""
        return self.reshape((-1,))

    def squeeze(self, axis=None):
        """Without size-1 dimensions (only those in ``axis`` when given)."""
        from mindspore.ops.operations import Squeeze  # pylint: disable=import-outside-toplevel
        return Squeeze(() if axis is None else axis)(self)

    def expand_dims(self, axis):
        """With a size-1 dimension inserted at ``axis``."""
        from mindspore.ops.operations import ExpandDims  # pylint: disable=import-outside-toplevel
        return ExpandDims()(self, axis)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return self._matmul(other)

    def _unary(self, op):
        return Tensor._wrap(host().unary(op, self._java).java)

    # Primitive names as Tensor's operators use them in MindSpore 2.10 (they appear in errors).
    def __add__(self, other):
        return self._binary("AddExt", other)

    def __radd__(self, other):
        return self._binary("AddExt", other, True)

    def __sub__(self, other):
        return self._binary("SubExt", other)

    def __rsub__(self, other):
        return self._binary("SubExt", other, True)

    def __mul__(self, other):
        return self._binary("Mul", other)

    def __rmul__(self, other):
        return self._binary("Mul", other, True)

    def __truediv__(self, other):
        return self._binary("Div", other)

    def __rtruediv__(self, other):
        return self._binary("Div", other, True)

    def __floordiv__(self, other):
        return self._binary("FloorDiv", other)

    def __rfloordiv__(self, other):
        return self._binary("FloorDiv", other, True)

    def __mod__(self, other):
        return self._binary("FloorMod", other)

    def __rmod__(self, other):
        return self._binary("FloorMod", other, True)

    def __pow__(self, other):
        return self._binary("Pow", other)

    def __rpow__(self, other):
        return self._binary("Pow", other, True)

    def __eq__(self, other):
        return self._binary("Equal", other)

    def __ne__(self, other):
        return self._binary("NotEqual", other)

    def __lt__(self, other):
        return self._binary("Less", other)

    def __le__(self, other):
        return self._binary("LessEqual", other)

    def __gt__(self, other):
        return self._binary("Greater", other)

    def __ge__(self, other):
        return self._binary("GreaterEqual", other)

    __hash__ = object.__hash__

    def __neg__(self):
        return self._unary("Neg")

    def __abs__(self):
        return self._unary("Abs")


def _defer_init(tensor, input_data, dtype, shape, init):
    """Makes ``tensor`` a deferred one (MindSpore's checks for ``Tensor(..., init=...)``)."""
    if input_data is not None and shape is not None:
        raise ValueError(f"When initializing a tensor with 'input_data', 'shape' should be set to None."
                         f"But got shape: {shape}.")
    if shape is None or dtype is None:
        raise ValueError("init, dtype and shape must have values at the same time.")
    tensor.init = init
    tensor._init_shape = (shape,) if isinstance(shape, int) else tuple(shape)  # pylint: disable=protected-access
    tensor._init_dtype = dtype  # pylint: disable=protected-access


def _uninitialized_text(tensor):
    return f"Tensor(shape={list(tensor.shape)}, dtype={tensor.dtype}, value=\n<uninitialized>)"


def _from_numpy(array, dtype):
    import numpy as np  # pylint: disable=import-outside-toplevel
    name = _NUMPY_TO_ENGINE.get(array.dtype.name)
    if name is None:
        raise TypeError(f"For 'Tensor', the numpy type {array.dtype} is not supported.")
    target = dtype.engine_name.lower() if dtype is not None else None
    if target in ("float16", "float32", "float64") and array.dtype.kind == "f" and name.lower() != target:
        # float to float in numpy (the same rounding): no whole-size copy of the wider type in the engine
        array = array.astype(target)
        name = target.upper()
    data = np.ascontiguousarray(array)
    if data.dtype.byteorder == ">":
        data = data.astype(data.dtype.newbyteorder("<"))
    java = host().tensorFromBytes(name, list(array.shape), data.tobytes()).java
    if dtype is not None and dtype.engine_name != name:
        java = host().tensorAstype(java, dtype.engine_name).java
    return java
