"""``mindspore.nn`` dynamic learning rates: plain Python lists, one value per step (MindSpore 2.10's
``mindspore/nn/dynamic_lr.py`` formulas, checks and messages)."""
import math

from mindspore import _checkparam as validator

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def _non_negative_float(value, name):
    return validator._check_number(value, 0, validator.GE, float, name, None)  # pylint: disable=protected-access


def _is_float(value, name):
    if not isinstance(value, float):
        raise TypeError(f"The type of '{name}' must be 'float', but got '{type(value).__name__}'.")
    return value


def piecewise_constant_lr(milestone, learning_rates):
    """``learning_rates[i]`` for the steps up to ``milestone[i]``."""
    validator.check_value_type("milestone", milestone, (tuple, list))
    validator.check_value_type("learning_rates", learning_rates, (tuple, list))
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of "
                         f"'learning_rates', but got 'milestone' size: {len(milestone)}, 'learning_rates' size: "
                         f"{len(learning_rates)}.")
    lr = []
    last = 0
    for i, item in enumerate(milestone):
        validator.check_positive_int(item, f"milestone[{i}]")
        _is_float(learning_rates[i], f"learning_rates[{i}]")
        if item < last:
            raise ValueError(f"For 'piecewise_constant_lr', the value of milestone[{i}] must be greater than "
                             f"milestone[{i - 1}], but got milestone[{i}]: {milestone[i]}, "
                             f"milestone[{i - 1}]: {milestone[i - 1]}.")
        lr += [learning_rates[i]] * (item - last)
        last = item
    return lr


def _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair):
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_positive_float(learning_rate, "learning_rate")
    _is_float(learning_rate, "learning_rate")
    validator.check_positive_float(decay_rate, "decay_rate")
    _is_float(decay_rate, "decay_rate")
    validator.check_value_type("is_stair", is_stair, [bool])


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``lr * decay_rate ^ (epoch / decay_epoch)`` (floored when ``is_stair``)."""
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        out.append(learning_rate * decay_rate ** (math.floor(p) if is_stair else p))
    return out


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``lr * e ^ (-decay_rate * epoch)`` (epoch rounded down to ``decay_epoch`` when ``is_stair``)."""
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        out.append(learning_rate * math.e ** (-decay_rate * epoch))
    return out


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair=False):
    """``lr / (1 + decay_rate * epoch / decay_epoch)`` (floored when ``is_stair``)."""
    _check_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair)
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            out.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            out.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return out


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch):
    """``min_lr + (max_lr - min_lr) / 2 * (1 + cos(pi * epoch / decay_epoch))``."""
    if not isinstance(min_lr, float):
        raise TypeError(f"For 'cosine_decay_lr', the argument 'min_lr' must be type of float, "
                        f"but got 'min_lr' type: {type(min_lr)}.")
    _non_negative_float(min_lr, "min_lr")
    validator.check_positive_float(max_lr, "max_lr")
    _is_float(max_lr, "max_lr")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    if min_lr >= max_lr:
        raise ValueError(f"For 'cosine_decay_lr', the 'max_lr' must be greater than the 'min_lr', "
                         f"but got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
    delta = 0.5 * (max_lr - min_lr)
    out = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        out.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return out


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch, decay_epoch, power,
                        update_decay_epoch=False):
    """``(lr - end) * (1 - epoch / decay_epoch) ^ power + end``."""
    validator.check_positive_float(learning_rate, "learning_rate")
    _is_float(learning_rate, "learning_rate")
    if not isinstance(end_learning_rate, float):
        raise TypeError(f"For 'polynomial_decay_lr', the argument 'end_learning_rate' must be type of float, "
                        f"but got 'end_learning_rate' type: {type(end_learning_rate)}.")
    _non_negative_float(end_learning_rate, "end_learning_rate")
    validator.check_positive_float(power, "power")
    _is_float(power, "power")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_value_type("update_decay_epoch", update_decay_epoch, [bool])
    delta = learning_rate - end_learning_rate
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            decay_epoch_, tmp = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            decay_epoch_, tmp = decay_epoch, min(decay_epoch, epoch)
        out.append(delta * (1 - tmp / decay_epoch_) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch):
    """``lr * min(epoch, warmup_epoch) / warmup_epoch``."""
    if not isinstance(learning_rate, float):
        raise TypeError(f"For 'warmup_lr', the argument 'learning_rate' must be type of float, "
                        f"but got 'learning_rate' type: {type(learning_rate)}.")
    _non_negative_float(learning_rate, "learning_rate")
    validator.check_positive_int(warmup_epoch, "warmup_epoch")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        out.append(learning_rate * min(warmup_epoch, epoch) / warmup_epoch)
    return out
