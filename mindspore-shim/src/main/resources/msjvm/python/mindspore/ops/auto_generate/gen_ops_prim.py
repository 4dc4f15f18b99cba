"""``mindspore.ops.auto_generate.gen_ops_prim``: MindSpore 2.10 generates most primitive classes into this
module; here it holds the same classes as ``mindspore.ops.operations`` (one definition each) and the
``*Ext`` forms behind ``mindspore.mint`` and the functional API."""
# pylint: disable=unused-import
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations import (  # noqa: F401
    Abs, Add, AddN, Argmax, Assign, AssignAdd, AvgPool, BatchMatMul, BiasAdd, Concat, Conj, Div, Dropout, Equal,
    Erf, Exp, ExpandDims, Eye, Flatten, FloorDiv, FloorMod, Gather, GeLU, Greater, GreaterEqual, Identity,
    LayerNorm, Less, LessEqual, Log, LogSoftmax, LogicalNot, MatMul, Maximum, Minimum, Mul, Neg, NotEqual, OneHot,
    Ones, OnesLike, Pow, ReLU, RealDiv, ReduceAll, ReduceAny, ReduceMax, ReduceMean, ReduceMin, ReduceSum, Reshape,
    Select, Sigmoid, Slice, Softmax, Split, Sqrt, Square, Squeeze, StridedSlice, Sub, Tanh, Transpose, Zeros,
    ZerosLike)
from mindspore.ops.operations._grad_ops import AvgPoolGrad, BatchNormGrad, BiasAddGrad, ReluGrad  # noqa: F401
from mindspore.ops.operations._elementary_ops import *  # noqa: F401,F403
from mindspore.ops.operations._attention_ops import *  # noqa: E402,F401,F403


class _AlphaBinary(Primitive):
    """AddExt / SubExt: ``input ± alpha * other``."""

    def __init__(self):
        super().__init__(type(self).__name__)

    def __call__(self, input, other, alpha=1):  # pylint: disable=redefined-builtin
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if alpha != 1:
            other = other * alpha
        if isinstance(input, Tensor):
            return input._binary(self.name, other)  # pylint: disable=protected-access
        return other._binary(self.name, input, True)  # pylint: disable=protected-access


class AddExt(_AlphaBinary):
    """``input + alpha * other`` (``mint.add``)."""


class SubExt(_AlphaBinary):
    """``input - alpha * other`` (``mint.sub``)."""


class SumExt(Primitive):
    """Sum over ``dim`` (None: all), as ``ops.sum``."""

    def __init__(self):
        super().__init__("SumExt")

    def __call__(self, input, dim=None, keepdim=False, dtype=None):  # pylint: disable=redefined-builtin
        from mindspore.ops.function import sum as sum_  # pylint: disable=import-outside-toplevel
        return sum_(input, dim, keepdim, dtype=dtype)


class OnesLikeExt(Primitive):
    """Ones of the input's shape, in ``dtype`` (default: the input's)."""

    def __init__(self):
        super().__init__("OnesLikeExt")

    def __call__(self, input, dtype=None):  # pylint: disable=redefined-builtin
        from mindspore.ops.function import ones_like  # pylint: disable=import-outside-toplevel
        return ones_like(input, dtype=dtype)


class ZerosLikeExt(Primitive):
    """Zeros of the input's shape, in ``dtype`` (default: the input's)."""

    def __init__(self):
        super().__init__("ZerosLikeExt")

    def __call__(self, input, dtype=None):  # pylint: disable=redefined-builtin
        from mindspore.ops.function import zeros_like  # pylint: disable=import-outside-toplevel
        return zeros_like(input, dtype=dtype)


class AddcmulExt(Primitive):
    """``input + value * tensor1 * tensor2`` (``mint.addcmul``), one engine operator (sharded as one)."""

    def __init__(self):
        super().__init__("AddcmulExt")

    def __call__(self, input, tensor1, tensor2, value=1):  # pylint: disable=redefined-builtin
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if isinstance(value, Tensor):
            value = value.item()
        for name, arg in (("input", input), ("tensor1", tensor1), ("tensor2", tensor2)):
            if not isinstance(arg, Tensor):
                raise TypeError(f"For 'AddcmulExt', '{name}' must be a Tensor, but got {type(arg).__name__}.")
        return self._run_engine(input, tensor1, tensor2, extra=("value", value))
