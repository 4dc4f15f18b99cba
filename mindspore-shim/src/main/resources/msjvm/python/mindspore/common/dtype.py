"""``mindspore.dtype`` / ``mindspore.common.dtype``: MindSpore's data types.

A type prints as MindSpore's name (``str(mindspore.float32) == "Float32"``) and repr's as its
attribute path (``mindspore.float32``). The engine implements the twelve element types below
(complex64 and complex128 are stored, converted and printed; of the operators only Real, Imag,
Complex, Cast and the reshapes take them); other MindSpore types (uint16/32/64, float8...) are not
supported yet and are not defined.
"""

__all__ = ['Type', 'bool_', 'int8', 'byte', 'int16', 'short', 'int32', 'intc', 'int64', 'long', 'intp',
           'uint8', 'ubyte', 'float16', 'half', 'float32', 'single', 'float64', 'double', 'bfloat16',
           'complex64', 'complex128', 'number_type', 'int_type', 'uint_type', 'float_type', 'complex_type',
           'all_types',
           'dtype_to_nptype', 'dtype_to_pytype', 'pytype_to_dtype', 'get_py_obj_dtype']


class Type:
    """One element type; ``engine_name`` is the name of the Java ``DType`` constant."""

    __slots__ = ("_name", "_attr", "engine_name")

    def __init__(self, name, attr, engine_name):
        self._name = name
        self._attr = attr
        self.engine_name = engine_name

    def __str__(self):
        return self._name

    def __repr__(self):
        return f"mindspore.{self._attr}"

    def __eq__(self, other):
        return isinstance(other, Type) and other.engine_name == self.engine_name

    def __hash__(self):
        return hash(self.engine_name)

    def __reduce__(self):
        return (_by_engine_name, (self.engine_name,))


bool_ = Type("Bool", "bool_", "BOOL")
int8 = Type("Int8", "int8", "INT8")
int16 = Type("Int16", "int16", "INT16")
int32 = Type("Int32", "int32", "INT32")
int64 = Type("Int64", "int64", "INT64")
uint8 = Type("UInt8", "uint8", "UINT8")
float16 = Type("Float16", "float16", "FLOAT16")
float32 = Type("Float32", "float32", "FLOAT32")
float64 = Type("Float64", "float64", "FLOAT64")
bfloat16 = Type("BFloat16", "bfloat16", "BFLOAT16")
complex64 = Type("Complex64", "complex64", "COMPLEX64")
complex128 = Type("Complex128", "complex128", "COMPLEX128")

byte = int8
short = int16
intc = int32
long = int64
intp = int64
ubyte = uint8
half = float16
single = float32
double = float64

int_type = (int8, int16, int32, int64)
uint_type = (uint8,)
float_type = (float16, float32, float64, bfloat16)
complex_type = (complex64, complex128)
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type

_BY_ENGINE_NAME = {t.engine_name: t for t in all_types}

_NP_NAMES = {"BOOL": "bool_", "INT8": "int8", "INT16": "int16", "INT32": "int32", "INT64": "int64",
             "UINT8": "uint8", "FLOAT16": "float16", "FLOAT32": "float32", "FLOAT64": "float64",
             "BFLOAT16": "float32", "COMPLEX64": "complex64", "COMPLEX128": "complex128"}


def _by_engine_name(name):
    return _BY_ENGINE_NAME[name]


def dtype_to_nptype(type_):
    """The numpy type of a MindSpore type (bfloat16 maps to float32, as asnumpy converts it)."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    return getattr(np, _NP_NAMES[type_.engine_name])


def dtype_to_pytype(type_):
    """The Python scalar type of a MindSpore type."""
    if type_ == bool_:
        return bool
    if type_ in int_type or type_ in uint_type:
        return int
    if type_ in complex_type:
        return complex
    return float


def pytype_to_dtype(obj):
    """The MindSpore type for a Python type or numpy dtype."""
    if isinstance(obj, Type):
        return obj
    if obj is bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float64
    if obj is complex:
        return complex128
    name = getattr(obj, "__name__", None) or str(obj)
    for engine_name, np_name in _NP_NAMES.items():
        if np_name.rstrip("_") == str(name).rstrip("_") and engine_name != "BFLOAT16":
            return _BY_ENGINE_NAME[engine_name]
    raise NotImplementedError(f"The python type {obj} cannot be converted to MindSpore type.")


def get_py_obj_dtype(obj):
    """The MindSpore type of a Python object (a type, a Tensor, or a scalar)."""
    if isinstance(obj, Type):
        return obj
    if isinstance(obj, type):
        return pytype_to_dtype(obj)
    if hasattr(obj, "dtype") and isinstance(obj.dtype, Type):
        return obj.dtype
    return pytype_to_dtype(type(obj))
