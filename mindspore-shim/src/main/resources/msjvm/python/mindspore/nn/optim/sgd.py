"""``mindspore.nn.SGD``: the fused ``SGD`` operator per parameter (MindSpore 2.10's checks)."""
from mindspore import _checkparam as validator
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.optim.optimizer import Optimizer, _EngineOp

__all__ = ["SGD"]


class SGD(Optimizer):
    """``SGD(params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
    loss_scale=1.0)``."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float):
            raise TypeError(f"For 'SGD', the argument 'momentum' must be float type, but got {type(momentum)}.")
        if isinstance(momentum, float) and momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}.")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float):
            raise TypeError(f"For 'SGD', the argument 'dampening' must be float type, but got {type(dampening)}.")
        if dampening < 0.0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, "
                             f"but got 'dampening' {dampening}")
        self.dampening = dampening
        validator.check_value_type("nesterov", nesterov, [bool], self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             f"equal to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}.")
        self.nesterov = nesterov
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' "
                            "or 'weight_decay' set in grouped 'params' must be float or int type.")
        self.opt = _EngineOp("SGD", dampening=dampening, weight_decay=0.0, nesterov=nesterov)
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients):
        gradients = self._preprocess(gradients)
        lrs = self._step_lrs(self.get_lr())
        self._increase_global_step()
        for i in reversed(range(self.param_length)):
            self.opt(self._parameters[i], gradients[i], lrs[i], self.accum[i], self.momentum, self.stat[i])
        return True
