"""Activation cells (``nn.ReLU``, ``nn.GELU``...) and ``get_activation``, as MindSpore 2.10."""
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["ReLU", "GELU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "PReLU", "FastGelu", "SiLU", "get_activation"]


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


class PReLU(Cell):
    """Parametric ReLU: a learnt slope per channel (Parameter ``a``, ``channel`` values of ``w``) below zero."""

    def __init__(self, channel=1, w=0.25):
        import numpy as np  # pylint: disable=import-outside-toplevel
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        super().__init__()
        if not isinstance(channel, int) or isinstance(channel, bool) or channel <= 0:
            raise ValueError(f"For 'PReLU', the 'channel' must be int and must > 0, but got '{channel}' with type "
                             f"'{type(channel).__name__}'.")
        if isinstance(w, (float, np.float32)):
            w = Tensor([float(w)] * channel, mstype.float32)
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For 'PReLU', the length of 'w' must be equal to the 'channel' when the 'w' is a "
                                 f"list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            for i in w:
                if not isinstance(i, (float, np.float32)):
                    raise ValueError(f"For 'PReLU', all elements in 'w' must be float when the 'w' is a list, "
                                     f"but got {i}.")
            w = Tensor(w, mstype.float32)
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(f"For 'PReLU', the dtype of 'w' must be float16 or float32 when the 'w' is a "
                                 f"tensor, but got {w.dtype}.")
            if len(w.shape) != 1 or w.shape[0] != channel:
                raise ValueError(f"For 'PReLU', the dimension of 'w' must be 1, and the elements number should be "
                                 f"equal to the 'channel' when the 'w' is a tensor, but got 'w' shape {w.shape}, "
                                 f"the 'channel' {channel}.")
        else:
            raise TypeError(f"For 'PReLU', the 'w' only supported float, list and tensor, but got {type(w).__name__}.")
        self.w = Parameter(w, name='a')
        self.prelu = P.PReLU()

    def construct(self, x):
        return self.prelu(x, P.Cast()(self.w, x.dtype))


class FastGelu(Cell):
    """``x * sigmoid(1.702 x)`` (MindSpore's FastGeLU)."""

    def __init__(self):
        super().__init__()
        self.fast_gelu = P.FastGeLU()

    def construct(self, x):
        return self.fast_gelu(x)


class SiLU(Cell):
    """``x * sigmoid(x)`` (MindSpore's nn.SiLU)."""

    def __init__(self):
        super().__init__()
        from mindspore.ops.operations._inner_ops import SiLU as _SiLU  # pylint: disable=import-outside-toplevel
        self.silu = _SiLU()

    def construct(self, x):
        return self.silu(x)


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
    'fast_gelu': FastGelu,
    'prelu': PReLU,
    'silu': SiLU,
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
