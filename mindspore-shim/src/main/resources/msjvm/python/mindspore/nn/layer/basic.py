"""``nn.Dense``, ``nn.Flatten``, ``nn.Dropout``, ``nn.Identity`` as MindSpore 2.10.

Dense keeps MindSpore's layout and defaults: weight ``[out_channels, in_channels]`` initialized
with ``HeUniform(sqrt(5))``, bias ``Uniform(1 / sqrt(in_channels))``, computed as
``BiasAdd(MatMul(x, weight^T), bias)``; inputs of rank > 2 are flattened to 2-D and back.
"""
import math

from mindspore import _checkparam as Validator
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer.activation import get_activation
from mindspore.ops import operations as P
from mindspore.ops.primitive import Primitive

__all__ = ["Dense", "Linear", "Flatten", "Dropout", "Identity"]


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight^T + bias)``."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = Validator.check_positive_int(in_channels, "in_channels", self.cls_name)
        self.out_channels = Validator.check_positive_int(out_channels, "out_channels", self.cls_name)
        self.has_bias = Validator.check_bool(has_bias, "has_bias", self.cls_name)
        self.reshape = P.Reshape()
        if isinstance(weight_init, Tensor):
            if weight_init.ndim != 2 or weight_init.shape[0] != out_channels or \
                    weight_init.shape[1] != in_channels:
                raise ValueError(f"For '{self.cls_name}', weight init shape error. The ndim of 'weight_init' must "
                                 f"be equal to 2, and the first dim must be equal to 'out_channels', and the "
                                 f"second dim must be equal to 'in_channels'. But got 'weight_init': {weight_init}, "
                                 f"'out_channels': {out_channels}, 'in_channels': {in_channels}.")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor):
                if bias_init.ndim != 1 or bias_init.shape[0] != out_channels:
                    raise ValueError(f"For '{self.cls_name}', bias init shape error. The ndim of 'bias_init' must "
                                     f"be equal to 1, and the first dim must be equal to 'out_channels'. But got "
                                     f"'bias_init': {bias_init}, 'out_channels': {out_channels}.")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
            self.bias_add = P.BiasAdd()
        self.matmul = P.MatMul(transpose_b=True)
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not isinstance(self.activation, (Cell, Primitive)):
            raise TypeError(f"For '{self.cls_name}', the 'activation' must be str or Cell or Primitive, but got "
                            f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        x_shape = x.shape
        if len(x_shape) != 2:
            x = self.reshape(x, (-1, x_shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = self.bias_add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(x_shape) != 2:
            x = self.reshape(x, x_shape[:-1] + (x.shape[-1],))
        return x

    def extend_repr(self):
        s = f'input_channels={self.in_channels}, output_channels={self.out_channels}'
        if self.has_bias:
            s += f', has_bias={self.has_bias}'
        if self.activation_flag:
            s += f', activation={self.activation}'
        return s


class Linear(Dense):
    """``nn.Linear(in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None)``
    (MindSpore 2.10, also ``mint.nn.Linear``): Dense's weight, bias, defaults and computation under
    the torch-style names; inputs of any rank >= 1 map their last dimension."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None):
        in_features = Validator.check_positive_int(in_features, "in_features", type(self).__name__)
        out_features = Validator.check_positive_int(out_features, "out_features", type(self).__name__)
        if isinstance(weight_init, Tensor) and (weight_init.ndim != 2 or weight_init.shape[0] != out_features
                                                or weight_init.shape[1] != in_features):
            raise ValueError(f"For 'Linear', weight init shape error. The ndim of 'weight_init' must "
                             f"be equal to 2, and the first dim must be equal to 'out_features', and the "
                             f"second dim must be equal to 'in_features'. But got 'weight_init': {weight_init}, "
                             f"'out_features': {out_features}, 'in_features': {in_features}.")
        if bias and isinstance(bias_init, Tensor) and (bias_init.ndim != 1 or bias_init.shape[0] != out_features):
            raise ValueError(f"For 'Linear', bias init shape error. The ndim of 'bias_init' must "
                             f"be equal to 1, and the first dim must be equal to 'out_features'. But got "
                             f"'bias_init': {bias_init}, 'out_features': {out_features}.")
        super().__init__(in_features, out_features, weight_init, bias_init,
                         Validator.check_bool(bias, "has_bias", type(self).__name__), None,
                         mstype.float32 if dtype is None else dtype)
        self.in_features = in_features
        self.out_features = out_features

    def extend_repr(self):
        s = f'input_features={self.in_features}, output_features={self.out_features}'
        if self.has_bias:
            s += f', has_bias={self.has_bias}'
        return s


class Flatten(Cell):
    """Flattens the dimensions from ``start_dim`` to ``end_dim`` (default: all but the first)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        Validator.check_value_type("start_dim", start_dim, int, self.cls_name)
        Validator.check_value_type("end_dim", end_dim, int, self.cls_name)
        self.start_dim = start_dim
        self.end_dim = end_dim
        self.reshape = P.Reshape()

    def construct(self, x):
        shape = x.shape
        rank = len(shape)
        if rank == 0:
            return self.reshape(x, (1,))
        start = self.start_dim + rank if self.start_dim < 0 else self.start_dim
        end = self.end_dim + rank if self.end_dim < 0 else self.end_dim
        if not 0 <= start < rank or not 0 <= end < rank:
            raise ValueError(f"For 'Flatten', 'start_dim' and 'end_dim' must be in range [{-rank}, {rank}), "
                             f"but got {self.start_dim} and {self.end_dim}.")
        if start > end:
            raise ValueError(f"For 'Flatten', 'start_dim' cannot come after 'end_dim', but got "
                             f"{self.start_dim} and {self.end_dim}.")
        size = 1
        for d in shape[start:end + 1]:
            size *= d
        return self.reshape(x, shape[:start] + (size,) + shape[end + 1:])


class Dropout(Cell):
    """Zeroes inputs with probability ``p`` in training (scaling the rest by ``1 / (1 - p)``)."""

    def __init__(self, keep_prob=None, p=None, dtype=mstype.float32):  # pylint: disable=unused-argument
        super().__init__()
        if keep_prob is not None and p is not None:
            raise ValueError(f"For '{self.cls_name}', the 'keep_prob' and 'p' can not be set at the same time.")
        if p is None:
            keep_prob = 0.5 if keep_prob is None else keep_prob
            if not isinstance(keep_prob, float) or not 0 < keep_prob <= 1:
                raise ValueError(f"For '{self.cls_name}', the 'keep_prob' must be a number in range (0, 1], "
                                 f"but got {keep_prob}.")
            p = 1.0 - keep_prob
        else:
            if not isinstance(p, float) or not 0 <= p < 1:
                raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1), but got {p}.")
        self.p = p
        self.keep_prob = 1.0 - p
        self.dropout = P.Dropout(self.keep_prob) if self.keep_prob < 1.0 else None

    def construct(self, x):
        if not self.training or self.dropout is None:
            return x
        out, _ = self.dropout(x)
        return out

    def extend_repr(self):
        return f"p={self.p}"


class Identity(Cell):
    """Returns its input."""

    def construct(self, x):
        return x
