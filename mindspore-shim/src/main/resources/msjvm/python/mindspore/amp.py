"""``mindspore.amp``: mixed precision (levels, loss scale managers) and functional loss scaling.

``auto_mixed_precision``/``build_train_network`` are in ``mindspore.train.amp``; the loss scalers
here serve functional training loops (``scale`` the loss, ``unscale`` the gradients, ``adjust``
the scale from ``all_finite(grads)``), with MindSpore 2.10's arguments and messages.
"""
from mindspore import _checkparam as validator
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.wrap.loss_scale import _all_finite
from mindspore.train.amp import (auto_mixed_precision, build_train_network, custom_mixed_precision,
                                 get_black_list, get_white_list)
from mindspore.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "DynamicLossScaler", "StaticLossScaler", "LossScaler", "auto_mixed_precision", "all_finite",
           "custom_mixed_precision", "get_white_list", "get_black_list"]


def all_finite(inputs):
    """Bool scalar Tensor: every element of every tensor in ``inputs`` is finite."""
    return _all_finite(inputs)


def _map(inputs, fn):
    if isinstance(inputs, (tuple, list)):
        return tuple(fn(x) for x in inputs)
    return fn(inputs)


class LossScaler:
    """Abstract loss scaler: ``scale``, ``unscale``, ``adjust``."""

    def scale(self, inputs):
        raise NotImplementedError

    def unscale(self, inputs):
        raise NotImplementedError

    def adjust(self, grads_finite):
        raise NotImplementedError


class StaticLossScaler(LossScaler):
    """Scales and unscales by a constant ``scale_value``."""

    def __init__(self, scale_value):
        scale_value = validator.check_value_type("scale_value", scale_value, [float, int])
        if scale_value < 1.0:
            raise ValueError("The argument 'scale_value' must be > 1, but got {}".format(scale_value))
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")

    def scale(self, inputs):
        return _map(inputs, lambda x: x * self.scale_value.astype(x.dtype))

    def unscale(self, inputs):
        return _map(inputs, lambda x: x * (1.0 / self.scale_value).astype(x.dtype))

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """Multiplies the scale by ``scale_factor`` after ``scale_window`` finite steps in a row and
    divides it (not below 1) on a non-finite one."""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        self.scale_window = validator.check_positive_int(scale_window, "scale_window")
        self.scale_factor = validator.check_positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def adjust(self, grads_finite):
        scale = float(self.scale_value.item())
        counter = int(self.counter.item())
        if bool(grads_finite):
            grown = scale * self.scale_factor
            if counter == self.scale_window - 1 and grown != float("inf"):
                scale = grown
            counter = (counter + 1) % self.scale_window
        else:
            scale = max(1.0, scale / self.scale_factor)
            counter = 0
        self.scale_value.set_data(Tensor(scale, mstype.float32))
        self.counter.set_data(Tensor(counter, mstype.int32))
        return True
