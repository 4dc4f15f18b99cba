"""Functional forms of the operators (``mindspore.ops.add``, ``mindspore.ops.sum`` ...)."""
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


def div(input, other, *, rounding_mode=None):  # pylint: disable=redefined-builtin
    """True division, or rounded toward minus infinity (``"floor"``) or zero (``"trunc"``)."""
    if rounding_mode is None:
        return _DIV(input, other)
    if rounding_mode == "floor":
        return P.FloorDiv()(input, other)
    if rounding_mode == "trunc":
        return P.TruncateDiv()(input, other)
    raise ValueError("For ops.div, rounding_mode value should be None, 'floor' or 'trunc'.")


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


def softmax(input, axis=-1, *, dtype=None):  # pylint: disable=redefined-builtin
    """Softmax along ``axis`` (after casting to ``dtype`` when given)."""
    if dtype is not None:
        input = input.astype(dtype)
    return P.Softmax(axis)(input)


def log_softmax(input, axis=-1):  # pylint: disable=redefined-builtin
    """Log-softmax along ``axis``."""
    return P.LogSoftmax(axis)(input)


def _dim_list(dim):
    return [] if dim is None else [dim] if isinstance(dim, int) else list(dim)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # pylint: disable=redefined-builtin
    """Sum over ``dim`` (None: all); integer and bool inputs sum as int64 (MindSpore's SumExt)."""
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if dtype is not None:
        input = input.astype(dtype)
    elif input.dtype == mstype.bool_ or input.dtype in mstype.int_type + mstype.uint_type:
        input = input.astype(mstype.int64)
    return P._reduce("ReduceSum", "SumExt", input, _dim_list(dim), keepdim)  # pylint: disable=protected-access


def mean(input, axis=None, keep_dims=False):  # pylint: disable=redefined-builtin
    """Mean over ``axis`` (None: all); integer inputs keep their type."""
    return P._reduce("ReduceMean", "ReduceMean", input, _dim_list(axis), keep_dims)  # pylint: disable=protected-access


# ---- Shapes, types and construction --------------------------------------------------------

def _tensor_cls():
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor


def shape(input_x):
    """The shape of a tensor, as a tuple."""
    return input_x.shape


def reshape(input, shape):  # pylint: disable=redefined-builtin,redefined-outer-name
    return P.Reshape()(input, tuple(shape))


def transpose(input, input_perm):  # pylint: disable=redefined-builtin
    return P.Transpose()(input, tuple(input_perm))


def expand_dims(input_x, axis):
    return P.ExpandDims()(input_x, axis)


def squeeze(input, axis=None):  # pylint: disable=redefined-builtin
    return P.Squeeze(() if axis is None else axis)(input)


def flatten(input, order='C', *, start_dim=1, end_dim=-1):  # pylint: disable=redefined-builtin,unused-argument
    from mindspore.nn.layer.basic import Flatten  # pylint: disable=import-outside-toplevel
    return Flatten(start_dim, end_dim)(input)


def cast(input, dtype):  # pylint: disable=redefined-builtin
    return P.Cast()(input, dtype)


def zeros_like(input, *, dtype=None):  # pylint: disable=redefined-builtin
    out = P.ZerosLike()(input)
    return out if dtype is None else out.astype(dtype)


def ones_like(input, *, dtype=None):  # pylint: disable=redefined-builtin
    out = P.OnesLike()(input)
    return out if dtype is None else out.astype(dtype)


def zeros(size, dtype=None):
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    size = (size,) if isinstance(size, int) else tuple(size)
    return _tensor_cls()(shape=size, dtype=dtype or mstype.float32, input_data=None)


def ones(shape, dtype=None):  # pylint: disable=redefined-outer-name
    return ones_like(zeros(shape, dtype))


def fill(type, shape, value):  # pylint: disable=redefined-builtin,redefined-outer-name
    return ones(shape, type) * value


def stop_gradient(value):
    """``value`` with no gradient flowing back through it."""
    return P.StopGradient()(value)


# ---- Comparison, selection, joining ---------------------------------------------------------

def equal(input, other):  # pylint: disable=redefined-builtin
    return P.Equal()(input, other)


def select(cond, input, other):  # pylint: disable=redefined-builtin
    tensor = _tensor_cls()
    if not isinstance(input, tensor):
        input = ones_like(other) * input
    if not isinstance(other, tensor):
        other = ones_like(input) * other
    return P.Select()(cond, input, other)


def concat(tensors, axis=0):
    return P.Concat(axis)(tuple(tensors))


cat = concat


def stack(tensors, axis=0):
    """The tensors (one shape and type) stacked along a new dimension ``axis``."""
    return P.Stack(axis)(tensors)


def unstack(input_x, axis=0):
    """The slices of ``input_x`` along ``axis``, as a tuple."""
    return P.Unstack(axis)(input_x)


def split(tensor, split_size_or_sections, axis=0):
    """``tensor`` cut along ``axis``: into parts of ``split_size_or_sections`` elements (an int; the
    last part smaller when it does not divide) or of the given sizes (a list or tuple summing to the
    dimension). Equal parts are one Split; other cuts are StridedSlices."""
    sections = split_size_or_sections
    if isinstance(sections, bool) or not isinstance(sections, (int, tuple, list)):
        raise TypeError(f"Type of Argument `split_size_or_sections` should be integer, tuple(int) or list(int), "
                        f"but got {type(sections)}")
    n = tensor.shape[axis]
    if isinstance(sections, int):
        if sections <= 0:
            raise ValueError(f"For split, the value of 'split_size_or_sections' must be more than zero, "
                             f"but got {sections}.")
        if n % sections == 0:
            return P.Split(axis, n // sections)(tensor)
        sizes = [sections] * (n // sections) + [n % sections]
    else:
        sizes = list(sections)
        if any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in sizes):
            raise TypeError(f"Each element in 'split_size_or_sections' should be non-negative, but got {sections}.")
        total = 0  # this module's sum is the tensor reduction
        for size in sizes:
            total += size
        if total != n:
            raise ValueError(f"The sum of 'split_size_or_sections' should be equal to {n}, but got {total}.")
    rank = len(tensor.shape)
    dim = axis % rank
    parts, start = [], 0
    for size in sizes:
        begin, end = [0] * rank, list(tensor.shape)
        begin[dim], end[dim] = start, start + size
        parts.append(strided_slice(tensor, begin, end, [1] * rank))
        start += size
    return tuple(parts)


def gather(input_params, input_indices, axis, batch_dims=0):
    return P.Gather(batch_dims)(input_params, input_indices, axis)


def gather_nd(input_x, indices):
    return P.GatherNd()(input_x, indices)


def scatter_nd(indices, updates, shape):
    return P.ScatterNd()(indices, updates, shape)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    return P.UnsortedSegmentSum()(input_x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    return P.UnsortedSegmentProd()(x, segment_ids, num_segments)


def unsorted_segment_max(x, segment_ids, num_segments):
    return P.UnsortedSegmentMax()(x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    return P.UnsortedSegmentMin()(x, segment_ids, num_segments)


def tensordump(file_name, tensor, mode='out'):
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    if not isinstance(file_name, str):
        raise TypeError(f"Parameter file_name should only be build_in str type but got: {type(file_name)}")
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Parameter tensor should only be Tensor type, but got: {type(tensor)}")
    if not isinstance(mode, str):
        raise TypeError(f"Parameter mode should only be build_in str type, but got: {type(mode)}")
    if mode not in ('out', 'in'):
        if mode == 'all':
            raise ValueError("Argument [mode] has been not supported value of 'all'.")
        raise ValueError(f"Parameter mode should in ['out', 'in'], but got {mode}")
    return P.TensorDump(input_output=mode)(file_name, tensor)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    tensor = _tensor_cls()
    on = on_value if isinstance(on_value, tensor) else tensor(on_value, mstype.int64)
    off = off_value if isinstance(off_value, tensor) else tensor(off_value, on.dtype)
    return P.OneHot(axis)(indices, depth, on, off)


def tile(input, dims):  # pylint: disable=redefined-builtin
    return P.Tile()(input, tuple(dims))


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    return P.StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)(
        input_x, tuple(begin), tuple(end), tuple(strides))


# ---- Neural-network functions ---------------------------------------------------------------

def bias_add(input_x, bias):
    return P.BiasAdd()(input_x, bias)


def bmm(input_x, mat2):
    return P.BatchMatMul()(input_x, mat2)


def batch_matmul(input_x, mat2):
    return P.BatchMatMul()(input_x, mat2)


def erf(input):  # pylint: disable=redefined-builtin
    """The Gauss error function, elementwise."""
    return P.Erf()(input)


def gelu(input, approximate='none'):  # pylint: disable=redefined-builtin
    """GELU: ``'tanh'``, MindSpore's GeLU kernel; ``'none'``, the exact ``0.5 x (1 + erf(x / sqrt 2))``
    (composed of Mul, Erf and Add, so it differentiates and shards as they do)."""
    if approximate not in ('none', 'tanh'):
        raise ValueError(f"For 'gelu', approximate value should be either 'none' or 'tanh', but got {approximate}.")
    if approximate == 'tanh':
        return P.GeLU()(input)
    return input * 0.5 * (erf(input * 0.7071067811865476) + 1.0)


def dropout(input, p=0.5, training=True, seed=None):  # pylint: disable=redefined-builtin,unused-argument
    if not training or p == 0:
        return input
    return P.Dropout(1.0 - p)(input)[0]


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    # pylint: disable=redefined-builtin
    pad = padding if isinstance(padding, tuple) else (padding,) * 4
    if len(pad) == 2:
        pad = (pad[0], pad[0], pad[1], pad[1])
    mode = "pad" if any(pad) else pad_mode
    out = P.Conv2D(weight.shape[0], weight.shape[2:], pad_mode=mode, pad=pad, stride=stride,
                   dilation=dilation, group=groups)(input, weight)
    return out if bias is None else P.BiasAdd()(out, bias)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    if padding or dilation != 1 or return_indices or ceil_mode:
        raise NotImplementedError("msjvm: ops.max_pool2d supports padding=0, dilation=1 only.")
    return P.MaxPool(kernel_size, kernel_size if stride is None else stride, "VALID")(x)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    if padding or ceil_mode or divisor_override:
        raise NotImplementedError("msjvm: ops.avg_pool2d supports padding=0 only.")
    return P.AvgPool(kernel_size, stride, "VALID")(input_x)


def adaptive_avg_pool2d(input, output_size):  # pylint: disable=redefined-builtin
    return P.AdaptiveAvgPool2D(output_size)(input)


def l1_loss(input, target, reduction='mean'):  # pylint: disable=redefined-builtin
    from mindspore.nn.loss.loss import L1Loss  # pylint: disable=import-outside-toplevel
    return L1Loss(reduction)(input, target)


def mse_loss(input, target, reduction='mean'):  # pylint: disable=redefined-builtin
    from mindspore.nn.loss.loss import MSELoss  # pylint: disable=import-outside-toplevel
    return MSELoss(reduction)(input, target)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):
    # pylint: disable=redefined-builtin
    from mindspore.nn.loss.loss import CrossEntropyLoss  # pylint: disable=import-outside-toplevel
    return CrossEntropyLoss(weight, ignore_index, reduction, label_smoothing)(input, target)


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):
    from mindspore.nn.loss.loss import _nll  # pylint: disable=import-outside-toplevel
    return _nll(inputs, target, weight, ignore_index, reduction, label_smoothing)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction='mean'):
    # pylint: disable=redefined-builtin
    from mindspore.nn.loss.loss import BCEWithLogitsLoss  # pylint: disable=import-outside-toplevel
    return BCEWithLogitsLoss(reduction, weight, pos_weight)(input, target)


from mindspore.ops.function import math_func  # noqa: E402
from mindspore.ops.function.math_func import *  # noqa: E402,F401,F403,A004
from mindspore.ops.function import elementary_func  # noqa: E402
from mindspore.ops.function.elementary_func import *  # noqa: E402,F401,F403,A004
