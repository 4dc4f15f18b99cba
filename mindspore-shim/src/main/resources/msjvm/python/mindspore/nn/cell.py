"""``mindspore.nn.Cell``: the base of networks — parameter and sub-cell registration and naming.

Follows MindSpore 2.10: a parameter set as an attribute is registered under that attribute (an
unnamed one takes the attribute's name); a sub-cell set as an attribute prefixes its parameters'
names with ``<attribute>.`` (``layer1.weight``); ``get_parameters`` lists a cell's own parameters
before its sub-cells'. Calling a cell runs ``construct``.
"""
import inspect
from collections import OrderedDict

from mindspore import log as logger
from mindspore._host import host
from mindspore.common import _graph
from mindspore.common import dtype as mstype
from mindspore.common._parameter_tuple import ParameterTuple
from mindspore.common.parameter import Parameter, _is_parameter_generated
from mindspore.common.tensor import Tensor
from mindspore.ops.composite import base as _grad_base
from mindspore.ops.primitive import Primitive

__all__ = ["Cell"]

_HOST = host()

# Bumped whenever a Parameter or sub-cell is set on any cell: GRAPH_MODE graphs refer to the
# parameters (and code paths) seen when they were traced, so a changed structure retraces.
STRUCTURE_VERSION = [0]


def _check_dynamic_inputs(declared, args):
    """A call's arguments against ``set_inputs`` (MindSpore's ``check_argument_consistency`` and
    ``check_symbolic_shape`` texts): count, rank, static dimensions, dtype, then Symbol constraints."""
    target = "set_inputs"
    if len(declared) != len(args):
        raise ValueError(f"For {target} and tuple(list) in {target}, the length of input must be equal to expected "
                         f"one, but got expected: {len(declared)} and input: {len(args)}!")
    for i, (want, got) in enumerate(zip(declared, args)):
        if not isinstance(want, Tensor) or not isinstance(got, Tensor):
            continue
        if len(want.shape) != len(got.shape):
            raise ValueError(f"For {target} and tuple(list) in {target}, the dims of {i + 1}th input must be the same "
                             f"as expected, but got expected: {len(want.shape)}, and input: {len(got.shape)}!")
        for w, g in zip(want.shape, got.shape):
            if w not in (-1, g):
                raise ValueError(f"For {target} and tuple(list) in {target}, the shape of {i + 1}th input must be the "
                                 f"same as expected, but got expected: {w}, and input: {g}!")
        if want.dtype != got.dtype:
            raise TypeError(f"For {target} or tuple(list) in {target}, the {i + 1}th type should be "
                            f"Tensor[{want.dtype}], but got Tensor[{got.dtype}]!")
    seen = {}
    for index, (want, got) in enumerate(zip(declared, args)):
        symbols = getattr(want, "symbolic_shape", None) if isinstance(want, Tensor) else None
        for i, sym in enumerate(symbols or ()):
            if not isinstance(sym, dict):
                continue
            actual = list(got.shape)
            value = actual[i]
            where = f"The {i + 1}th shape value of {index + 1}th actual input args"
            tail = f"Actual shape: {actual}, axis: {i}."
            if "id" in sym:
                if sym["id"] not in seen:
                    seen[sym["id"]] = value
                elif seen[sym["id"]] != value:
                    raise ValueError(f"{where} is a unique symbol, all values must be the same. The previous value "
                                     f"is {seen[sym['id']]}, but the current value is {value}. {tail}")
            if "min" in sym and value < sym["min"]:
                raise ValueError(f"{where} must be greater than or equal to the 'min' value '{sym['min']}' of "
                                 f"`Symbol`, but got '{value}'. {tail}")
            if "max" in sym and value > sym["max"]:
                raise ValueError(f"{where} must be less than or equal to the 'max' value '{sym['max']}' of "
                                 f"`Symbol`, but got '{value}'. {tail}")
            d, r = sym.get("divisor", 1), sym.get("remainder", 0)
            if value < d or value % d != r:
                raise ValueError(f"{where} must match the 'divisor'(d) and 'remainder'(d) of `Symbol`. The value "
                                 f"should be 'd * N + r' for 'N > 0', got d={d} and r={r}, but actual shape value "
                                 f"is '{value}'. {tail}")


def _graph_mode():
    return _HOST.graphMode()


_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _mixed_cast(value, dtype):
    """``value`` cast to ``dtype`` when it is a floating-point tensor of another type (MindSpore's
    ``mixed_precision_cast``); tuples and lists element-wise; anything else unchanged."""
    if isinstance(value, Tensor):
        if value.dtype != dtype and value.dtype in _FLOAT_TYPES:
            return value.astype(dtype)
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(_mixed_cast(v, dtype) for v in value)
    return value


def _tensors_in(value):
    """The tensors in a construct's result (nested tuples, lists and dict values)."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors_in(v)]
    return []


def _shard_inputs(shard_fn, args):
    """Each tensor argument through an ``Identity`` sharded with its entry of the cell's in_strategy
    (the configured op sharding propagation starts from, as MindSpore's cell-level shard)."""
    from mindspore.ops.operations import Identity  # pylint: disable=import-outside-toplevel
    strategies = shard_fn.strategies
    out = []
    for i, a in enumerate(args):
        if isinstance(a, Tensor) and i < len(strategies) and strategies[i] is not None:
            a = Identity().shard((strategies[i],))(a)
        out.append(a)
    return tuple(out)


def _layout_value(v):
    """An entry of a reported layout: an int, or (a dimension split over several device axes of a
    Layout strategy) the list of those axes."""
    return int(v) if isinstance(v, int) else [int(a) for a in v]


class Cell:
    """Base class of all networks."""

    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "_auto_prefix", auto_prefix)
        object.__setattr__(self, "training", False)
        object.__setattr__(self, "_pipeline_stage", -1)
        if flags:
            for key, value in flags.items():
                object.__setattr__(self, key, value)

    def __setattr__(self, name, value):
        params = self.__dict__.get("_params")
        if params is None:
            raise AttributeError("Can not assign attributes before Cell.__init__() is called.")
        if isinstance(value, (Parameter, Cell)):
            STRUCTURE_VERSION[0] += 1
        if isinstance(value, Parameter):
            if _is_parameter_generated(value.name):
                value.name = name
            self.__dict__.pop(name, None)
            self._cells.pop(name, None)
            params[name] = value
        elif isinstance(value, Cell):
            if self._auto_prefix:
                value.update_parameters_name(name + '.')
            self.__dict__.pop(name, None)
            params.pop(name, None)
            self._cells[name] = value
        elif name in params:
            # MindSpore 2.10: a Tensor replaces the parameter's data, None removes it, and anything
            # else is refused.
            if value is None:
                params[name] = None
            elif isinstance(value, Tensor):
                params[name].set_data(value)
            else:
                raise TypeError(f"Parameter '{name}' already exists in network, "
                                f"can not assign this type: '{type(value)}' as a parameter.")
        else:
            if isinstance(value, (list, tuple)) and value and all(isinstance(v, Parameter) for v in value):
                self._check_unique_names(value)
            if isinstance(value, ParameterTuple):
                # As MindSpore: each item also becomes a parameter of this cell under its own name, so
                # an optimizer's state (``moments.1.weight``...) is among the cell's parameters (and in
                # its checkpoints).
                for item in value:
                    if _is_parameter_generated(item.name):
                        item.name = "Parameter$" + str(id(item))
                    params.setdefault(item.name, item)
            object.__setattr__(self, name, value)

    def _check_unique_names(self, value):
        """Parameters kept in list/tuple attributes must have distinct names (MindSpore's check)."""
        names = self.__dict__.setdefault("_exist_names", set())
        objs = self.__dict__.setdefault("_exist_objs", set())
        for item in value:
            if id(item) in objs:
                continue
            objs.add(id(item))
            if item.name in names:
                raise ValueError(f"The value {value} , its name '{item.name}' already exists. "
                                 "Please set a unique name for the parameter.")
            names.add(item.name)

    def __getattr__(self, name):
        d = self.__dict__
        if name in d.get("_params", {}):
            param = d["_params"][name]
            mixed = d.get("_mixed_active")
            if mixed is not None and isinstance(param, Tensor):
                return _mixed_cast(param, mixed)
            return param
        if name in d.get("_cells", {}):
            return d["_cells"][name]
        raise AttributeError(f"The '{type(self).__name__}' object has no attribute '{name}'.")

    def __delattr__(self, name):
        if name in self._params:
            del self._params[name]
        elif name in self._cells:
            del self._cells[name]
        else:
            object.__delattr__(self, name)

    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"The 'construct' of {type(self).__name__} is not defined.")

    def set_inputs(self, *inputs, **kwargs):
        """The inputs the cell is compiled for (MindSpore's dynamic-shape declaration): Tensors whose
        dimensions may be None or a ``Symbol``. Each GRAPH_MODE call is checked against them with
        MindSpore's texts; a graph is then compiled for each shape the cell is called with (MindSpore
        compiles one graph for all of them; the results are the same)."""
        if kwargs and inputs:
            raise ValueError('For Cell, set_inputs should only set inputs or kwargs(inputs: %s, kwargs: %s)!'
                             % (inputs, kwargs))
        if kwargs:
            names = list(inspect.signature(self.construct).parameters)
            inputs = tuple(kwargs.get(name) for name in names)
        elif _graph_mode():
            self._check_construct_args(*inputs)
        object.__setattr__(self, "_dynamic_shape_inputs", inputs)

    def get_inputs(self):
        """The inputs given to ``set_inputs`` (None before)."""
        return self.__dict__.get("_dynamic_shape_inputs")

    def _check_construct_args(self, *args):
        """MindSpore's check that ``construct`` takes as many positional arguments as ``args``."""
        positional, defaults, has_var = 0, 0, False
        for value in inspect.signature(self.construct).parameters.values():
            if value.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                has_var = True
            if value.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
                if value.default is inspect.Parameter.empty:
                    positional += 1
                else:
                    defaults += 1
        if has_var:
            return
        if len(args) < positional:
            raise TypeError(f"For 'Cell', the function construct requires {positional} positional argument, "
                            f"but got {len(args)}. When using set_inputs, please make sure that all networks "
                            f"and loss functions are configured with set_inputs.")
        if len(args) > positional + defaults:
            raise TypeError(f"For 'Cell', the function construct requires {positional} positional argument and "
                            f"{defaults} default argument, total {positional + defaults}, but got {len(args)}.")

    def __call__(self, *args, **kwargs):
        if kwargs:
            return self._run_construct(*args, **kwargs)
        if _graph_mode():
            if not _HOST.recording():
                declared = self.__dict__.get("_dynamic_shape_inputs")
                if declared is not None:
                    self._check_construct_args(*args)
                    _check_dynamic_inputs(declared, args)
                return _graph.call(self, args)
            # Inside a trace: a gradient of this cell on the same arguments later reuses this forward.
            return _grad_base.traced_forward(self, args)
        if self.__dict__.get("requires_grad"):
            # ... and in PYNATIVE for a set_grad cell.
            return _grad_base.forward_for_grad(self, args)
        return self._run_construct(*args, **kwargs)

    def compile(self, *args, **kwargs):
        """Compiles this cell as a graph for ``args`` without running it (MindSpore's
        ``Cell.compile``); the next call with the same argument signature replays the graph. In
        semi_auto/auto_parallel the parameters then hold this rank's slices."""
        from mindspore.common.api import _cell_graph_executor  # pylint: disable=import-outside-toplevel
        _cell_graph_executor.compile(self, *args, **kwargs)

    def _run_construct(self, *args, **kwargs):
        """``construct`` under this cell's mixed precision (``to_float``): floating-point inputs and
        the parameters it reads are cast to the cell's compute type, as MindSpore's cell casts do.
        A cell configured by ``shard`` lays its tensor inputs out by its ``in_strategy`` while a
        parallel graph is traced; a cell with a ``pipeline_stage`` or marked by ``recompute()`` labels the
        operators it records."""
        shard_fn = self.__dict__.get("_shard_fn")
        if shard_fn is not None and _HOST.recording() and _graph._partitioned():  # pylint: disable=protected-access
            args = _shard_inputs(shard_fn, args)
        stage = self.__dict__.get("_pipeline_stage", -1)
        labels = []
        if stage >= 0:
            # Traced operators of this cell carry its stage (pipeline parallel colours the graph).
            labels += ["pipeline_stage", stage]
        segment = self.__dict__.get("_pipeline_segment", -1)
        if segment >= 0:
            # ... and its chunk of an interleaved pipeline.
            labels += ["pipeline_segment", segment]
        if self.__dict__.get("_recompute_scope"):
            # ... and are run again for the backward pass instead of keeping their outputs.
            labels += ["recompute", True]
        if labels and _HOST.recording():
            _HOST.pushLabels(labels)
            try:
                out = self._construct_mixed(args, kwargs)
            finally:
                _HOST.popLabels()
            if self.__dict__.get("_output_recompute") is False:
                # MindSpore keeps the outputs of the cell recompute() was called on.
                _HOST.keepForBackward([t._java for t in _tensors_in(out)])  # pylint: disable=protected-access
            return out
        return self._construct_mixed(args, kwargs)

    def _construct_mixed(self, args, kwargs):
        """``construct`` in the cell's mixed-precision type, if ``to_float`` set one."""
        mixed = self.__dict__.get("_float_dtype")
        if mixed is None:
            return self.construct(*args, **kwargs)
        args = tuple(_mixed_cast(a, mixed) for a in args)
        kwargs = {k: _mixed_cast(v, mixed) for k, v in kwargs.items()}
        previous = self.__dict__.get("_mixed_active")
        object.__setattr__(self, "_mixed_active", mixed)
        try:
            out = self.construct(*args, **kwargs)
        finally:
            object.__setattr__(self, "_mixed_active", previous)
        out_type = self.__dict__.get("_amp_output_dtype")
        if out_type is not None:
            out = _mixed_cast(out, out_type)
        return out

    @property
    def parameter_layout_dict(self):
        """{parameter name: MindSpore's 12-tuple layout} after a semi/auto-parallel compile; {}
        otherwise. Each compile leaves the engine's layouts on each cell of the compiled tree; a
        cell holding some of those parameters takes them, compile by compile, when this is read (device matrix, tensor
        map, slice shape, field size, uniform split, optimizer-shard group, shapes around reshapes,
        pipeline-shared info)."""
        for compiled in self.__dict__.pop("_msjvm_layouts", ()):
            own = {}
            for p in self.get_parameters():
                if p.name in compiled:
                    dm, tmap, piece, shared = ([_layout_value(v) for v in part] for part in compiled[p.name])
                    own[p.name] = (dm, tmap, piece, 0, True, '', [], [], bool(shared[0]), bool(shared[1]),
                                   shared[2], shared[3])
            if own:
                object.__setattr__(self, "_parameter_layout_dict", own)
        return self.__dict__.setdefault("_parameter_layout_dict", {})

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value):
        if not isinstance(value, dict):
            raise TypeError(f"The type of parameter 'value' must be a dict type, but got {type(value).__name__}.")
        self.__dict__.pop("_msjvm_layouts", None)
        object.__setattr__(self, "_parameter_layout_dict", value)

    @property
    def cls_name(self):
        return type(self).__name__

    def insert_child_to_cell(self, child_name, child_cell):
        """Registers ``child_cell`` as sub-cell ``child_name``."""
        if not isinstance(child_name, str) or not child_name or '.' in child_name:
            raise KeyError(f"For 'insert_child_to_cell', the parameter 'child_name' must be a non-empty string "
                           f"without '.', but got {child_name}.")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell
        STRUCTURE_VERSION[0] += 1

    def set_grad(self, requires_grad=True):
        """Marks the cell as one whose gradient will be taken (MindSpore's ``requires_grad``): each
        call keeps its forward for a gradient on the same arguments that follows."""
        object.__setattr__(self, "requires_grad", requires_grad)
        if not requires_grad:
            _grad_base.forget_forward(self)
        return self

    def init_parameters_data(self, auto_parallel_mode=False):  # pylint: disable=unused-argument
        """Materializes parameters whose initialization was deferred; returns {name: parameter}."""
        for param in self.get_parameters():
            if getattr(param, "has_init", False):
                param.init_data()
        return self.parameters_dict()

    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None,
                  **kwargs):
        """MindSpore 2.10's ``Cell.recompute``: every operator this cell (and its sub-cells) records is run
        again in the backward pass instead of keeping its output, except the cell's own outputs unless
        ``output_recompute``; configured once per subtree (later calls are ignored). ``use_reentrant``,
        ``early_stop`` and ``context_fn`` shape PyNative recomputation and have no effect in a graph."""
        del use_reentrant, early_stop, context_fn
        for key in ("mp_comm_recompute", "parallel_optimizer_comm_recompute"):
            if key in kwargs and not isinstance(kwargs[key], bool):
                raise TypeError(f"The argument '{key}' must be {bool}, but got {type(kwargs[key])}.")
        self._recompute(True, output_recompute)
        if "mp_comm_recompute" in kwargs:
            self._set_primitive_attr("recompute_comm_op", kwargs["mp_comm_recompute"])
        if kwargs.get("parallel_optimizer_comm_recompute", False):
            logger.warning("Currently, the communication operator allgathers introduced by optimizer shard "
                           "is replaced with zero3.")
        if "recompute_slice_activation" in kwargs:
            self._set_primitive_attr("slice_activation", kwargs["recompute_slice_activation"])
        for key in kwargs:
            if key not in ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation"):
                raise ValueError("For 'recompute', keyword '%s' is not recognized! "
                                 "the key kwargs must be 'mp_comm_recompute', "
                                 "'parallel_optimizer_comm_recompute', 'recompute_slice_activation'" % key)

    def _recompute(self, should_add_flag=True, output_recompute=False):
        """Marks this subtree for recomputation; the configured cell (``should_add_flag``) remembers
        whether its outputs are recomputed too."""
        if not isinstance(output_recompute, bool):
            raise TypeError(f"The input value must be a bool, but got {type(output_recompute).__name__}.")
        if self.__dict__.get("_has_config_recompute"):
            logger.info("The recompute interface can be configured only once."
                        " When the parent cell is configured, the child cell should not be configured")
            return
        object.__setattr__(self, "_has_config_recompute", True)
        object.__setattr__(self, "_recompute_scope", True)
        if should_add_flag:
            object.__setattr__(self, "_output_recompute", output_recompute)
        for cell in self.cells():
            cell._recompute(False, True)  # pylint: disable=protected-access

    def _set_primitive_attr(self, name, value):
        """``name = value`` on every primitive of this subtree."""
        for _, cell in self.cells_and_names():
            for attr in cell.__dict__.values():
                if isinstance(attr, Primitive):
                    attr.add_prim_attr(name, value)

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None):
        """Checks a cell-level sharding strategy as MindSpore 2.10 does and records it on the cell
        (``_in_strategy``, ``_out_strategy``, ``_shard_fn``) for the parallel planner; a no-op in a
        one-rank job. Returns None, as MindSpore does."""
        # pylint: disable=import-outside-toplevel,protected-access
        from mindspore.parallel.shard import _shard, _single_rank
        if _single_rank():
            return
        sharded = _shard(self, in_strategy, out_strategy, parameter_plan)
        previous = self.__dict__.get("_in_strategy")
        if previous is not None:
            logger.warning(f"For '{type(self).__name__}', 'Shard' has been configured more than once. "
                           f"The existing in_strategy is {previous} and the existing out_strategy is "
                           f"{self.__dict__.get('_out_strategy')}. The new in_strategy {sharded.in_strategy} and "
                           f"out_strategy {sharded.out_strategy} may not take effect. "
                           "It is recommended to configure 'Shard' only once.")
        object.__setattr__(self, "_shard_fn", sharded)
        object.__setattr__(self, "_in_strategy", sharded.in_strategy)
        object.__setattr__(self, "_out_strategy", sharded.out_strategy)

    def add_flags(self, **flags):
        """Sets each flag as an attribute of this cell (kept in ``get_flags()``); ``fp16``/``bf16``/
        ``fp32`` set to True run this cell in that type, as ``to_float`` does for one cell."""
        self.__dict__.setdefault("_func_graph_flags", {}).update(flags)
        for key, value in flags.items():
            object.__setattr__(self, key, value)
        for flag, dtype in (("fp16", mstype.float16), ("bf16", mstype.bfloat16), ("fp32", mstype.float32)):
            if flags.get(flag) is True:
                object.__setattr__(self, "_float_dtype", dtype)
                STRUCTURE_VERSION[0] += 1
        return self

    def add_flags_recursive(self, **flags):
        """``add_flags`` on this cell and every cell below it."""
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self):
        """The flags ``add_flags`` set."""
        return dict(self.__dict__.get("_func_graph_flags", {}))

    def to_float(self, dst_type):
        """Runs this cell and its sub-cells in ``dst_type`` (float16/bfloat16/float32): their
        floating-point inputs and parameters are cast on the way in (the parameters themselves keep
        their type). A later call overwrites an earlier one."""
        if dst_type not in (mstype.float16, mstype.float32, mstype.bfloat16):
            raise ValueError("For 'to_float', the argument 'dst_type' must be mstype.float32, mstype.float16 or "
                             "mstype.bfloat16, but got type: {} and value: {}.".format(type(dst_type), dst_type))
        flags = {"fp16": dst_type == mstype.float16, "fp32": dst_type == mstype.float32,
                 "bf16": dst_type == mstype.bfloat16}
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "_float_dtype", dst_type)
            for flag, value in flags.items():
                object.__setattr__(cell, flag, value)
        STRUCTURE_VERSION[0] += 1
        return self

    def update_parameters_name(self, prefix='', recurse=True):
        """Renames this cell's parameters (and its sub-cells' when recurse) to ``prefix`` + their
        attribute path, as MindSpore does (a BatchNorm's ``moving_mean``, created with the name
        ``mean``, becomes ``bn.moving_mean`` under attribute ``bn``)."""
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    def _get_prims_recursively(self):
        """The primitives held by this cell and the cells below it (MindSpore's order: own first)."""
        from mindspore.ops.primitive import Primitive  # pylint: disable=import-outside-toplevel
        prims, seen = [], set()
        for _, cell in self.cells_and_names():
            for value in cell.__dict__.values():
                if isinstance(value, Primitive) and id(value) not in seen:
                    seen.add(id(value))
                    prims.append(value)
        return prims

    def set_data_parallel(self):
        """Under auto_parallel, the primitives of this cell (and of the cells it holds) without a strategy of
        their own get a data-parallel one instead of a searched one: input 0's first dimension, and every
        dimension sharing it, split over all devices."""
        for prim in self._get_prims_recursively():
            prim.add_prim_attr("strategy_gen_mode", "data_parallel")

    def cells_and_names(self, cells=None, name_prefix=''):
        """(name, cell) for this cell ('') and every sub-cell, depth first, each cell once."""
        seen = cells if cells is not None else set()
        if id(self) not in seen:
            seen.add(id(self))
            yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is None or id(cell) in seen:
                continue
            prefix = name_prefix + ('.' if name_prefix else '') + name
            yield from cell.cells_and_names(seen, prefix)

    def name_cells(self):
        """The direct sub-cells by attribute name."""
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def cells(self):
        return self.name_cells().values()

    def parameters_and_names(self, name_prefix='', expand=True):
        """(attribute path, parameter) for this cell's parameters, then its sub-cells' (if expand)."""
        seen = set()
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        for cell_name, cell in cells:
            for name, param in cell._params.items():  # pylint: disable=protected-access
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (cell_name + '.' if cell_name else '') + name, param

    def get_parameters(self, expand=True):
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def parameters_broadcast_dict(self, recurse=True):
        """The parameters broadcast by ``parameter_broadcast`` (all but the ``layerwise_parallel``
        ones) by name, or None when there is none."""
        params = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse)
                             if p.layerwise_parallel is False)
        return params or None

    def set_train(self, mode=True):
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", mode)
        return self

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Sets ``comm_fusion`` on every trainable parameter; returns self."""
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    @property
    def pipeline_stage(self):
        return self._pipeline_stage

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("For 'Cell', the property 'pipeline_stage' must be int type, but got type : "
                            "{}".format(type(value)))
        if value < 0:
            raise ValueError("For 'Cell', the property 'pipeline_stage' can not be less than 0, but got "
                             "{}".format(value))
        object.__setattr__(self, "_pipeline_stage", value)

    @property
    def pipeline_segment(self):
        """The chunk (virtual pipeline segment) of this cell in an interleaved pipeline."""
        return self.__dict__.get("_pipeline_segment", -1)

    @pipeline_segment.setter
    def pipeline_segment(self, value):
        # MindSpore 2.10's messages name 'pipeline_stages' here.
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("For 'context.set_auto_parallel_context', the argument 'pipeline_stages' "
                            "must be int type, but got type : {}".format(type(value)))
        if value < 0:
            raise ValueError("For 'context.set_auto_parallel_context', the argument 'pipeline_stages' "
                             "can not be less than 0, but got {}".format(value))
        object.__setattr__(self, "_pipeline_segment", value)

    def extend_repr(self):
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        children = [f"({name}): " + repr(cell).replace("\n", "\n  ") for name, cell in self._cells.items()
                    if cell is not None]
        extra_lines = extra.split("\n") if extra else []
        if not children:
            if len(extra_lines) <= 1:
                return f"{type(self).__name__}({extra})"
        body = "\n  ".join(extra_lines + children)
        return f"{type(self).__name__}(\n  {body}\n)"
