"""``mindspore.nn.Lamb``: layer-wise adaptive moments (the fused ``Lamb`` operator, as MindSpore
2.10's ``inner.Lamb``), with MindSpore's checks."""
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn.optim.adam import _check_param_value
from mindspore.nn.optim.optimizer import Optimizer, _EngineOp

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """``Lamb(params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``."""
    _support_parallel_optimizer = True

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor([beta1], mstype.float32)
        self.beta2 = Tensor([beta2], mstype.float32)
        self.eps = Tensor([eps], mstype.float32)
        self.params = self._parameters
        self.moments1 = self.params.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.params.clone(prefix="lamb_v", init="zeros")
        self.opt = _EngineOp("Lamb")
        self._zero = Tensor(0.0, mstype.float32)

    def construct(self, gradients):
        weight_decay = self.get_weight_decay()
        lrs = self._step_lrs(self.get_lr())
        self._increase_global_step()
        gradients = self.gradients_centralization(tuple(gradients))
        for i in range(self.param_length):
            wd = weight_decay[i] if self.is_group else weight_decay
            self.opt(self.params[i], self.moments1[i], self.moments2[i], lrs[i], self.beta1, self.beta2, self.eps,
                     wd if self.decay_flags[i] else self._zero, self.global_step, gradients[i])
        return tuple(True for _ in range(self.param_length))
