"""``mindspore.ops.operations.sparse_ops``: MindSpore's module path of the sparse set operations."""
from mindspore.ops.operations._math_extra_ops import (DenseToDenseSetOperation,  # noqa: F401
                                                      DenseToSparseSetOperation)
