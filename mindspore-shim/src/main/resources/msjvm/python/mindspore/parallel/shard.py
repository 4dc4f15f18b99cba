"""``mindspore.parallel.shard``: ``Layout`` and the functional ``shard`` (with ``Cell.shard``).

Checks, messages and formats follow MindSpore 2.10's ``mindspore/parallel/shard.py``:

* ``Layout(device_matrix, alias_name, rank_list=None)`` names the axes of a device matrix; calling
  it with one alias (or a tuple of aliases, or ``"None"``) per tensor dimension gives a copy whose
  tensor map counts device axes from the right: ``Layout((2, 2, 2), ("dp", "sp", "mp"))("dp", "mp")``
  has tensor map ``(2, 0)``.
* ``shard(fn, in_strategy, ...)`` returns ``fn`` itself in a one-rank job; otherwise it checks the
  strategies and returns a function that runs ``fn``; the configuration stays readable on it
  (attributes ``fn``, ``in_strategy``, ``out_strategy``, ``parameter_plan``) for the parallel planner.
"""
import copy
import math

from mindspore import log as logger

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """A device matrix with named axes; ``layout(*dims)`` maps each tensor dimension to axes."""

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f'device_matrix must be tuple type, but got:{type(device_matrix)}')
        if not isinstance(alias_name, tuple):
            raise TypeError(f'alias_name must be tuple type, but got:{type(alias_name)}')
        if len(device_matrix) != len(alias_name):
            raise ValueError('device_matrix length should be equal to alias_name length')
        for dim in device_matrix:
            if not isinstance(dim, int):
                raise TypeError(f'The element of device_matrix must be int type, but got:{type(dim)}')
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f'The element of alias_name must be str type, but got:{type(name)}')
            if not name:
                raise ValueError("The element of alias_name can not be empty.")
            if name == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f'Each element of alias_name {alias_name} should be different')
        if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
            raise ValueError(f"When alias_name {alias_name} contains keyword 'interleaved_parallel',"
                             " it should be at the last dim of alias_name, which means the virtual sharding.")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map = None
        if not device_matrix:
            # MindSpore numbers the devices with range(np.prod(np.array(()))), a float 1.0.
            raise TypeError("'numpy.float64' object cannot be interpreted as an integer")
        device_num = math.prod(device_matrix)
        self._rank_list = list(range(device_num))
        if rank_list is not None:
            _check_rank_list(rank_list, device_num)
            self._rank_list = rank_list

    def _axis(self, name, used):
        """The tensor-map value of alias ``name`` (device axes counted from the right)."""
        if name not in self._alias_name:
            raise ValueError(f'The axis {name} is not found in {self._alias_name}')
        if name in used:
            raise ValueError(f'The axis {name} has been set more than one in {self._alias_name}')
        used.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        self._tensor_map = ()
        used = []
        for dim in tensor_map:
            if isinstance(dim, tuple):
                self._tensor_map += (tuple(-1 if name == "None" else self._axis(name, used) for name in dim),)
            elif dim == "None":
                self._tensor_map += (-1,)
            else:
                self._tensor_map += (self._axis(dim, used),)
        return copy.deepcopy(self)

    def to_dict(self):
        """``device_matrix``, ``tensor_map``, ``interleaved_parallel``, ``alias_name``, ``rank_list``."""
        if self._device_shape is None:
            raise ValueError("The device_shape of layout is None")
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": self._rank_list}


def _check_rank_list(rank_list, device_num):
    if not isinstance(rank_list, list):
        raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
    for rank in rank_list:
        if not isinstance(rank, int):
            raise TypeError(f"The element of rank_list should be int, but got {type(rank).__name__}.")
    if len(rank_list) != device_num:
        raise ValueError("The length of rank_list should be equal to the product of device_matrix, "
                         f"but got {len(rank_list)} and {device_num}.")


def layout_values(layouts):
    """The dicts a primitive or cell records for a tuple of ``Layout``s (``to_dict`` less rank_list)."""
    return tuple({k: v for k, v in layout.to_dict().items() if k != "rank_list"} for layout in layouts)


def _strategy_kind(strategy, log_info):
    """``"layout"`` or ``"tuple"``: the one kind of every element of a cell/function strategy."""
    kinds = set()
    for element in strategy:
        if not isinstance(element, (tuple, Layout)):
            raise TypeError(f"The '{log_info}' should be a tuple(tuple(int)) or tuple(mindspore.parallel.Layout), "
                            f"but got {type(element).__name__}")
        if isinstance(element, Layout):
            kinds.add("layout")
        else:
            kinds.add("tuple")
            if not all(isinstance(x, int) for x in element):
                raise TypeError("The tuple strategy for each dimension should be tuple(int).")
    if len(kinds) != 1:
        raise TypeError("For 'Shard', the strategy can only pass in consistent type for all dimensions.")
    return kinds.pop()


def _checked_strategy(strategy, log_info):
    kind = _strategy_kind(strategy, log_info)
    return layout_values(strategy) if kind == "layout" else strategy


def _check_parameter_plan(fn, parameter_plan):
    if parameter_plan is None:
        return
    from mindspore.nn.cell import Cell  # pylint: disable=import-outside-toplevel
    if not isinstance(parameter_plan, dict):
        raise TypeError("For 'Shard', the 'parameter_plan' should be a dict or None, "
                        f"but got {type(parameter_plan).__name__}")
    if not isinstance(fn, Cell):
        raise TypeError(f"If parameter_plan is set, type of fn must be mindspore.nn.Cell, but got {type(fn)}")
    for key, value in parameter_plan.items():
        if not isinstance(key, str) or not isinstance(value, (tuple, Layout)):
            raise TypeError("For 'Shard', the type of each key and value in 'parameter_plan' must be str and "
                            f"tuple/Layout, but got {type(key).__name__} and {type(value).__name__}")
    for name, strategy in parameter_plan.items():
        param = next((p for p in fn.trainable_params() if p.name == name.replace("self.", "")), None)
        if param is None:
            logger.warning(f"{name} is not exist, ignored its setting.")
            continue
        previous = param.__dict__.get("_param_strategy")
        if isinstance(previous, tuple):
            logger.warning(f"The layout of parameter '{name}' has been set to {previous}, "
                           "current setting will be ignored.")
        elif previous is not None:
            logger.warning(f"The layout of parameter '{name}' has been set, current setting will be ignored.")
        elif isinstance(strategy, tuple):
            _check_param_strategy(name, param.shape, strategy)
            param.__dict__["_param_strategy"] = strategy
        else:
            if _layout_as_strategy(strategy) is None:
                logger.warning(f"For '{name}', a Layout in parameter_plan is not applied by this engine yet "
                               "unless it lays the parameter out as a tuple strategy does; use a tuple strategy.")
            param.__dict__["_param_strategy"] = strategy


def _layout_as_strategy(layout):
    """The tuple strategy that places a parameter as ``layout`` does, or None: every device axis
    larger than 1 splits one dimension, in the device matrix's order, over the default rank list
    (MindSpore inserts an Identity with the Layout after the parameter's Load; that configured node
    is the tuple strategy's)."""
    layout_dict = layout.to_dict()
    dims, tensor_map = layout_dict["device_matrix"], layout_dict["tensor_map"]
    if layout_dict["interleaved_parallel"] or layout_dict["rank_list"] != list(range(math.prod(dims))):
        return None
    if any(isinstance(m, tuple) for m in tensor_map):
        return None
    used = [m for m in tensor_map if m != -1]
    if used != sorted(used, reverse=True):
        return None
    if any(dims[len(dims) - 1 - axis] > 1 and axis not in used for axis in range(len(dims))):
        return None
    return tuple(1 if m == -1 else dims[len(dims) - 1 - m] for m in tensor_map)


def _check_param_strategy(name, shape, strategy):
    if len(strategy) != len(shape):
        raise ValueError(f"For {name}, the length of param_strategy: {len(strategy)}, "
                         f"is not equal to param_shape len: {len(shape)}.")
    for i, (dim, split) in enumerate(zip(shape, strategy)):
        if dim % split != 0:
            raise ValueError(f"For '{name}', the param_shape is {shape} and the setting param_strategy is "
                             f"{strategy}. The param_shape[{i}]: {dim} cannot be divisible by "
                             f"param_strategy[{i}]: {split}.")


def _shard(fn, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    """The checks of MindSpore's ``Shard.__call__``; the configured function."""
    if not isinstance(in_strategy, tuple):
        raise TypeError(f"For 'Shard', the 'in_strategy' should be a tuple, but got {type(in_strategy).__name__}.")
    strategies = in_strategy
    in_strategy = _checked_strategy(in_strategy, "in_strategy")
    if not isinstance(out_strategy, (type(None), tuple)):
        raise TypeError("For 'Shard', the 'out_strategy' should be None or tuple, "
                        f"but got {type(out_strategy).__name__}.")
    if out_strategy is not None:
        logger.warning("Out_strategy is not in use currently, will be ignored in the following procedures.")
        out_strategy = _checked_strategy(out_strategy, "out_strategy")
    if not isinstance(device, str):
        raise TypeError(f"For 'Shard', the 'device' should be a string, but got {type(device).__name__}")
    if not isinstance(level, int):
        raise TypeError(f"For 'Shard', the 'level' should be an integer, but got {type(level).__name__}")
    from mindspore.parallel.algo_parameter_config import (  # pylint: disable=import-outside-toplevel
        get_algo_parameters, set_algo_parameters)
    if get_algo_parameters("fully_use_devices") is True:
        logger.warning("After calling 'shard', the environment variable 'fully_use_devices' "
                       "will be overwritten as False.")
        set_algo_parameters(fully_use_devices=False)
    _check_parameter_plan(fn, parameter_plan)

    def shard_fn(*args):
        # A sharded function lays its tensor inputs out by in_strategy while a parallel graph is
        # traced, as a sharded Cell does (without this a function's strategies were dropped).
        from mindspore.common import _graph  # pylint: disable=import-outside-toplevel
        from mindspore.nn.cell import _shard_inputs  # pylint: disable=import-outside-toplevel
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        if host().recording() and _graph._partitioned():  # pylint: disable=protected-access
            args = _shard_inputs(shard_fn, args)
        return fn(*args)

    # The checked configuration, for the parallel planner.
    shard_fn.fn = fn
    shard_fn.in_strategy = in_strategy
    shard_fn.strategies = strategies  # as given (tuples or Layouts), one per input
    shard_fn.out_strategy = out_strategy
    shard_fn.parameter_plan = parameter_plan
    return shard_fn


def _single_rank():
    """A one-rank job that declared no more devices (``device_num`` > 1 set: the graph will be planned
    for that many, as a compile-only call does without ``init()``)."""
    from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
    from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
    if _utils._get("device_num_is_set") and _utils._get("device_num") > 1:  # pylint: disable=protected-access
        return False
    return get_group_size() == 1


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """``fn`` with input/output strategies for the parallel planner; ``fn`` itself in a one-rank job."""
    if _single_rank():
        return fn
    from mindspore.nn.cell import Cell  # pylint: disable=import-outside-toplevel
    if not isinstance(fn, Cell):
        logger.warning("'fn' is not a mindspore.nn.Cell, and its definition cannot involve Parameter; "
                       "otherwise, the result may be incorrect.")
    return _shard(fn, in_strategy, out_strategy, parameter_plan)
