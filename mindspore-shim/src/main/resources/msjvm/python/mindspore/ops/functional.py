"""``mindspore.ops.functional`` (``F``): the functional forms (``ops.function``'s) and the helpers
MindSpore's older scripts and tests take from this module: ``depend``, ``dtype``, ``partial``,
``tensor_mul``, ``assign``, ``identity``, ``tuple_to_array``, ``scalar_to_tensor``, ``make_range``,
``tuple_len``."""
from mindspore.ops.function import *  # noqa: F401,F403
from mindspore.ops import function as _function
from mindspore.ops import operations as _P

depend = _P.Depend()
dtype = _P.DType()
partial = _P.Partial()
tensor_mul = _P.Mul()
tensor_add = _P.Add()


def assign(variable, value):
    """Sets Parameter ``variable`` to ``value``; returns the value written."""
    return _P.Assign()(variable, value)


def identity(x):
    """``x`` itself."""
    return _P.Identity()(x)


def tuple_to_array(input_x):
    """A 1-D tensor of a tuple of numbers, typed by its first element (int32 or float32), as MindSpore
    does; a list gives None there too."""
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if isinstance(input_x, list):
        return None
    first = input_x[0]
    kind = mstype.float32 if isinstance(first, float) else mstype.int32
    return Tensor([int(v) if kind == mstype.int32 else float(v) for v in input_x], kind)


def scalar_to_tensor(input_x, dtype=None):  # pylint: disable=redefined-outer-name
    """A 0-D tensor of a Python number (float32 unless ``dtype`` says otherwise)."""
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    return Tensor(input_x, mstype.float32 if dtype is None else dtype)


def make_range(start, limit=None, delta=1):
    """``tuple(range(start, limit, delta))``; one argument is the limit."""
    if limit is None:
        start, limit = 0, start
    return tuple(range(start, limit, delta))


def tuple_len(x):
    """The length of a tuple."""
    return len(x)


__all__ = [n for n in vars(_function) if not n.startswith("_")] + [
    "depend", "dtype", "partial", "tensor_mul", "tensor_add", "assign", "identity", "tuple_to_array",
    "scalar_to_tensor", "make_range", "tuple_len"]
