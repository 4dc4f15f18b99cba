"""Activation cells (``nn.ReLU``, ``nn.GELU``...) and ``get_activation``, as MindSpore 2.10."""
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["ReLU", "GELU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "get_activation"]


class ReLU(Cell):
    """``max(x, 0)``."""

    def __init__(self):
        super().__init__()
        self.relu = P.ReLU()

    def construct(self, x):
        return self.relu(x)


class GELU(Cell):
    """Gaussian error linear unit: the tanh approximation (MindSpore's GeLU kernel) or, with
    ``approximate=False``, the exact erf form."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', the type of 'approximate' must be bool, but got "
                            f"{type(approximate).__name__}.")
        self.approximate = 'tanh' if approximate else 'none'
        self.gelu = P.GeLU()

    def construct(self, x):
        if self.approximate == 'tanh':
            return self.gelu(x)
        from mindspore.ops.function import gelu  # pylint: disable=import-outside-toplevel
        return gelu(x, 'none')


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))``."""

    def __init__(self):
        super().__init__()
        self.sigmoid = P.Sigmoid()

    def construct(self, x):
        return self.sigmoid(x)


class Tanh(Cell):
    """Hyperbolic tangent."""

    def __init__(self):
        super().__init__()
        self.tanh = P.Tanh()

    def construct(self, x):
        return self.tanh(x)


class Softmax(Cell):
    """Softmax along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.softmax = P.Softmax(axis)

    def construct(self, x):
        return self.softmax(x)


class LogSoftmax(Cell):
    """Log-softmax along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.log_softmax = P.LogSoftmax(axis)

    def construct(self, x):
        return self.log_softmax(x)


_ACTIVATIONS = {
    'relu': ReLU,
    'gelu': GELU,
    'sigmoid': Sigmoid,
    'tanh': Tanh,
    'softmax': Softmax,
    'logsoftmax': LogSoftmax,
}


def get_activation(name, prim_name=None):
    """The activation cell named ``name`` (None for None)."""
    msg_prefix = f"For '{prim_name}', the" if prim_name else "The"
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"{msg_prefix} 'name' must be str, but got {type(name).__name__}.")
    if name not in _ACTIVATIONS:
        raise KeyError(f"{msg_prefix} 'name' must be in {list(_ACTIVATIONS)}, but got {name}.")
    return _ACTIVATIONS[name]()
