"""``mindspore.nn`` learning rate schedules: Cells mapping ``global_step`` to a learning rate.

Formulas, checks and messages follow MindSpore 2.10's ``mindspore/nn/learning_rate_schedule.py``.
Each schedule runs the engine operator ``LearningRateSchedule`` (float32 arithmetic as MindSpore's
ops), so a GRAPH_MODE training step recomputes the rate from the step on every replay.
"""
import math

from mindspore import _checkparam as validator
from mindspore.nn.cell import Cell
from mindspore.ops.primitive import Primitive

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]


class _Schedule(Primitive):
    def __init__(self, **attrs):
        super().__init__("LearningRateSchedule")
        for key, value in attrs.items():
            self.add_prim_attr(key, value)

    def __call__(self, global_step):
        return self._run_engine(global_step)


def _non_negative_float(value, name, cls_name):
    return validator._check_number(value, 0, validator.GE, float, name, cls_name)  # pylint: disable=protected-access


def _is_float(value, name, cls_name=None):
    if not isinstance(value, float):
        prefix = f"For '{cls_name}', the" if cls_name else "The"
        raise TypeError(f"{prefix} type of '{name}' must be 'float', but got '{type(value).__name__}'.")
    return value


class LearningRateSchedule(Cell):
    """Base class: ``construct(global_step)`` returns the learning rate."""

    def __init__(self):
        super().__init__()

    @property
    def cls_name(self):
        return type(self).__name__

    def construct(self, global_step):
        raise NotImplementedError


def _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, cls_name):
    validator.check_positive_int(decay_steps, "decay_steps", cls_name)
    validator.check_positive_float(learning_rate, "learning_rate", cls_name)
    _is_float(learning_rate, "learning_rate", cls_name)
    validator.check_positive_float(decay_rate, "decay_rate", cls_name)
    _is_float(decay_rate, "decay_rate", cls_name)
    validator.check_value_type("is_stair", is_stair, [bool], cls_name)


class _DecayLR(LearningRateSchedule):
    _kind = None

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, self.cls_name)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair
        self._op = _Schedule(kind=self._kind, learning_rate=learning_rate, decay_rate=decay_rate,
                             decay_steps=float(decay_steps), is_stair=is_stair)

    def construct(self, global_step):
        return self._op(global_step)


class ExponentialDecayLR(_DecayLR):
    """``lr * decay_rate ^ (step / decay_steps)``."""
    _kind = "exponential"


class NaturalExpDecayLR(_DecayLR):
    """``lr * e ^ (-decay_rate * step)``."""
    _kind = "natural_exp"


class InverseDecayLR(_DecayLR):
    """``lr / (1 + decay_rate * step / decay_steps)``."""
    _kind = "inverse"


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 * (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps))``."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        if not isinstance(min_lr, float):
            raise TypeError("For 'CosineDecayLR', the argument 'min_lr' must be type of float, "
                            "but got 'min_lr' type: {}.".format(type(min_lr)))
        _non_negative_float(min_lr, "min_lr", self.cls_name)
        validator.check_positive_float(max_lr, "max_lr", self.cls_name)
        _is_float(max_lr, "max_lr", self.cls_name)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        if min_lr >= max_lr:
            raise ValueError("For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', "
                             "but got 'max_lr' value: {}, 'min_lr' value: {}.".format(max_lr, min_lr))
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.math_pi = math.pi
        self.delta = 0.5 * (max_lr - min_lr)
        self._op = _Schedule(kind="cosine", min_lr=min_lr, delta=self.delta, decay_steps=float(decay_steps))

    def construct(self, global_step):
        return self._op(global_step)


class PolynomialDecayLR(LearningRateSchedule):
    """``(lr - end) * (1 - step / decay_steps) ^ power + end``."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        validator.check_positive_float(learning_rate, "learning_rate")
        _is_float(learning_rate, "learning_rate")
        if not isinstance(end_learning_rate, float):
            raise TypeError("For 'PolynomialDecayLR', the argument 'end_learning_rate' must be type of float, "
                            "but got 'end_learning_rate' type: {}.".format(type(end_learning_rate)))
        _non_negative_float(end_learning_rate, "end_learning_rate", self.cls_name)
        validator.check_positive_int(decay_steps, "decay_steps", self.cls_name)
        validator.check_value_type("update_decay_steps", update_decay_steps, [bool], self.cls_name)
        validator.check_positive_float(power, "power", self.cls_name)
        _is_float(power, "power", self.cls_name)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps
        self._op = _Schedule(kind="polynomial", diff=self.diff_learning_rate, end_learning_rate=end_learning_rate,
                             decay_steps=float(decay_steps), power=power, update_decay_steps=update_decay_steps)

    def construct(self, global_step):
        return self._op(global_step)


class WarmUpLR(LearningRateSchedule):
    """``lr * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        if not isinstance(learning_rate, float):
            raise TypeError("For 'WarmUpLR', the argument 'learning_rate' must be type of float, "
                            "but got 'learning_rate' type: {}.".format(type(learning_rate)))
        _non_negative_float(learning_rate, "learning_rate", self.cls_name)
        validator.check_positive_int(warmup_steps, "warmup_steps", self.cls_name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate
        self._op = _Schedule(kind="warmup", learning_rate=learning_rate, warmup_steps=float(warmup_steps))

    def construct(self, global_step):
        return self._op(global_step)
