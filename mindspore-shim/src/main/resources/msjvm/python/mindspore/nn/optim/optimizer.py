"""``mindspore.nn.Optimizer``: the base of optimizers — parameter groups, learning rates, decay.

Checks, messages and semantics follow MindSpore 2.10's ``mindspore/nn/optim/optimizer.py``: the
learning rate is a float/int (kept in a ``learning_rate`` Parameter), a 0-d Tensor, a 1-d Tensor
or an Iterable (the i-th step takes the i-th value) or a ``LearningRateSchedule``; parameters are a
list of Parameters or of group dicts (``params``, ``lr``, ``weight_decay``, ``grad_centralization``,
``order_params``); ungrouped weight decay skips parameters whose names contain ``beta`` or
``gamma``. Every quantity that changes from step to step (``global_step``, dynamic learning rates,
the updates) is computed by engine operators, so a GRAPH_MODE training step replays it.
"""
import numbers
from collections.abc import Iterable

from mindspore import _checkparam as validator
from mindspore import log as logger
from mindspore.common import dtype as mstype
from mindspore.common._parameter_tuple import ParameterTuple
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.learning_rate_schedule import LearningRateSchedule
from mindspore.ops.primitive import Primitive

__all__ = ["Optimizer"]


class _EngineOp(Primitive):
    """An engine operator with fixed attributes, called on tensors and Parameters."""

    def __init__(self, name, **attrs):
        super().__init__(name)
        for key, value in attrs.items():
            self.add_prim_attr(key, value)

    def __call__(self, *inputs):
        return self._run_engine(*inputs)


_ASSIGN = _EngineOp("Assign")


def _assign(param, value):
    return _ASSIGN(param, value)


def _check_non_negative_float(value, name, prim_name):
    return validator._check_number(value, 0, validator.GE, float, name, prim_name)  # pylint: disable=protected-access


def _check_is_float(value, name, prim_name):
    if isinstance(value, float):
        return value
    raise TypeError(f"For '{prim_name}', the type of '{name}' must be 'float', but got '{type(value).__name__}'.")


class Optimizer(Cell):
    """``Optimizer(learning_rate, parameters, weight_decay=0.0, loss_scale=1.0)``."""
    _support_parallel_optimizer = False

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        parameters = self._parameters_base_check(parameters, "parameters")
        self.param_rank = None
        self.optim_filter = None
        if not isinstance(parameters, list):
            raise TypeError(f"For 'Optimizer' argument 'parameters' must be 'list', but got {type(parameters)}.")
        if not all(isinstance(x, Parameter) for x in parameters) and not all(isinstance(x, dict) for x in parameters):
            raise TypeError("For 'Optimizer', all elements of the argument 'parameters' must be 'Parameter' or 'dict',"
                            " please check the 'parameters'.")
        if isinstance(loss_scale, int):
            loss_scale = float(loss_scale)
        validator.check_value_type("loss_scale", loss_scale, [float], self.cls_name)
        validator.check_positive_float(loss_scale, "loss_scale", self.cls_name)
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self.dynamic_lr = False
        self.global_step = Parameter(Tensor([0], mstype.int32), name='global_step')
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        self.use_parallel = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params = []
            self.group_lr = []
            self.group_weight_decay = []
            self.group_grad_centralization = []
            self._init_group_params(parameters, learning_rate, weight_decay, self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)

    @property
    def cls_name(self):
        return type(self).__name__

    def _init_opt_attrs(self, learning_rate, parameters, weight_decay):
        weight_decay = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            self.learning_rate = list(self.group_lr) if self.dynamic_lr else ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, 'learning_rate')
        if self.is_group:
            self.parameters = ParameterTuple(self.group_params)
            self._parameters = self.parameters
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0 for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell) for x in self.group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(x, mstype.float32)
                                      for x, flag in zip(self.group_weight_decay, self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
        else:
            self.parameters = ParameterTuple(parameters)
            self._parameters = self.parameters
            self.decay_flags = tuple('beta' not in x.name and 'gamma' not in x.name for x in self._parameters)
            self.dynamic_decay_flags = isinstance(weight_decay, Cell)
            self.exec_weight_decay = isinstance(weight_decay, Cell) or weight_decay > 0
            self.weight_decay = Tensor(weight_decay, mstype.float32) if not self.dynamic_decay_flags else weight_decay
        self.reciprocal_scale = Tensor(1.0 / self.loss_scale, mstype.float32)
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor([1], mstype.int32)
        self.param_length = len(self._parameters)

    # ---- checks -------------------------------------------------------------------------------
    @staticmethod
    def _preprocess_grad_centralization(grad_centralization):
        if not isinstance(grad_centralization, bool):
            raise TypeError("For 'Optimizer', the 'gradients_centralization' must be bool type, "
                            "but got {}.".format(type(grad_centralization)))
        return grad_centralization

    @staticmethod
    def _parameters_base_check(parameters, param_info):
        if parameters is None:
            raise ValueError(f"For 'Optimizer', the argument {param_info} can not be None.")
        if not isinstance(parameters, Iterable):
            raise TypeError(f"For 'Optimizer', the argument {param_info} must be Iterable type, "
                            f"but got {type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"For 'Optimizer', the argument {param_info} must not be empty.")
        return parameters

    def _preprocess_weight_decay(self, weight_decay):
        if isinstance(weight_decay, (float, int)):
            weight_decay = float(weight_decay)
            _check_non_negative_float(weight_decay, "weight_decay", self.cls_name)
            weight_decay = weight_decay * self.loss_scale
        elif isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            weight_decay = _WrappedWeightDecay(weight_decay, self.loss_scale)
        else:
            raise TypeError("For 'Optimizer', the argument 'Weight_decay' must be int, "
                            "float or Cell.but got {}".format(type(weight_decay)))
        return weight_decay

    def _preprocess_single_lr(self, learning_rate):
        if isinstance(learning_rate, (float, int)):
            learning_rate = float(learning_rate)
            _check_non_negative_float(learning_rate, "learning rate", self.cls_name)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate, dtype=mstype.float32)
        self.dynamic_lr = True
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ValueError(f"For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it should "
                                 f"be 0 or 1, but got {learning_rate.ndim}.")
            if learning_rate.ndim == 1 and learning_rate.size < 2:
                logger.warning("For 'Optimizer', if use 'Tensor' type dynamic learning rate, "
                               "please make sure that the number "
                               "of elements in the tensor is greater than 1, "
                               "but got {}.".format(learning_rate.size))
            return Tensor(learning_rate, dtype=mstype.float32)
        if isinstance(learning_rate, Iterable):
            return Tensor([float(x) for x in learning_rate], mstype.float32)
        raise TypeError("For 'Optimizer', the argument 'learning_rate' must be int, float, Tensor, Iterable or "
                        "LearningRateSchedule, but got {}.".format(type(learning_rate)))

    def _build_single_lr(self, learning_rate, name):
        if isinstance(learning_rate, float):
            learning_rate = Parameter(Tensor(learning_rate, mstype.float32), name)
            if self.is_group_lr and self.dynamic_lr:
                learning_rate = _ConvertToCell(learning_rate)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            learning_rate = Parameter(learning_rate, name)
            if self.is_group_lr and self.dynamic_lr:
                learning_rate = _ConvertToCell(learning_rate)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _check_group_params(self, parameters):
        parse_keys = ['params', 'lr', 'weight_decay', 'order_params', 'grad_centralization']
        for group_param in parameters:
            invalid_key = list(filter(lambda x: x not in parse_keys, group_param.keys()))
            if invalid_key:
                raise KeyError(f"For 'Optimizer', the key in group params must be one of in {parse_keys}, "
                               f"but got {invalid_key}.")
            if 'order_params' in group_param.keys():
                if len(group_param.keys()) > 1:
                    raise ValueError(f"For 'Optimizer', the order params dict in group parameters should only "
                                     f"include the 'order_params' key, but got {group_param.keys()}.")
                if not isinstance(group_param['order_params'], Iterable):
                    raise TypeError("For 'Optimizer', the value of 'order_params' in group parameters should "
                                    "be Iterable type, but got {}.".format(type(group_param['order_params'])))
                continue
            parameters = self._parameters_base_check(group_param['params'], "group `params`")
            for index, param in enumerate(parameters):
                if not isinstance(param, Parameter):
                    raise TypeError(f"For 'Optimizer', the element in group parameters must be Parameter type, "
                                    f"but got {type(param)} at index {index}.")

    def _parse_group_params(self, parameters, learning_rate):
        self._check_group_params(parameters)
        tensor_lr_length = learning_rate.size if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1 else 0
        for group_param in parameters:
            if 'order_params' in group_param.keys():
                self.is_group_params_ordered = True
                continue
            if 'lr' in group_param.keys():
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group_param['lr'])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    group_lr_length = group_lr.size
                    if tensor_lr_length == 0:
                        tensor_lr_length = group_lr_length
                    elif group_lr_length != tensor_lr_length:
                        raise ValueError("For 'Optimizer', the Tensor type dynamic learning rate in group must be "
                                         "the same size as the argument 'learning_rate'.")

    def _init_group_params(self, parameters, learning_rate, weight_decay, grad_centralization):
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, 'learning_rate')
        params_store = []
        ordered_parameters = []
        for group_num, group_param in enumerate(parameters):
            if 'order_params' in group_param.keys():
                ordered_parameters = group_param['order_params']
                continue
            self.group_params += group_param['params']
            if 'lr' in group_param.keys():
                lr = self._preprocess_single_lr(group_param['lr'])
                lr = self._build_single_lr(lr, 'learning_rate_group_' + str(group_num))
            else:
                lr = default_lr
            if 'weight_decay' in group_param.keys():
                weight_decay_ = self._preprocess_weight_decay(group_param['weight_decay'])
            else:
                weight_decay_ = self._preprocess_weight_decay(weight_decay)
            if 'grad_centralization' in group_param.keys():
                self.grad_centralization = self._preprocess_grad_centralization(group_param['grad_centralization'])
                grad_centralization_ = self.grad_centralization
            else:
                grad_centralization_ = grad_centralization
            for param in group_param['params']:
                validator.check_value_type("parameter", param, [Parameter], self.cls_name)
                if param.name in params_store:
                    raise RuntimeError(f"For 'Optimizer', the {param.name} parameter already exists, it does not "
                                       f"support repeated setting. Please check whether the optimizer parameter "
                                       f"has been set multiple times.")
                params_store.append(param.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(weight_decay_)
                self.group_grad_centralization.append(grad_centralization_)
        if self.is_group_params_ordered and ordered_parameters:
            self._order_and_adjust_group_params(list(ordered_parameters))

    def _order_and_adjust_group_params(self, ordered_parameters):
        params_length = len(self.group_params)
        if len(ordered_parameters) != len(self.group_params):
            raise ValueError(f"For 'Optimizer',"
                             f"the length of order parameters must be the same as the length of group parameters, "
                             f"but got order parameters' length {len(ordered_parameters)}, "
                             f"group parameters' length {len(self.group_params)}.")
        ordered = [[None] * params_length for _ in range(4)]
        params_name = [param.name for param in ordered_parameters]
        for param, lr, wd, gc in zip(self.group_params, self.group_lr, self.group_weight_decay,
                                     self.group_grad_centralization):
            index = params_name.index(param.name)
            for k, value in enumerate((param, lr, wd, gc)):
                ordered[k][index] = value
        self.group_params, self.group_lr, self.group_weight_decay, self.group_grad_centralization = ordered

    # ---- per-step helpers ---------------------------------------------------------------------
    def flatten_gradients(self, gradients):
        return gradients

    def decay_weight(self, gradients):
        """``grad + weight * weight_decay`` for the parameters whose decay flag is set."""
        if not self.exec_weight_decay:
            return gradients
        weight_decay = self.get_weight_decay()
        out = []
        for i, (param, grad) in enumerate(zip(self._parameters, gradients)):
            wd = weight_decay[i] if self.is_group else weight_decay
            if self.decay_flags[i]:
                grad = param * wd.astype(param.dtype) + grad
            out.append(grad)
        return tuple(out)

    def gradients_centralization(self, gradients):
        """``grad - mean(grad over dims 1..)`` where enabled, for gradients of rank >= 2 whose second
        dimension is a multiple of 16 (MindSpore's condition); others pass unchanged."""
        if not self.is_group:
            return gradients
        out = []
        for flag, grad in zip(self.grad_centralization_flags, gradients):
            shape = grad.shape
            if flag and len(shape) >= 2 and shape[1] % 16 == 0:
                grad = grad - grad.mean(axis=tuple(range(1, len(shape))), keep_dims=True)
            out.append(grad)
        return tuple(out)

    def scale_grad(self, gradients):
        if self.need_scale:
            gradients = tuple(g * self.reciprocal_scale.astype(g.dtype) for g in gradients)
        return gradients

    def get_weight_decay(self):
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(wd(self.global_step) if flag else wd
                             for wd, flag in zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr(self):
        """The learning rate of the current step (a tuple per parameter when grouped)."""
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                lr = tuple(learning_rate(self.global_step).reshape(()) for learning_rate in self.learning_rate)
            else:
                lr = self.learning_rate(self.global_step).reshape(())
        return lr

    def get_lr_parameter(self, param):
        """The learning rate (Parameter or schedule) of ``param`` or of each of a list."""
        def get_lr_value(learning_rate):
            if isinstance(learning_rate, (_ConvertToCell, _IteratorLearningRate)):
                return learning_rate.learning_rate
            return learning_rate

        if isinstance(param, Parameter):
            param_list = [param]
        elif isinstance(param, list):
            param_list = param
        else:
            raise TypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or 'list' type, "
                            f"but got {type(param)}.")
        lr = []
        ids = [id(p) for p in self._parameters]
        for p in param_list:
            validator.check_value_type("parameter", p, [Parameter], self.cls_name)
            if id(p) not in ids:
                raise ValueError(f"For 'get_lr_parameter', the parameter {p.name} is not in optimizer, please check "
                                 f"whether the argument 'param' is correct.")
            if self.is_group_lr:
                index = ids.index(id(p))
                lr.append(get_lr_value(self.learning_rate[index]))
            else:
                lr.append(get_lr_value(self.learning_rate))
        return lr if isinstance(param, list) else lr[0]

    def _step_lrs(self, lr):
        """The learning rate of each parameter for this step."""
        return list(lr) if self.is_group_lr else [lr] * self.param_length

    def _increase_global_step(self):
        _assign(self.global_step, self.global_step + self.global_step_increase_tensor)

    def _preprocess(self, gradients):
        gradients = self.flatten_gradients(tuple(gradients))
        gradients = self.decay_weight(gradients)
        gradients = self.gradients_centralization(gradients)
        return self.scale_grad(gradients)

    def construct(self, *hyper_params):
        raise NotImplementedError


class _ConvertToCell(LearningRateSchedule):
    """A fixed learning rate (Parameter) as a schedule, for groups mixing fixed and dynamic rates."""

    def __init__(self, learning_rate):
        super().__init__()
        if not isinstance(learning_rate, Parameter):
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be Parameter, "
                            "but got {}.".format(type(learning_rate)))
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate + 1.0 - 1.0


class _IteratorLearningRate(LearningRateSchedule):
    """The i-th value of a 1-d tensor at step i (``Gather``)."""

    def __init__(self, learning_rate, name):
        super().__init__()
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim != 1:
                raise ValueError(f"For 'Optimizer', the dimension of the argument 'learning_rate' should "
                                 f"be 1, but got {learning_rate.ndim}.")
        else:
            raise TypeError("For 'Optimizer', the argument 'learning_rate' must be Tensor, "
                            "but got {}.".format(type(learning_rate)))
        self.learning_rate = Parameter(learning_rate, name)
        self.gather = _EngineOp("Gather", axis=0)

    def construct(self, global_step):
        return self.gather(self.learning_rate, global_step)


class _WrappedWeightDecay(Cell):
    """A weight-decay schedule times the loss scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(loss_scale, mstype.float32)

    def construct(self, global_step):
        return self.weight_decay(global_step) * self.loss_scale


def _is_number(x):
    return isinstance(x, numbers.Number) and not isinstance(x, bool)
