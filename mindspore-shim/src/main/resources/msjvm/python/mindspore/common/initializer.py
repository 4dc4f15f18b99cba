"""``mindspore.common.initializer``: ``initializer(init, shape, dtype)`` and the Initializer classes.

Follows MindSpore 2.10's ``mindspore/common/initializer.py``: the same aliases ('normal', 'zeros',
'xavier_uniform', 'truncatedNormal'...), argument checks, messages and fan computation.
``initializer(...)`` returns a Tensor whose ``init`` is set; it materializes on ``init_data()`` (or,
here, on first use). The random values are MindSpore's own: each random fill draws a seed from
this interpreter's stream (numpy's ``randint(1, 2**63)`` on the generator ``set_seed`` seeds, in
MindSpore) and runs MindSpore's Philox kernels, all in Java (``dev.msjvm.shim.InitHost``).
Initializer subclasses written by users (``_initialize(self, arr)`` on a numpy array) need numpy.
"""
import math
import numbers
from functools import reduce

from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.common.seed import get_seed
from mindspore.common.tensor import Tensor

_INITIALIZER_ALIAS = {}

# One fill host per interpreter: its seed stream is this interpreter's "numpy global generator".
_INIT_HOST = host().initializers()


def _reseed(seed):
    """``set_seed(s)`` re-seeds the initializers' seed stream, as MindSpore's re-seeds numpy."""
    _INIT_HOST.reseed(seed)


def _shape_list(shape):
    return [int(d) for d in shape]


class Initializer:
    r"""The abstract base class of the initializers: ``Initializer(**kwargs)``."""

    # Whether a fill draws one seed from the interpreter's stream (the random initializers).
    _draws_seed = False

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._seed = None

    @property
    def seed(self):
        if self._seed is None:
            seed = get_seed()
            seed, seed2 = (0 if seed is None else seed), 0
        else:
            seed, seed2 = self._seed + 1, 0
        return seed, seed2

    @seed.setter
    def seed(self, value):
        self._seed = value

    def _initialize(self, *kwargs):
        raise NotImplementedError('Must be overridden!')

    def __call__(self, arr):
        return self._initialize(arr)

    # Engine fill: a Java tensor of ``shape`` and ``dtype`` holding this initializer's values.
    # Built-in initializers override _fill; other subclasses run _initialize on a numpy array.
    def _fill(self, shape, dtype):
        if type(self)._initialize is Initializer._initialize:
            raise NotImplementedError('Must be overridden!')
        import numpy as np  # pylint: disable=import-outside-toplevel
        arr = np.zeros(tuple(shape), dtype=mstype.dtype_to_nptype(dtype))
        self._initialize(arr)
        return Tensor(arr, dtype)._java


class _BuiltinInitializer(Initializer):
    """Initializers whose values come from the engine; calling one on a numpy array fills it."""

    def _initialize(self, arr):
        import numpy as np  # pylint: disable=import-outside-toplevel
        dtype = mstype.pytype_to_dtype(arr.dtype)
        values = Tensor._wrap(self._fill(list(arr.shape), dtype)).tolist()  # pylint: disable=protected-access
        arr[...] = np.array(values, dtype=arr.dtype)
        return arr


def _register(*aliases):
    """Return the alias register."""
    def alias_reg(cls):
        name = cls.__name__
        name = name.lower()
        if name not in _INITIALIZER_ALIAS:
            _INITIALIZER_ALIAS[name] = cls

        for alias in aliases:
            if alias not in _INITIALIZER_ALIAS:
                _INITIALIZER_ALIAS[alias] = cls

        return cls

    return alias_reg


def _pin_seed(init):
    """The seed a deferred random fill will use, drawn now, when its Parameter is created: the stream
    then stays in construction order, so a semi_auto run starts from the stand-alone run's weights
    whatever order the deferred fills run in. None for a fill that draws none."""
    return int(_INIT_HOST.nextSeed()) if getattr(init, "_draws_seed", False) else None


def _random_normal(mean, sigma, shape, dtype):
    if sigma < 0:
        raise ValueError("sigma < 0")
    return _INIT_HOST.normal(dtype.engine_name, _shape_list(shape), float(mean), float(sigma)).java


def _random_uniform(a, b, shape, dtype):
    return _INIT_HOST.uniform(dtype.engine_name, _shape_list(shape), float(a), float(b)).java


def _truncated_normal(a, b, mean, sigma, shape, dtype):
    if sigma < 0:
        raise ValueError("sigma < 0")
    return _INIT_HOST.truncatedNormal(dtype.engine_name, _shape_list(shape), float(a), float(b),
                                      float(mean), float(sigma)).java


def _filled(value, shape, dtype):
    if not isinstance(value, (bool, int, float)):
        value = value.item() if hasattr(value, "item") else float(value)
    return _INIT_HOST.filled(dtype.engine_name, _shape_list(shape), value).java


@_register('zeros')
class Zero(_BuiltinInitializer):
    """Fills with zeros."""

    def _fill(self, shape, dtype):
        return _filled(0, shape, dtype)


@_register('ones')
class One(_BuiltinInitializer):
    """Fills with ones."""

    def _fill(self, shape, dtype):
        return _filled(1, shape, dtype)


def _calculate_fan_in_and_fan_out(shape):
    """``(fan_in, fan_out)`` of a weight of ``shape`` (at least 2-D)."""
    dimensions = len(shape)
    if dimensions < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than"
                         " 2 dimensions, but got dimensions {}.".format(dimensions))
    if dimensions == 2:  # Linear
        fan_in = shape[1]
        fan_out = shape[0]
    else:
        num_input_fmaps = shape[1]
        num_output_fmaps = shape[0]
        receptive_field_size = 1
        for i in range(2, dimensions):
            receptive_field_size *= shape[i]
        fan_in = num_input_fmaps * receptive_field_size
        fan_out = num_output_fmaps * receptive_field_size
    return fan_in, fan_out


def _calculate_correct_fan(shape, mode):
    """fan_in or fan_out, by ``mode``."""
    mode = mode.lower()
    valid_modes = ['fan_in', 'fan_out']
    if mode not in valid_modes:
        raise ValueError("'mode' {} not supported, please use one of {}".format(mode, valid_modes))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    return fan_in if mode == 'fan_in' else fan_out


def _calculate_gain(nonlinearity, param=None):
    """The recommended gain of ``nonlinearity``."""
    linear_fns = ['linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d']
    if nonlinearity in linear_fns or nonlinearity == 'sigmoid':
        res = 1
    elif nonlinearity == 'tanh':
        res = 5.0 / 3
    elif nonlinearity == 'relu':
        res = math.sqrt(2.0)
    elif nonlinearity == 'leaky_relu':
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            # True/False are instances of int, hence check above
            negative_slope = param
        else:
            raise ValueError("For 'HeUniform', 'negative_slope' {} is not a valid number."
                             "When 'nonlinearity' has been set to "
                             "'leaky_relu', 'negative_slope' should be int or float type, but got "
                             "{}.".format(param, type(param)))
        res = math.sqrt(2.0 / (1 + negative_slope ** 2))
    else:
        raise ValueError("For 'HeUniform', the argument 'nonlinearity' should be one of "
                         "['sigmoid', 'tanh', 'relu' or 'leaky_relu'], "
                         "but got {}.".format(nonlinearity))
    return res


def _calculate_in_and_out(arr):
    """``(n_in, n_out)`` of an array (at least 2-D)."""
    dim = len(arr.shape)
    if dim < 2:
        raise ValueError("If initialize data with xavier uniform, the dimension of data must be greater than 1, "
                         "but got {}.".format(dim))

    n_in = arr.shape[1]
    n_out = arr.shape[0]

    if dim > 2:
        counter = reduce(lambda x, y: x * y, arr.shape[2:])
        n_in *= counter
        n_out *= counter
    return n_in, n_out


@_register('xavier_normal')
class XavierNormal(_BuiltinInitializer):
    """Normal with ``sigma = gain * sqrt(2 / (n_in + n_out))``."""

    _draws_seed = True

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _fill(self, shape, dtype):
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        std = self.gain * math.sqrt(2.0 / float(fan_in + fan_out))
        return _random_normal(0, std, shape, dtype)


@_register('xavier_uniform')
class XavierUniform(_BuiltinInitializer):
    """Uniform in ``[-b, b]``, ``b = gain * sqrt(6 / (n_in + n_out))``."""

    _draws_seed = True

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _fill(self, shape, dtype):
        n_in, n_out = _calculate_fan_in_and_fan_out(shape)
        boundary = self.gain * math.sqrt(6.0 / (n_in + n_out))
        return _random_uniform(-boundary, boundary, shape, dtype)


@_register('he_uniform')
class HeUniform(_BuiltinInitializer):
    """Kaiming uniform: ``U(-b, b)``, ``b = gain * sqrt(3 / fan_mode)``."""

    _draws_seed = True

    def __init__(self, negative_slope=0, mode='fan_in', nonlinearity='leaky_relu'):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _fill(self, shape, dtype):
        fan = _calculate_correct_fan(shape, self.mode)
        gain = _calculate_gain(self.nonlinearity, self.negative_slope)
        std = gain / math.sqrt(fan)
        boundary = math.sqrt(3.0) * std
        return _random_uniform(-boundary, boundary, shape, dtype)


@_register('he_normal')
class HeNormal(_BuiltinInitializer):
    """Kaiming normal: ``N(0, sigma^2)``, ``sigma = gain / sqrt(fan_mode)``."""

    _draws_seed = True

    def __init__(self, negative_slope=0, mode='fan_in', nonlinearity='leaky_relu'):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _fill(self, shape, dtype):
        fan = _calculate_correct_fan(shape, self.mode)
        gain = _calculate_gain(self.nonlinearity, self.negative_slope)
        std = gain / math.sqrt(fan)
        return _random_normal(0, std, shape, dtype)


class Constant(_BuiltinInitializer):
    """Fills with ``value`` (converted as numpy's ``fill`` does)."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _fill(self, shape, dtype):
        return _filled(self.value, shape, dtype)


@_register()
class Identity(_BuiltinInitializer):
    """A 2-D identity matrix (``numpy.eye``)."""

    def _fill(self, shape, dtype):
        if len(shape) != 2:
            raise ValueError('For Identity initializer, the dimension of the initialized tensor should be 2, '
                             'but got {}.'.format(len(shape)))
        rows, cols = shape
        values = [1.0 if r == c else 0.0 for r in range(rows) for c in range(cols)]
        return host().tensorOf(dtype.engine_name, _shape_list(shape), values).java


@_register()
class Sparse(Initializer):
    """Sparse normal matrix (needs numpy; its zero positions come from numpy's generator)."""

    _draws_seed = True

    def __init__(self, sparsity, sigma=0.01):
        super().__init__()
        self.sparsity = sparsity
        self.sigma = sigma

    def _initialize(self, arr):
        import numpy as np  # pylint: disable=import-outside-toplevel
        if len(arr.shape) != 2:
            raise ValueError('For Sparse initializer, the dimension of the initialized tensor should be 2, '
                             'but got {}.'.format(len(arr.shape)))
        rows, cols = arr.shape
        zero_num = int(np.ceil(self.sparsity * rows))
        data = np.array(Tensor._wrap(_random_normal(0, self.sigma, arr.shape, mstype.float32)).tolist(),  # pylint: disable=protected-access
                        dtype=np.float32)
        for col_idx in range(cols):
            row_idx = np.random.permutation(list(range(rows)))[: zero_num]
            data[row_idx, col_idx] = 0.
        arr[...] = data
        return arr


@_register()
class Dirac(_BuiltinInitializer):
    """The Dirac delta for 3-, 4- and 5-D convolution weights."""

    def __init__(self, groups=1):
        super().__init__()
        self.groups = groups

    def _fill(self, shape, dtype):
        dimension = len(shape)
        if dimension not in [3, 4, 5]:
            raise ValueError("For Dirac initializer, only support "
                             "to initialize tensor with dimension of 3, 4 or 5, but got {}.".format(dimension))
        if shape[0] % self.groups != 0:
            raise ValueError("For Dirac initializer, the first dimension of"
                             "the initialized tensor must be divisible by groups, "
                             "but got first dimension{}, groups{}.".format(shape[0], self.groups))
        strides = [1] * dimension
        for i in range(dimension - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
        values = [0.0] * (strides[0] * shape[0])
        out_channel_per_group = shape[0] // self.groups
        min_dim = min(out_channel_per_group, shape[1])
        centre = sum(strides[k] * (shape[k] // 2) for k in range(2, dimension))
        for group in range(self.groups):
            for dim in range(min_dim):
                values[(group * out_channel_per_group + dim) * strides[0] + dim * strides[1] + centre] = 1.0
        return host().tensorOf(dtype.engine_name, _shape_list(shape), values).java


@_register()
class Orthogonal(Initializer):
    """A (semi) orthogonal matrix (needs numpy for the QR decomposition)."""

    _draws_seed = True

    def __init__(self, gain=1.):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        import numpy as np  # pylint: disable=import-outside-toplevel
        if len(arr.shape) < 2:
            raise ValueError('For Orthogonal initializer, the dimension of the initialized tensor should'
                             ' be no less than 2, but got {}.'.format(len(arr.shape)))
        rows = arr.shape[0]
        cols = int(np.prod(arr.shape)) // rows
        data = np.array(Tensor._wrap(_random_normal(0, 1, (rows, cols), mstype.float32)).tolist(),  # pylint: disable=protected-access
                        dtype=np.float32)
        if rows < cols:
            data = data.T
        q, r = np.linalg.qr(data)
        d = np.diag(r)
        ph = np.sign(d)
        q *= ph
        if rows < cols:
            q = q.T
        q = q * self.gain
        arr[...] = q.reshape(arr.shape)
        return arr


@_register()
class VarianceScaling(_BuiltinInitializer):
    """Scaled normal / uniform by fan_in, fan_out or their average."""

    _draws_seed = True

    def __init__(self, scale=1.0, mode='fan_in', distribution='truncated_normal'):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0.:
            raise ValueError("For VarianceScaling initializer, "
                             "the argument 'scale' must be greater than 0, but got {}.".format(scale))

        if mode not in ['fan_in', 'fan_out', 'fan_avg']:
            raise ValueError("For VarianceScaling initializer, the argument 'mode' must be fan_in, "
                             "fan_out or fan_avg, but got {}.".format(mode))

        if distribution not in ['uniform', 'truncated_normal', 'untruncated_normal']:
            raise ValueError("For VarianceScaling initializer, the argument 'distribution' must be uniform, "
                             "truncated_norm or untruncated_norm, but got {}.".format(distribution))

        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def _fill(self, shape, dtype):
        scale = self.scale
        fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
        if self.mode == 'fan_in':
            scale /= max(1., fan_in)
        elif self.mode == 'fan_out':
            scale /= max(1., fan_out)
        else:
            scale /= max(1., (fan_in + fan_out) / 2.)
        # As MindSpore 2.10: 'truncated_normal' never equals 'truncated_norm', so it draws uniform.
        if self.distribution == 'truncated_norm':
            stddev = math.sqrt(scale) / 0.87962566103423978
            return _truncated_normal(-2, 2, 0, stddev, shape, dtype)
        if self.distribution == 'untruncated_normal':
            return _random_normal(0, math.sqrt(scale), shape, dtype)
        limit = math.sqrt(3.0 * scale)
        return _random_uniform(-limit, limit, shape, dtype)


@_register()
class Uniform(_BuiltinInitializer):
    """Uniform in ``[-scale, scale]``."""

    _draws_seed = True

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _fill(self, shape, dtype):
        return _random_uniform(-self.scale, self.scale, shape, dtype)


@_register()
class Normal(_BuiltinInitializer):
    """Normal with standard deviation ``sigma`` and mean ``mean``."""

    _draws_seed = True

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _fill(self, shape, dtype):
        return _random_normal(self.mean, self.sigma, shape, dtype)


@_register()
class TruncatedNormal(_BuiltinInitializer):
    """Normal (``mean``, ``sigma``) truncated to ``[a, b]``."""

    _draws_seed = True

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _fill(self, shape, dtype):
        return _truncated_normal(self.a, self.b, self.mean, self.sigma, shape, dtype)


def _fill_java(init, shape, dtype, seed=None, block=None):
    """The Java tensor that ``init`` gives a tensor of ``shape`` and ``dtype`` (for init_data); a
    random fill uses ``seed`` if given (pinned at its Parameter's creation), else the stream's next.
    ``block``: ``(begin, length)`` per dimension, the part of the tensor a parallel rank keeps; the
    built-in element-wise initializers make only that block (bit-identical to that block of the
    whole fill), the others make the whole tensor."""
    if block is not None and type(init) not in _BLOCK_FILLS:
        block = None
    if seed is None and block is None:
        return init._fill(list(shape), dtype)  # pylint: disable=protected-access
    if seed is not None:
        _INIT_HOST.pinNext(seed)
    if block is not None:
        _INIT_HOST.pinBlock([int(b) for b in block[0]], [int(n) for n in block[1]])
    try:
        return init._fill(list(shape), dtype)  # pylint: disable=protected-access
    finally:
        _INIT_HOST.clearPin()


# The initializers whose every element is drawn (or set) on its own, so that a block can be made
# without the rest (exact classes: a subclass may fill otherwise).
_BLOCK_FILLS = frozenset((Zero, One, Constant, Normal, Uniform, TruncatedNormal, XavierNormal,
                          XavierUniform, HeNormal, HeUniform, VarianceScaling))


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of ``shape`` and ``dtype`` to be filled by ``init`` (a Tensor, an alias such as
    ``'normal'``, an Initializer or a number) on ``init_data()``."""
    if not isinstance(init, (Tensor, numbers.Number, str, Initializer)):
        raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', 'string' "
                        "or 'initializer', but got {}.".format(type(init)))

    if isinstance(init, Tensor):
        init_shape = init.shape
        shape = shape if isinstance(shape, (tuple, list)) else [shape]
        if shape is not None and init_shape != tuple(shape):
            raise ValueError("For 'initializer', the shape of the 'init' argument should be same as "
                             "the argument 'shape', but got the "
                             "'init' shape {} and the 'shape' {}.".format(list(init.shape), shape))
        return init

    if isinstance(shape, list):
        shape = tuple(shape)
    elif isinstance(shape, numbers.Number):
        shape = (shape,)

    for value in shape if shape is not None else ():
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of 'shape' "
                             f"must be positive integer, "
                             f"but got {shape}")

    if isinstance(init, str):
        class_name = _INITIALIZER_ALIAS.get(init.lower())
        if class_name is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not found.")
        init = class_name()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    shape = shape if shape is not None else init.shape
    init_obj = Tensor(dtype=dtype, shape=shape, init=init)
    return init_obj


__all__ = [
    'Initializer',
    'initializer',
    'TruncatedNormal',
    'Normal',
    'Uniform',
    'HeUniform',
    'HeNormal',
    'XavierUniform',
    'XavierNormal',
    'One',
    'Zero',
    'Constant',
    'Identity',
    'Sparse',
    'Dirac',
    'Orthogonal',
    'VarianceScaling']
