"""``mindspore.ops``."""
from mindspore.ops import operations
from mindspore.ops.operations import (Add, AllGather, AllReduce, Flatten, MatMul, Mul, ReduceOp, ReLU,
                                      Sub)
from mindspore.ops.primitive import Primitive, PrimitiveWithInfer

__all__ = ["operations", "Primitive", "PrimitiveWithInfer", "ReduceOp", "Add", "Sub", "Mul", "ReLU",
           "Flatten", "MatMul", "AllReduce", "AllGather"]
