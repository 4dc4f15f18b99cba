"""``mindspore.amp``'s loss scale managers (``mindspore/train/loss_scale_manager.py`` in MindSpore).

``Model(..., loss_scale_manager=...)`` multiplies the loss (the gradient seed) by the manager's
scale; with an update cell (``FixedLossScaleManager(drop_overflow_update=True)`` or any
``DynamicLossScaleManager``) the step becomes ``nn.TrainOneStepWithLossScaleCell``, which skips
the optimizer on overflow and lets the cell adjust the scale. Arguments are checked with
MindSpore 2.10's messages.
"""
from mindspore import _checkparam as validator

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


class LossScaleManager:
    """Abstract loss scale manager: ``get_loss_scale``, ``update_loss_scale``, ``get_update_cell``."""

    def get_loss_scale(self):
        """The current loss scale."""

    def update_loss_scale(self, overflow):
        """Updates the scale after a step (``overflow``: whether the gradients overflowed)."""

    def get_update_cell(self):
        """The ``nn.Cell`` that updates the scale inside the training step, or None."""


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale; with ``drop_overflow_update`` the update is skipped on overflow."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError("The argument 'loss_scale' must be >= 1, but got {}".format(loss_scale))
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed: nothing to update."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        from mindspore import nn  # pylint: disable=import-outside-toplevel
        return nn.FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """Scale divided by ``scale_factor`` on overflow and multiplied by it after ``scale_window``
    steps without one."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError("The argument 'init_loss_scale' must be > 1, but got {}".format(init_loss_scale))
        self.loss_scale = init_loss_scale
        validator.check_positive_int(scale_window, "scale_window", self.__class__.__name__)
        self.scale_window = scale_window
        if scale_factor <= 0:
            raise ValueError("The argument 'scale_factor' must be > 0, but got {}".format(scale_factor))
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def update_loss_scale(self, overflow):
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError("Dynamic loss scale Continuous overflow ", self.bad_step,
                               " times, has exceeded maximum threshold.")
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        return True

    def get_update_cell(self):
        from mindspore import nn  # pylint: disable=import-outside-toplevel
        return nn.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
