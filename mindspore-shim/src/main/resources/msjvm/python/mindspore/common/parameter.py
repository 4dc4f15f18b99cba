"""``mindspore.Parameter``: a trainable tensor with a name and parallel attributes.

Names, checks and messages follow MindSpore 2.10's ``mindspore/common/parameter.py``: an unnamed
parameter gets ``Parameter#<n>`` (a counter per interpreter) and takes its attribute name when set
on a ``Cell``; ``comm_fusion`` defaults to 1; ``layerwise_parallel``, ``requires_grad`` and
``parallel_optimizer`` must be bools.
"""
import itertools

from mindspore import _checkparam as Validator
from mindspore._host import host
from mindspore.common.tensor import Tensor, _numpy_array_type

__all__ = ["Parameter"]

PARAMETER_NAME_DEFAULT = "Parameter"
_GENERATED_PREFIX = PARAMETER_NAME_DEFAULT + "#"
PARAMETER_NAME_PREFIX_MAX_LEN = 1024
_NAME_IDS = itertools.count()


def _is_parameter_generated(name):
    return isinstance(name, str) and name.startswith(_GENERATED_PREFIX)


def _take_deferred(param, tensor):
    """Parameter(initializer(...)): initialize now, or keep the initializer for later."""
    from mindspore import context  # pylint: disable=import-outside-toplevel
    parallel = context.get_auto_parallel_context("parallel_mode") in ("semi_auto_parallel", "auto_parallel")
    if type(param).init_param and not parallel:
        return tensor.init_data()._java  # pylint: disable=protected-access
    if type(param).init_param:
        # Deferred by the parallel mode alone: the fill's seed is drawn now, as the stand-alone run
        # draws it here, so the parallel run starts from the same weights (no_init_parameters keeps
        # MindSpore's order: the seed is drawn when init_data() runs).
        from mindspore.common.initializer import _pin_seed  # pylint: disable=import-outside-toplevel
        tensor._pinned_seed = _pin_seed(tensor.init)  # pylint: disable=protected-access
    param.init = tensor.init
    param._init_shape = tensor.shape  # pylint: disable=protected-access
    param._init_dtype = tensor.dtype  # pylint: disable=protected-access
    param.init_mode = tensor
    return None


class Parameter(Tensor):
    """``Parameter(default_input, name=None, requires_grad=True, layerwise_parallel=False,
    parallel_optimizer=True)``."""

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format='', device=None):
        # pylint: disable=super-init-not-called,unused-argument
        ndarray = _numpy_array_type()
        value = None
        if isinstance(default_input, Tensor) and default_input.init is not None:
            value = _take_deferred(self, default_input)
        elif isinstance(default_input, Tensor):
            value = host().valueOf(default_input._java).java
        elif isinstance(default_input, str):
            # MindSpore hands strings to Tensor, whose check rejects them with its own message.
            value = Tensor(default_input)._java
        elif isinstance(default_input, bool) or not isinstance(default_input, (int, float, list)) and not (
                ndarray is not None and isinstance(default_input, ndarray)):
            raise TypeError(f"The type of the argument 'default_input' must be in ['Tensor', 'int', 'float',"
                            f" 'numpy.ndarray', 'list']. But got type {type(default_input)}.")
        elif isinstance(default_input, (int, float)):
            value = Tensor(float(default_input))._java
        else:
            value = Tensor(default_input)._java
        if value is not None:
            self._java = host().variable(PARAMETER_NAME_DEFAULT, value).java
        self.name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self._comm_fusion = 1

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, name_):
        if name_ is None:
            name_ = _GENERATED_PREFIX + str(next(_NAME_IDS))
        elif isinstance(name_, str):
            name_ = name_.strip()
            if name_ == '':
                name_ = _GENERATED_PREFIX + str(next(_NAME_IDS))
            if len(name_) > PARAMETER_NAME_PREFIX_MAX_LEN:
                raise ValueError("The length of the '{}' name should be less than {}.".
                                 format(name_, PARAMETER_NAME_PREFIX_MAX_LEN))
        else:
            raise ValueError("The type of the Parameter's name should be 'string' or 'None', "
                             "but got {}.".format(type(name_)))
        self._name = name_
        if "_java" in self.__dict__:
            self._java.rename(name_)

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value=True):
        if not isinstance(value, bool):
            raise TypeError("The argument `requires_grad` must be bool type")
        self._requires_grad = value

    @property
    def layerwise_parallel(self):
        return self._layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value=True):
        if not isinstance(value, bool):
            raise TypeError("The argument `layerwise_parallel` must be bool type.")
        self._layerwise_parallel = value

    @property
    def parallel_optimizer(self):
        return self._parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value=True):
        if not isinstance(value, bool):
            raise TypeError("The argument `parallel_optimizer` must be bool type.")
        self._parallel_optimizer = value

    @property
    def comm_fusion(self):
        """Fusion id of this parameter's gradient communication (0: never fused)."""
        return self._comm_fusion

    @comm_fusion.setter
    def comm_fusion(self, comm_fusion_):
        Validator.check_non_negative_int(comm_fusion_)
        self._comm_fusion = comm_fusion_

    @property
    def data(self):
        return self

    # ---- Deferred initialization: Parameter(initializer(...)) ----
    # As MindSpore 2.10: the initializer runs at construction, except inside no_init_parameters()
    # (``init_param`` is False) or in (semi-)auto-parallel mode; then ``init_data()`` (or the first
    # use of the data) runs it.
    init_param = True
    init_mode = None

    def init_data(self, layout=None, set_sliced=False):  # pylint: disable=arguments-renamed,unused-argument
        """Runs a deferred initializer (once); returns this parameter."""
        if self.init_mode is None or not self.has_init:
            return self
        if "_java" in self.__dict__:
            # A parallel compile gave this parameter a deferred variable: it fills its whole value.
            self._java.current()
        else:
            value = self.init_mode.init_data()._java
            self._java = host().variable(self.name, value).java
        self.init = None
        self.init_mode = None
        return self
    # ---- end of deferred initialization ----

    def set_data(self, data):
        """Replaces the values (same shape); returns self."""
        if not isinstance(data, Tensor):
            data = Tensor(data, self.dtype)
        if data.shape != self.shape:
            raise ValueError(f"Can not change the shape of Parameter which has been initialized. "
                             f"Current shape is {self.shape}, and incoming is {data.shape}.")
        value = (data if data.dtype == self.dtype else data.astype(self.dtype))._java
        if "_java" in self.__dict__:
            host().setVariable(self._java, value)
        else:
            self._java = host().variable(self.name, value).java
        self.init = None  # a deferred initializer is not needed any more
        self.init_mode = None
        return self

    def assign_value(self, value):
        """Copies ``value`` (a Tensor of the same shape) into the parameter; returns self."""
        return self.set_data(value)

    def value(self):
        """The parameter's current values as a plain Tensor (a snapshot: later updates of the
        parameter do not change it); in a traced graph, a read of the parameter at that point of
        each run."""
        return Tensor._wrap(host().read(self._java).java)  # pylint: disable=protected-access

    def clone(self, init='same'):  # pylint: disable=unused-argument
        """A new parameter with the same values and attributes."""
        other = Parameter(Tensor._wrap(host().valueOf(self._java).java), name=self.name, requires_grad=self.requires_grad,
                          layerwise_parallel=self.layerwise_parallel,
                          parallel_optimizer=self.parallel_optimizer)
        other.comm_fusion = self.comm_fusion
        return other

    def add_pipeline_stage(self, stage):
        """Records a pipeline stage that uses this parameter (MindSpore's ``_pipeline_stage_list``; its
        warning that the interface may go). The planner finds shared parameters from the graph, so the
        list is informational here."""
        from mindspore import log as logger  # pylint: disable=import-outside-toplevel
        logger.warning("This interface may be deleted in the future.")
        if isinstance(stage, bool) or not isinstance(stage, int) or stage < 0:
            raise TypeError("`stage` must be a positive number of int type")
        self.__dict__.setdefault("_pipeline_stage_list", []).append(stage)

    def __str__(self):
        return (f'Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, '
                f'requires_grad={self.requires_grad})')

    def __repr__(self):
        return self.__str__()
from mindspore.common._parameter_tuple import ParameterTuple  # noqa: E402,F401  (MindSpore defines it in this module)
