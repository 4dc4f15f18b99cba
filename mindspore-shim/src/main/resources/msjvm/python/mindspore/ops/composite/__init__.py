"""``mindspore.ops.composite``: automatic differentiation."""
from mindspore.ops.composite.base import GradOperation, grad, value_and_grad

__all__ = ["GradOperation", "grad", "value_and_grad"]
