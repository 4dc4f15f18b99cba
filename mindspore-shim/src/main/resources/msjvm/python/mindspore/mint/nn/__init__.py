"""``mindspore.mint.nn``: the layers published scripts take from mint (MindSpore 2.10's names and
arguments over the shim's cells)."""
from mindspore.mint.nn import functional  # noqa: F401
from mindspore.nn.cell import Cell
from mindspore.nn.layer.activation import ReLU, Sigmoid, Tanh
from mindspore.nn.layer.basic import Identity, Linear
from mindspore.nn.loss.loss import CrossEntropyLoss, L1Loss, MSELoss

__all__ = ["functional", "Linear", "Identity", "ReLU", "Sigmoid", "Tanh", "GELU", "Softmax", "Dropout", "Flatten",
           "CrossEntropyLoss", "L1Loss", "MSELoss"]


class GELU(Cell):
    """``GELU(approximate='none')``: the exact erf form, or ``'tanh'``'s approximation."""

    def __init__(self, approximate='none'):
        super().__init__()
        self.approximate = approximate

    def construct(self, input):  # pylint: disable=redefined-builtin
        return functional.gelu(input, approximate=self.approximate)


class Softmax(Cell):
    """``Softmax(dim=None)``: softmax along ``dim`` (None: the last)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):  # pylint: disable=redefined-builtin
        return functional.softmax(input, self.dim)


class Dropout(Cell):
    """``Dropout(p=0.5, inplace=False)``: zeroes elements with probability ``p`` while training."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0 <= p <= 1:
            raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p
        self.inplace = inplace

    def construct(self, input):  # pylint: disable=redefined-builtin
        return functional.dropout(input, self.p, self.training)


class Flatten(Cell):
    """``Flatten(start_dim=1, end_dim=-1)``."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, input):  # pylint: disable=redefined-builtin
        from mindspore import mint  # pylint: disable=import-outside-toplevel
        return mint.flatten(input, self.start_dim, self.end_dim)
