"""``mindspore.ops``: primitives (``ops.Add()``...) and functional forms (``ops.add``...)."""
from mindspore.ops import operations
from mindspore.ops.composite import GradOperation, grad, value_and_grad
from mindspore.ops.function import (abs, add, div, exp, log, log_softmax, matmul, maximum, mean, minimum, mul, neg,  # noqa: A004
                                    pow, relu, sigmoid, softmax, sqrt, square, sub, sum, tanh)
from mindspore.ops.operations import (Abs, Add, AllGather, AllReduce, AlltoAll, Broadcast, KLDivLoss, NeighborExchange, PadV3, Conv3D, MaxPool3D, AvgPool3D, NeighborExchangeV2, Receive, SplitV, ReduceScatter, Send, Cast, Div, Equal, Exp, ExpandDims, Flatten, FloorDiv,
                                      FloorMod, Greater, GreaterEqual, Less, LessEqual, Log, LogSoftmax, MatMul, Maximum,
                                      Minimum, Mul, Neg, NotEqual, OnesLike, Pow, ReduceMax, ReduceMean, ReduceMin,
                                      ReduceOp, ReduceSum, ReLU, Reshape, Squeeze, Transpose, Sigmoid, Softmax, Sqrt,
                                      Square, Sub, Tanh, ZerosLike)
from mindspore.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer, prim_attr_register
from mindspore.ops.operations.debug_ops import Depend, Print, TensorDump
from mindspore.ops.operations import Erf
from mindspore.ops.function import math_func as _math_func
from mindspore.ops.function.math_func import *  # noqa: F401,F403,A004
from mindspore.ops.function import elementary_func as _elementary_func
from mindspore.ops.function.elementary_func import *  # noqa: F401,F403,A004
from mindspore.ops.operations import (  # noqa: E402
    BroadcastTo, Ceil, Cos, CumSum, Diag, Digamma, Erfc, Expm1, Floor, Gcd, Igamma, Igammac, InplaceIndexAdd,
    IsFinite, IsInf, IsNan, Lcm, Lgamma, Log1p, MatrixBandPart, MatrixTriangularSolve, Reciprocal, ReverseV2, Round,
    Rsqrt, Sign, Sin, Trunc, Zeta, Real, Imag, Complex)
from mindspore.ops.function import (  # noqa: E402,A004
    erf, shape, reshape, transpose, expand_dims, squeeze, flatten, cast, zeros_like, ones_like, zeros, ones, fill, stop_gradient, equal, select, concat, cat, stack, unstack, split, gather, gather_nd, scatter_nd, one_hot, tile, strided_slice, tensordump, unsorted_segment_sum, unsorted_segment_prod, unsorted_segment_max,
    unsorted_segment_min, bias_add, bmm, batch_matmul, gelu, dropout, conv2d, max_pool2d, avg_pool2d, adaptive_avg_pool2d, l1_loss, mse_loss, cross_entropy, nll_loss, binary_cross_entropy_with_logits)
from mindspore.ops.operations import (  # noqa: E402
    AddN, ApplyMomentum, Argmax, AssignAdd, Conj, Conv2DBackpropInput, Conv2DTranspose, DType, Eye, Fill, FillV2, InvertPermutation,
    LogicalNot, MaxPoolWithArgmax, Ones, Partial, ReduceAll, ReduceAny, ResizeBilinearV2, ScalarSummary, Slice, Stack,
    TensorAdd, Unstack, Zeros,
    AdaptiveAvgPool2D, Assign, AvgPool, BatchMatMul, BatchNorm, BiasAdd, Concat, Conv2D, Dropout, Gather, GatherNd, GeLU, LayerNorm, MaxPool, OneHot, RealDiv, ScatterNd, Select, SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits, Split, StopGradient, StridedSlice, SparseGatherV2, Tile, Shape,
    UnsortedSegmentMax, UnsortedSegmentMin, UnsortedSegmentProd, UnsortedSegmentSum)

from mindspore.ops.operations import _elementary_ops
from mindspore.ops.operations._elementary_ops import *  # noqa: E402,F401,F403
from mindspore.ops.operations import _attention_ops
from mindspore.ops.operations._attention_ops import *  # noqa: E402,F401,F403

__all__ = ["operations", "GradOperation", "grad", "value_and_grad", "Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "ReduceOp", "Add", "Sub", "Mul", "Div", "Maximum",
           "Minimum", "Pow", "FloorDiv", "FloorMod", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
           "GreaterEqual", "Neg", "Abs", "Exp", "Log", "Sqrt", "Square", "ReLU", "Sigmoid", "Tanh", "Flatten", "Reshape", "ExpandDims", "Squeeze", "Transpose",
           "MatMul", "Conv3D", "MaxPool3D", "AvgPool3D", "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "AllReduce", "AllGather", "AlltoAll", "ReduceScatter", "Broadcast", "Send", "Receive", "KLDivLoss", "PadV3", "SplitV", "NeighborExchange", "NeighborExchangeV2", "add", "sub", "mul", "div", "maximum", "minimum", "pow", "neg",
           "abs", "exp", "log", "sqrt", "square", "relu", "sigmoid", "tanh", "matmul", "sum", "mean",
           "Cast", "Softmax", "LogSoftmax", "ZerosLike", "OnesLike", "softmax", "log_softmax", "shape", "reshape", "transpose", "expand_dims", "squeeze", "flatten", "cast", "zeros_like", "ones_like", "zeros", "ones", "fill", "stop_gradient", "equal", "select", "concat", "cat", "stack", "unstack", "split", "gather", "one_hot", "tile", "strided_slice", "bias_add", "bmm", "batch_matmul", "gelu", "dropout", "conv2d", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "l1_loss", "mse_loss", "cross_entropy", "nll_loss", "binary_cross_entropy_with_logits", "Assign", "AvgPool", "BatchMatMul", "BatchNorm", "BiasAdd", "Concat", "Conv2D", "Dropout", "Gather", "GeLU", "LayerNorm", "MaxPool", "OneHot", "RealDiv", "Select", "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "Split", "StopGradient", "StridedSlice", "Tile", "Shape", "SparseGatherV2", "tensordump", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd", "UnsortedSegmentSum", "unsorted_segment_sum", "unsorted_segment_prod", "unsorted_segment_max", "unsorted_segment_min", "GatherNd", "ScatterNd", "gather_nd", "scatter_nd",
           "AddN", "ApplyMomentum", "Argmax", "AssignAdd", "Conj", "Conv2DBackpropInput", "Conv2DTranspose", "DType", "Eye", "Fill",
           "FillV2", "InvertPermutation", "LogicalNot", "MaxPoolWithArgmax", "Ones", "Partial", "ReduceAll", "ReduceAny", "ResizeBilinearV2", "ScalarSummary",
           "Slice", "Stack", "TensorAdd", "Unstack", "Zeros", "AdaptiveAvgPool2D",
           "Print", "TensorDump", "Depend", "print_", "depend", "erf", "Erf",
           "BroadcastTo", "Ceil", "Cos", "CumSum", "Diag", "Digamma", "Erfc", "Expm1", "Floor", "Gcd", "Igamma",
           "Igammac", "InplaceIndexAdd", "IsFinite", "IsInf", "IsNan", "Lcm", "Lgamma", "Log1p", "MatrixBandPart",
           "MatrixTriangularSolve", "Reciprocal", "ReverseV2", "Round", "Rsqrt", "Sign", "Sin", "Trunc",
           "Zeta", "Real", "Imag", "Complex"] + list(_elementary_ops.__all__) + list(_attention_ops.__all__) + list(_math_func.__all__) + list(_elementary_func.__all__)


def print_(*input_x):
    """Writes ``input_x`` to standard output (``ops.Print``); returns None."""
    return Print()(*input_x)


def depend(value, expr):
    """``value``; MindSpore orders ``expr`` before its uses (``ops.Depend``)."""
    return Depend()(value, expr)


from mindspore.parallel.function.reshard_func import reshard  # noqa: E402
__all__ += ["reshard"]
