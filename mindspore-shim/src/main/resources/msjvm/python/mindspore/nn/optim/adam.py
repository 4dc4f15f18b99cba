"""``mindspore.nn.Adam`` (fused ``Adam`` operator with bias correction through the ``beta1_power`` /
``beta2_power`` Parameters) and ``AdamWeightDecay`` (fused ``AdamWeightDecay``), with MindSpore
2.10's checks and messages."""
from mindspore import _checkparam as validator
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.optim.optimizer import Optimizer, _EngineOp, _assign

__all__ = ["Adam", "AdamWeightDecay"]


def _check_param_value(beta1, beta2, eps, prim_name):
    validator.check_value_type("beta1", beta1, [float], prim_name)
    validator.check_value_type("beta2", beta2, [float], prim_name)
    validator.check_value_type("eps", eps, [float], prim_name)
    validator.check_float_range(beta1, 0.0, 1.0, validator.INC_NEITHER, "beta1", prim_name)
    validator.check_float_range(beta2, 0.0, 1.0, validator.INC_NEITHER, "beta2", prim_name)
    validator.check_positive_float(eps, "eps", prim_name)


class Adam(Optimizer):
    """``Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False)``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        valid_keys = {"use_lazy", "use_offload"}
        if set(kwargs.keys()) - valid_keys:
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and"
                           f"'use_offload', but got {kwargs.keys()}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        validator.check_value_type("use_locking", use_locking, [bool], self.cls_name)
        validator.check_value_type("use_nesterov", use_nesterov, [bool], self.cls_name)
        validator.check_value_type("use_amsgrad", use_amsgrad, [bool], self.cls_name)
        validator.check_value_type("use_lazy", use_lazy, [bool], self.cls_name)
        validator.check_value_type("use_offload", use_offload, [bool], self.cls_name)
        if use_lazy and use_offload:
            raise ValueError(f"For 'Adam', 'use_lazy' and 'use_offload' can not both be True."
                             f"But got use_lazy={use_lazy}, use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ValueError(f"For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad'."
                             f"but got 'use_amsgrad'={use_amsgrad}.")
        if use_amsgrad:
            raise NotImplementedError("msjvm: Adam(use_amsgrad=True) is not supported yet.")
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(Tensor(1.0, mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(Tensor(1.0, mstype.float32), name="beta2_power")
        self.eps = Tensor(eps, mstype.float32)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        self.opt = _EngineOp("Adam", use_locking=use_locking, use_nesterov=use_nesterov)

    def construct(self, gradients):
        gradients = self._preprocess(gradients)
        lrs = self._step_lrs(self.get_lr())
        self._increase_global_step()
        beta1_power = _assign(self.beta1_power, self.beta1_power * self.beta1)
        beta2_power = _assign(self.beta2_power, self.beta2_power * self.beta2)
        for i in range(self.param_length):
            self.opt(self._parameters[i], self.moment1[i], self.moment2[i], beta1_power, beta2_power, lrs[i],
                     self.beta1, self.beta2, self.eps, gradients[i])
        return tuple(True for _ in range(self.param_length))


class AdamWeightDecay(Optimizer):
    """``AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0)``:
    Adam without bias correction, the decay added to the update (not to the gradient)."""
    _support_parallel_optimizer = True

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = Tensor([beta1], mstype.float32)
        self.beta2 = Tensor([beta2], mstype.float32)
        self.eps = Tensor([eps], mstype.float32)
        self.moments1 = self._parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix="adam_v", init="zeros")
        self.fused_opt = _EngineOp("AdamWeightDecay")
        self.use_fused_opt = True
        self._zero = Tensor(0.0, mstype.float32)

    def construct(self, gradients):
        weight_decay = self.get_weight_decay()
        lrs = self._step_lrs(self.get_lr())
        self._increase_global_step()
        for i in range(self.param_length):
            wd = weight_decay[i] if self.is_group else weight_decay
            param = self._parameters[i]
            grad = gradients[i]
            if grad.dtype != param.dtype:
                grad = grad.astype(param.dtype)
            self.fused_opt(param, self.moments1[i], self.moments2[i], lrs[i], self.beta1, self.beta2, self.eps,
                           wd if self.decay_flags[i] else self._zero, grad)
        return tuple(True for _ in range(self.param_length))
