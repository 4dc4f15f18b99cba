"""``mindspore.nn.Momentum``: ``ApplyMomentum`` per parameter (MindSpore 2.10's checks)."""
from mindspore import _checkparam as Validator
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.optim.optimizer import Optimizer, _EngineOp

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """``Momentum(params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False)``."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        Validator.check_value_type("momentum", momentum, [float], self.cls_name)
        if isinstance(momentum, float) and momentum < 0.0:
            raise ValueError("For 'Momentum', the argument 'momentum' must be at least 0.0, "
                             "but got {}".format(momentum))
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = Validator.check_bool(use_nesterov)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.opt = _EngineOp("ApplyMomentum", use_nesterov=self.use_nesterov)

    def construct(self, gradients):
        gradients = self._preprocess(gradients)
        lrs = self._step_lrs(self.get_lr())
        self._increase_global_step()
        for i in reversed(range(self.param_length)):
            self.opt(self.params[i], self.moments[i], lrs[i], gradients[i], self.momentum)
        return tuple(True for _ in range(self.param_length))
