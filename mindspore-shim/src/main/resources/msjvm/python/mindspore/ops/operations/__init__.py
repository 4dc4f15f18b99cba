"""``mindspore.ops.operations`` (``P``): operator classes with MindSpore's constructor arguments."""
from mindspore._checkparam import check_is_int, check_value_type
from mindspore.ops.primitive import Primitive


class ReduceOp:
    """Reduction kinds of the communication operators."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


def _world_group(group=None):
    """``group``, or the world group when it is None (MindSpore's default ``GlobalComm.WORLD_COMM_GROUP``)."""
    if group is not None:
        return group
    from mindspore.communication._comm_helper import GlobalComm  # pylint: disable=import-outside-toplevel
    return GlobalComm.WORLD_COMM_GROUP


class _Simple(Primitive):
    def __init__(self):
        super().__init__(type(self).__name__)


def _type_name(value):
    return "string" if isinstance(value, str) else type(value).__name__


class _Binary(_Simple):
    """An elementwise two-input primitive, run eagerly by the engine (broadcasting, promotion)."""

    def __call__(self, x, y):
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        result = NotImplemented
        if isinstance(x, Tensor):
            result = x._binary(self.name, y)  # pylint: disable=protected-access
        elif isinstance(y, Tensor):
            result = y._binary(self.name, x, True)  # pylint: disable=protected-access
        if result is NotImplemented:
            raise TypeError(f'Failed calling {self.name} with "{self.name}()(input={_type_name(x)}, '
                            f'other={_type_name(y)})".')
        return result


class _Unary(_Simple):
    """An elementwise one-input primitive, run eagerly by the engine."""

    def __call__(self, x):
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if not isinstance(x, Tensor):
            raise TypeError(f'Failed calling {self.name} with "{self.name}()(input={_type_name(x)})".')
        return x._unary(self.name)  # pylint: disable=protected-access


class Add(_Binary):
    """Elementwise addition."""


class Sub(_Binary):
    """Elementwise subtraction."""


class Mul(_Binary):
    """Elementwise multiplication."""


class Div(_Binary):
    """Elementwise true division (integer inputs give float32)."""


class Maximum(_Binary):
    """Elementwise maximum."""


class Minimum(_Binary):
    """Elementwise minimum."""


class Pow(_Binary):
    """Elementwise power."""


class FloorDiv(_Binary):
    """Elementwise floor division."""


class FloorMod(_Binary):
    """Elementwise floor modulo."""


class Equal(_Binary):
    """Elementwise ==."""


class NotEqual(_Binary):
    """Elementwise !=."""


class Less(_Binary):
    """Elementwise <."""


class LessEqual(_Binary):
    """Elementwise <=."""


class Greater(_Binary):
    """Elementwise >."""


class GreaterEqual(_Binary):
    """Elementwise >=."""


class Neg(_Unary):
    """Elementwise negation."""


class Abs(_Unary):
    """Elementwise absolute value."""


class Exp(_Unary):
    """Elementwise e**x."""


class Log(_Unary):
    """Elementwise natural logarithm."""


class Sqrt(_Unary):
    """Elementwise square root."""


class Square(_Unary):
    """Elementwise x*x."""


class ReLU(_Unary):
    """Rectified linear unit."""


class Sigmoid(_Unary):
    """Elementwise logistic function."""


class Tanh(_Unary):
    """Elementwise hyperbolic tangent."""


class Erf(_Unary):
    """Elementwise Gauss error function."""


def _ms_type_name(value):
    """MindSpore's name of an argument's type in 'Failed calling' errors (``Tuple<int, int>``)."""
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, (tuple, list)):
        kind = "Tuple" if isinstance(value, tuple) else "List"
        return f"{kind}<{', '.join(_ms_type_name(v) for v in value)}>"
    return _type_name(value)


def _axes(axis):
    """The axis argument as a list of ints, or None when it is not an int/tuple/list of ints."""
    if isinstance(axis, bool):
        return None
    if isinstance(axis, int):
        return [axis]
    if isinstance(axis, (tuple, list)) and all(isinstance(a, int) and not isinstance(a, bool) for a in axis):
        return list(axis)
    return None


def _reduce(op, prim, x, axis, keep_dims):
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor._wrap(host().reduce(op, prim, x._java, axis, keep_dims).java)  # pylint: disable=protected-access


class _Reduce(Primitive):
    """A reduction over axes (int, tuple or list; () reduces all), run eagerly by the engine."""

    _SIGNATURE = "keep_dims={}"

    def __init__(self, keep_dims=False):
        super().__init__(type(self).__name__)
        self.keep_dims = keep_dims
        self.add_prim_attr("keep_dims", keep_dims)

    def __call__(self, x, axis=()):
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        axes = _axes(axis)
        if not isinstance(x, Tensor) or axes is None or not isinstance(self.keep_dims, bool):
            sig = self._SIGNATURE.format(_type_name(self.keep_dims))
            raise TypeError(f'Failed calling {self.name} with "{self.name}({sig})(x={_ms_type_name(x)}, '
                            f'axis={_ms_type_name(axis)})".')
        return _reduce(self.name, self.name, x, axes, self.keep_dims)


class ReduceSum(_Reduce):
    """Sum over axes; the result keeps the input type (integers wrap, bool is a logical or)."""

    _SIGNATURE = "keep_dims={}, skip_mode=bool"

    def __init__(self, keep_dims=False, skip_mode=False):
        super().__init__(keep_dims)
        self.skip_mode = skip_mode
        self.add_prim_attr("skip_mode", skip_mode)


class ReduceMean(_Reduce):
    """Mean over axes; integer inputs keep their type (the mean truncates)."""


class ReduceMax(_Reduce):
    """Maximum over axes."""


class ReduceMin(_Reduce):
    """Minimum over axes."""


def _host_tensor(method, x, *args):
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor._wrap(getattr(host(), method)(x._java, *args).java)  # pylint: disable=protected-access


def _is_tensor(x):
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return isinstance(x, Tensor)


def _int_list(value):
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return list(value)
    return None


class Flatten(_Simple):
    """Flattens all dimensions but the first: ``[dim0, rest]``."""

    def __call__(self, x):
        if not _is_tensor(x):
            raise TypeError(f'Failed calling Flatten with "Flatten()(input={_ms_type_name(x)})".')
        return _host_tensor("flatten", x)


class Reshape(_Simple):
    """``x`` with a new shape (tuple or list; one -1 is inferred)."""

    def __call__(self, x, shape):
        dims = _int_list(shape)
        if not _is_tensor(x) or dims is None:
            raise TypeError(f'Failed calling Reshape with "Reshape()(input={_ms_type_name(x)}, '
                            f'shape={_ms_type_name(shape)})".')
        return _host_tensor("reshape", x, dims)


class ExpandDims(_Simple):
    """``x`` with a size-1 dimension inserted at ``axis``."""

    def __call__(self, x, axis):
        if not _is_tensor(x) or not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f'Failed calling ExpandDims with "ExpandDims()(input={_ms_type_name(x)}, '
                            f'axis={_ms_type_name(axis)})".')
        return _host_tensor("expandDims", x, axis)


class Squeeze(Primitive):
    """``x`` without its size-1 dimensions (those among ``axis`` when given)."""

    def __init__(self, axis=()):
        super().__init__("Squeeze")
        self.add_prim_attr("axis", axis)
        self._axes = [axis] if isinstance(axis, int) else list(axis)

    def __call__(self, x):
        if not _is_tensor(x):
            raise TypeError(f'Failed calling Squeeze with "Squeeze()(input={_ms_type_name(x)})".')
        return _host_tensor("squeeze", x, self._axes)


class Transpose(_Simple):
    """``x`` with its dimensions permuted by ``perm``."""

    def __call__(self, x, perm):
        dims = _int_list(perm)
        if not _is_tensor(x) or dims is None:
            raise TypeError(f'Failed calling Transpose with "Transpose()(input={_ms_type_name(x)}, '
                            f'perm={_ms_type_name(perm)})".')
        return _host_tensor("transpose", x, dims)


class MatMul(Primitive):
    """2-D matrix product, with optional transposes (float32 runs on OpenBLAS)."""

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__("MatMul")
        self.add_prim_attr("transpose_a", transpose_a)
        self.add_prim_attr("transpose_b", transpose_b)

    def __call__(self, x, y):
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if not isinstance(x, Tensor) or not isinstance(y, Tensor):
            raise TypeError(f'Failed calling MatMul with "MatMul()(input={_type_name(x)}, '
                            f'other={_type_name(y)})".')
        return x._matmul(y, self.attrs["transpose_a"], self.attrs["transpose_b"])  # pylint: disable=protected-access


class Cast(_Simple):
    """``x`` converted to a MindSpore dtype (as ``Tensor.astype``)."""

    def __call__(self, x, dtype):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        if not isinstance(dtype, mstype.Type):
            raise TypeError(f"For 'Cast', the input 'dtype' should be mindspore dtype, but got {dtype}.")
        if not _is_tensor(x):
            raise TypeError(f'Failed calling Cast with "Cast()(input_x={_ms_type_name(x)}, dtype={dtype})".')
        return x.astype(dtype)


class Softmax(Primitive):
    """Softmax along ``axis`` (an int or a one-element tuple); float inputs only."""

    _LOG = False

    def __init__(self, axis=-1):
        name = type(self).__name__
        super().__init__(name)
        if isinstance(axis, bool) or not (isinstance(axis, int) or (
                isinstance(axis, tuple) and all(isinstance(a, int) and not isinstance(a, bool) for a in axis))):
            raise TypeError(f"For '{name}', the type of 'axis' should be one of '[int, tuple of int]', "
                            f"but got {type(axis)}.")
        self.axis = axis
        self.add_prim_attr("axis", axis if isinstance(axis, tuple) else (axis,))

    def __call__(self, x):
        if not _is_tensor(x):
            raise TypeError(f'Failed calling {self.name} with "{self.name}(axis=int)(input={_ms_type_name(x)})".')
        axis = self.axis[0] if isinstance(self.axis, tuple) else self.axis
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        return Tensor._wrap(host().softmax(self.name, x._java, axis, self._LOG).java)  # pylint: disable=protected-access


class LogSoftmax(Softmax):
    """Log of the softmax along ``axis`` (computed as ``x - max - log(sum(exp(x - max)))``)."""

    _LOG = True


class ZerosLike(_Simple):
    """Zeros with the input's dtype and shape."""

    def __call__(self, x):
        if not _is_tensor(x):
            raise TypeError(f'Failed calling ZerosLike with "ZerosLike()(input={_ms_type_name(x)})".')
        return _host_tensor("zerosLike", x)


class OnesLike(_Simple):
    """Ones with the input's dtype and shape."""

    def __call__(self, x):
        if not _is_tensor(x):
            raise TypeError(f'Failed calling OnesLike with "OnesLike()(input={_ms_type_name(x)})".')
        return _host_tensor("onesLike", x)


class AllReduce(Primitive):
    """Reduces a tensor over the ranks of a communication group."""

    def __init__(self, op=ReduceOp.SUM, group=None):
        super().__init__("AllReduce")
        if not isinstance(op, str) or op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
            raise TypeError(f"For 'AllReduce', the 'op' must be str, but got {type(op).__name__}.")
        self.add_prim_attr("op", op)
        self.add_prim_attr("group", _world_group(group))
        self.add_prim_attr("fusion", 0)

    @staticmethod
    def _prepare(h, name, attrs):
        return h.collective(name, attrs)

    def __call__(self, x):
        """The reduction of ``x`` over the ranks of ``group`` (every member calls it)."""
        return self._run_engine(x)


class AllGather(Primitive):
    """Concatenates a tensor from every rank of a group along dimension 0."""

    def __init__(self, group=None):
        super().__init__("AllGather")
        self.add_prim_attr("group", _world_group(group))
        self.add_prim_attr("fusion", 0)

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, x):
        """The inputs of the group's ranks concatenated along dimension 0, in group-rank order."""
        return self._run_engine(x)


def _rank_size(group):
    from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
    return get_group_size(group)


class ReduceScatter(Primitive):
    """Reduces a tensor over the ranks of a group; group rank r keeps block r of dimension 0."""

    def __init__(self, op=ReduceOp.SUM, group=None):
        super().__init__("ReduceScatter")
        check_value_type('op', op, (str,), "ReduceScatter")
        group = _world_group(group)
        check_value_type('group', group, (str,), "ReduceScatter")
        self.op = op
        self.group = group
        self.rank_size = _rank_size(group)
        self.add_prim_attr("op", op)
        self.add_prim_attr("rank_size", self.rank_size)
        self.add_prim_attr("group", group)
        self.add_prim_attr("fusion", 0)
        self.add_prim_attr("no_eliminate", True)

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, x):
        """Block ``rank`` (of ``rank_size`` along dimension 0) of the group's reduction of ``x``."""
        return self._run_engine(x)


class AlltoAll(Primitive):
    """Cuts the input into ``split_count`` blocks along ``split_dim``, sends block r to group rank r and
    joins the blocks received along ``concat_dim``, in group-rank order."""

    def __init__(self, split_count, split_dim, concat_dim, group=None):
        super().__init__("AlltoAll")
        group = _world_group(group)
        check_value_type('group', group, (str,), "AlltoAll")
        for value in (split_count, split_dim, concat_dim):
            check_is_int(value, int)  # as MindSpore calls it: the class int lands in the message
        self.split_count = split_count
        self.split_dim = split_dim
        self.concat_dim = concat_dim
        self.group = group
        self.add_prim_attr("split_count", split_count)
        self.add_prim_attr("split_dim", split_dim)
        self.add_prim_attr("concat_dim", concat_dim)
        self.add_prim_attr("group", group)
        self.add_prim_attr("no_eliminate", True)
        self.rank_size = _rank_size(group)
        self.add_prim_attr("rank_size", self.rank_size)

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, x):
        """The blocks of ``x`` exchanged over the group."""
        return self._run_engine(x)


class Send(Primitive):
    """Sends a tensor to group rank ``dest_rank`` (``sr_tag`` pairs it with the peer's ``Receive``);
    returns its input."""

    def __init__(self, sr_tag, dest_rank, group=None, group_back=None):
        super().__init__("Send")
        group = _world_group(group)
        self.rank = dest_rank
        self.sr_tag = sr_tag
        self.group = group
        for key, value in (("sr_tag", sr_tag), ("dest_rank", dest_rank), ("group", group),
                           ("group_back", _world_group(group_back))):
            self.add_prim_attr(key, value)
        self.add_prim_attr("no_eliminate", True)

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, x):
        return self._run_engine(x)


class Receive(Primitive):
    """Receives the tensor of ``shape`` and ``dtype`` group rank ``src_rank`` sent with ``sr_tag``."""

    _TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
              "float64", "bfloat16", "bool")

    def __init__(self, sr_tag, src_rank, shape, dtype, group=None, group_back=None):
        super().__init__("Receive")
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        group = _world_group(group)
        valid = [getattr(mstype, t) for t in self._TYPES if hasattr(mstype, t)]
        if not isinstance(dtype, mstype.Type) or dtype not in valid:
            raise TypeError(f"For 'Receive', the type of 'dtype' should be in [{', '.join(map(str, valid))}], "
                            f"but got {dtype}.")
        self.rank = src_rank
        self.tag = sr_tag
        self.shape = shape
        self.dtype = dtype
        self.group = group
        for key, value in (("sr_tag", sr_tag), ("src_rank", src_rank), ("shape", list(shape)), ("group", group),
                           ("group_back", _world_group(group_back))):
            self.add_prim_attr(key, value)
        self.add_prim_attr("no_eliminate", True)

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, *inputs):
        return self._run_engine(*inputs, extra=("dtype", self.dtype.engine_name))


class Broadcast(Primitive):
    """Every rank of a group receives the inputs of group rank ``root_rank``."""

    def __init__(self, root_rank, group=None):
        super().__init__("Broadcast")
        if not isinstance(root_rank, int) or isinstance(root_rank, bool):
            raise TypeError(f"For 'Broadcast', the 'root_rank' must be int, but got {type(root_rank).__name__}.")
        self.add_prim_attr("root_rank", root_rank)
        self.add_prim_attr("group", _world_group(group))

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, x):
        """A tuple with root's values of every tensor of ``x`` (a tuple of tensors)."""
        return tuple(self._run_engine(t) for t in x)


from mindspore.ops.operations._nn_ops import (AdaptiveAvgPool2D, Assign, AvgPool, BatchMatMul, BatchNorm, BiasAdd, Concat,  # noqa: E402
                                              Conv2D, Conv3D, Dropout, Gather, GatherNd, GeLU, Identity, LayerNorm,
                                              MaxPool, MaxPool3D, AvgPool3D, ScatterNd,
                                              OneHot,
                                              RealDiv, Select, SoftmaxCrossEntropyWithLogits,
                                              SparseSoftmaxCrossEntropyWithLogits, Split, SplitV, KLDivLoss, PadV3,
                                              StopGradient,
                                              StridedSlice, SparseGatherV2, Tile, Shape, UnsortedSegmentMax,
                                              UnsortedSegmentMin, UnsortedSegmentProd, UnsortedSegmentSum)
from mindspore.ops.operations.debug_ops import Depend, Print, TensorDump  # noqa: E402
from mindspore.ops.operations._array_math_ops import (AddN, ApplyMomentum, Argmax, AssignAdd, Conj,  # noqa: E402
                                                      DType, Eye, Fill, FillV2, InvertPermutation, Load,
                                                      LogicalNot, MaxPoolWithArgmax, Ones, Partial, ReduceAll,
                                                      ReduceAny, ResizeBilinearV2, ScalarSummary, Slice, Stack,
                                                      Unstack, Zeros)
from mindspore.ops.operations._math_extra_ops import (BroadcastTo, Ceil, Cos, CumSum, DenseToDenseSetOperation,  # noqa: E402
                                                      DenseToSparseSetOperation, Diag, Digamma, Erfc, Expm1, Floor,
                                                      Gcd, Igamma, Igammac, InplaceIndexAdd, IsFinite, IsInf, IsNan,
                                                      Lcm, Lgamma, Log1p, MatrixBandPart, MatrixTriangularSolve,
                                                      NPUAllocFloatStatus, NPUClearFloatStatus, NPUGetFloatStatus, Real, Imag, Complex,
                                                      Reciprocal, ReverseV2, Round, Rsqrt, Sign, Sin, Trunc, Zeta)
from mindspore.ops.operations._grad_ops import Conv2DBackpropInput, Conv2DTranspose  # noqa: E402
from mindspore.ops.operations._elementary_ops import *  # noqa: E402,F401,F403
from mindspore.ops.operations._attention_ops import *  # noqa: E402,F401,F403
from mindspore.ops.operations import _grad_ops  # noqa: E402,F401


class TensorAdd(Add):
    """Deprecated name of ``Add`` (MindSpore keeps it for old scripts)."""

    def __init__(self):
        super().__init__()
        self.name = "Add"


from mindspore.ops.operations.comm_ops import NeighborExchange, NeighborExchangeV2  # noqa: E402,F401  (ops.*)
