"""``mindspore.mint.nn.functional``: activations, losses and ``linear`` under MindSpore 2.10's mint
names and arguments, over the shim's operators."""
from mindspore.ops import function as _F
from mindspore.ops import operations as _P

__all__ = ["relu", "sigmoid", "tanh", "gelu", "softmax", "log_softmax", "dropout", "linear", "mse_loss",
           "l1_loss", "cross_entropy"]


def relu(input, inplace=False):  # pylint: disable=redefined-builtin,unused-argument
    return _F.relu(input)


def sigmoid(input):  # pylint: disable=redefined-builtin
    return _F.sigmoid(input)


def tanh(input):  # pylint: disable=redefined-builtin
    return _F.tanh(input)


def gelu(input, approximate='none'):  # pylint: disable=redefined-builtin
    """GELU, exact (erf) or ``approximate='tanh'``."""
    return _F.gelu(input, approximate)


def softmax(input, dim=None, dtype=None):  # pylint: disable=redefined-builtin
    return _F.softmax(input, -1 if dim is None else dim, dtype=dtype)


def log_softmax(input, dim=None, dtype=None):  # pylint: disable=redefined-builtin
    if dtype is not None:
        input = input.astype(dtype)
    return _F.log_softmax(input, -1 if dim is None else dim)


def dropout(input, p=0.5, training=True, inplace=False):  # pylint: disable=redefined-builtin,unused-argument
    return _F.dropout(input, p, training)


def linear(input, weight, bias=None):  # pylint: disable=redefined-builtin
    """``input @ weight^T + bias`` over the last dim of ``input``."""
    shape = input.shape
    x = input if len(shape) == 2 else _F.reshape(input, (-1, shape[-1]))
    out = _P.MatMul(transpose_b=True)(x, weight)
    if bias is not None:
        out = _F.bias_add(out, bias)
    return out if len(shape) == 2 else _F.reshape(out, tuple(shape[:-1]) + (weight.shape[0],))


def mse_loss(input, target, reduction='mean'):  # pylint: disable=redefined-builtin
    return _F.mse_loss(input, target, reduction)


def l1_loss(input, target, reduction='mean'):  # pylint: disable=redefined-builtin
    return _F.l1_loss(input, target, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):  # pylint: disable=redefined-builtin
    return _F.cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)
