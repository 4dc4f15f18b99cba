"""``mindspore.ops``: primitives (``ops.Add()``...) and functional forms (``ops.add``...)."""
from mindspore.ops import operations
from mindspore.ops.function import (abs, add, div, exp, log, matmul, maximum, minimum, mul, neg, pow,  # noqa: A004
                                    relu, sigmoid, sqrt, square, sub, tanh)
from mindspore.ops.operations import (Abs, Add, AllGather, AllReduce, Div, Equal, Exp, Flatten, FloorDiv,
                                      FloorMod, Greater, GreaterEqual, Less, LessEqual, Log, MatMul, Maximum,
                                      Minimum, Mul, Neg, NotEqual, Pow, ReduceOp, ReLU, Sigmoid, Sqrt, Square,
                                      Sub, Tanh)
from mindspore.ops.primitive import Primitive, PrimitiveWithInfer

__all__ = ["operations", "Primitive", "PrimitiveWithInfer", "ReduceOp", "Add", "Sub", "Mul", "Div", "Maximum",
           "Minimum", "Pow", "FloorDiv", "FloorMod", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
           "GreaterEqual", "Neg", "Abs", "Exp", "Log", "Sqrt", "Square", "ReLU", "Sigmoid", "Tanh", "Flatten",
           "MatMul", "AllReduce", "AllGather", "add", "sub", "mul", "div", "maximum", "minimum", "pow", "neg",
           "abs", "exp", "log", "sqrt", "square", "relu", "sigmoid", "tanh", "matmul"]
