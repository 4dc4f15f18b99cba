"""``mindspore.mint``: MindSpore 2.10's torch-style functional API, the part published parallel
scripts use. Each function is the shim's operator (so it traces, differentiates and shards by that
operator's rule) under mint's names and arguments: ``dim``/``keepdim`` for ``axis``/``keep_dims``,
``alpha`` on add and sub, ``permute``/``unsqueeze``/``cat``. Not here yet (clear errors where a name
exists in MindSpore): ``max``/``min`` with ``dim`` (values and indices)."""
from mindspore.mint import nn  # noqa: F401
from mindspore.mint.nn import functional  # noqa: F401
from mindspore.mint.nn.functional import sigmoid, relu, tanh  # noqa: F401
from mindspore.ops import function as _F
from mindspore.ops import operations as _P

__all__ = ["nn", "functional", "add", "sub", "mul", "div", "divide", "neg", "abs", "exp", "log", "sqrt", "square",
           "pow", "maximum", "minimum", "matmul", "bmm", "sum", "mean", "max", "min", "reshape", "permute",
           "transpose", "flatten", "squeeze", "unsqueeze", "cat", "concat", "split", "where", "softmax", "zeros",
           "ones", "zeros_like", "ones_like", "sigmoid", "relu", "tanh", "eq", "ne", "gt", "ge", "lt", "le"]


def _scaled(other, alpha):
    return other if alpha == 1 else other * alpha


def add(input, other, *, alpha=1):  # pylint: disable=redefined-builtin
    """``input + alpha * other``."""
    return _F.add(input, _scaled(other, alpha))


def sub(input, other, *, alpha=1):  # pylint: disable=redefined-builtin
    """``input - alpha * other``."""
    return _F.sub(input, _scaled(other, alpha))


def div(input, other, *, rounding_mode=None):  # pylint: disable=redefined-builtin
    """True division; ``rounding_mode="floor"`` floors it (``"trunc"`` is not here yet)."""
    if rounding_mode is None:
        return _F.div(input, other)
    if rounding_mode == "floor":
        return _P.FloorDiv()(input, other)
    raise NotImplementedError(f"msjvm: mint.div(rounding_mode={rounding_mode!r}) is not supported yet.")


divide = div


def _same(name, fn):
    """``fn`` under mint's name ``name`` (its arguments are already mint's)."""
    def call(*args):
        return fn(*args)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``mint.{name}``: the shim's ``{getattr(fn, '__name__', name)}``."
    return call


def _compare(name, primitive):
    """The elementwise comparison ``name(input, other)`` by ``primitive``."""
    return _same(name, lambda input, other: primitive()(input, other))  # pylint: disable=redefined-builtin


neg = _same("neg", _F.neg)
abs = _same("abs", _F.abs)  # pylint: disable=redefined-builtin
exp = _same("exp", _F.exp)
log = _same("log", _F.log)
sqrt = _same("sqrt", _F.sqrt)
square = _same("square", _F.square)
pow = _same("pow", _F.pow)  # pylint: disable=redefined-builtin
maximum = _same("maximum", _F.maximum)
minimum = _same("minimum", _F.minimum)
mul = _same("mul", _F.mul)
eq = _compare("eq", _P.Equal)
ne = _compare("ne", _P.NotEqual)
gt = _compare("gt", _P.Greater)
ge = _compare("ge", _P.GreaterEqual)
lt = _compare("lt", _P.Less)
le = _compare("le", _P.LessEqual)


def matmul(input, other):  # pylint: disable=redefined-builtin
    """Matrix product with numpy's broadcasting of batch dims (BatchMatMul above 2-D)."""
    if input.ndim > 2 or other.ndim > 2:
        return _F.batch_matmul(input, other)
    return _F.matmul(input, other)


def bmm(input, mat2):  # pylint: disable=redefined-builtin
    return _F.bmm(input, mat2)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # pylint: disable=redefined-builtin
    return _F.sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):  # pylint: disable=redefined-builtin
    if dtype is not None:
        input = input.astype(dtype)
    return _F.mean(input, dim, keepdim)


def _extreme(name, op, input, dim, keepdim):
    if dim is not None:
        raise NotImplementedError(f"msjvm: mint.{name}(input, dim) (values and indices) is not supported yet; "
                                  f"mint.{name}(input) is.")
    return op(keepdim)(input)


def max(input, dim=None, keepdim=False):  # pylint: disable=redefined-builtin
    """The largest element (``dim`` given: not here yet)."""
    return _extreme("max", _P.ReduceMax, input, dim, keepdim)


def min(input, dim=None, keepdim=False):  # pylint: disable=redefined-builtin
    """The smallest element (``dim`` given: not here yet)."""
    return _extreme("min", _P.ReduceMin, input, dim, keepdim)


def reshape(input, shape):  # pylint: disable=redefined-builtin
    return _F.reshape(input, shape)


def permute(input, dims):  # pylint: disable=redefined-builtin
    return _F.transpose(input, tuple(dims))


def transpose(input, dim0, dim1):  # pylint: disable=redefined-builtin
    """``input`` with dims ``dim0`` and ``dim1`` swapped."""
    perm = list(range(input.ndim))
    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    return _F.transpose(input, tuple(perm))


def flatten(input, start_dim=0, end_dim=-1):  # pylint: disable=redefined-builtin
    """Dims ``start_dim..end_dim`` merged into one."""
    shape = list(input.shape)
    if not shape:
        return _F.reshape(input, (1,))
    start = start_dim % len(shape)
    end = end_dim % len(shape)
    merged = 1
    for d in shape[start:end + 1]:
        merged *= d
    return _F.reshape(input, tuple(shape[:start] + [merged] + shape[end + 1:]))


def squeeze(input, dim):  # pylint: disable=redefined-builtin
    return _F.squeeze(input, dim)


def unsqueeze(input, dim):  # pylint: disable=redefined-builtin
    return _F.expand_dims(input, dim)


def cat(tensors, dim=0):
    return _F.concat(tensors, dim)


concat = cat


def split(tensor, split_size_or_sections, dim=0):
    return _F.split(tensor, split_size_or_sections, dim)


def where(condition, input, other):  # pylint: disable=redefined-builtin
    return _F.select(condition, input, other)


def softmax(input, dim, *, dtype=None):  # pylint: disable=redefined-builtin
    return _F.softmax(input, dim, dtype=dtype)


def zeros(size, *, dtype=None):
    return _F.zeros(size, dtype)


def ones(size, *, dtype=None):
    return _F.ones(size, dtype)


def zeros_like(input, *, dtype=None):  # pylint: disable=redefined-builtin
    return _F.zeros_like(input, dtype=dtype)


def ones_like(input, *, dtype=None):  # pylint: disable=redefined-builtin
    return _F.ones_like(input, dtype=dtype)
