"""``mindspore.common.api``: the cell graph executor's compile-only entry point and ``jit``.

MindSpore's own parallel tests and tools compile a network without running it
(``_cell_graph_executor.compile(net, *inputs)``) and then read ``net.parameter_layout_dict``; here
that traces the network on shapes alone and, in semi_auto/auto_parallel, plans this rank's part.
"""
import os
import weakref

from mindspore._host import host
from mindspore.common import _graph


class _GraphExecutor:
    """What MindSpore's parallel UTs read of a compiled phase (its C++ ``GraphExecutorPy``):
    ``get_parallel_graph_info`` lists this rank's compiled graph as ``{"@graph_0": {"<Op>-<k>":
    {"inputs": [...], "attrs": {...}}}}`` (``Graph.nodeInfo``: msjvm's own graph, one flat graph,
    its nodes named per operator in order; it is not MindSpore's IR, so names and structure match
    MindSpore's only where the graphs agree), ``get_strategy`` the operators' strategies."""

    def __init__(self):
        self._phases = {}

    def _record(self, phase, cell, args):
        self._phases[phase] = (weakref.ref(cell), _graph._signature(args, cell.training))  # pylint: disable=protected-access

    def _cell(self, phase):
        if phase not in self._phases:
            raise RuntimeError(f"No phase {phase} has been compiled.")
        ref, key = self._phases[phase]
        cell = ref()
        if cell is None:
            raise RuntimeError(f"The cell of phase {phase} no longer exists.")
        return cell, key

    def get_parallel_graph_info(self, phase):
        cell, key = self._cell(phase)
        entry = cell.__dict__.get("_msjvm_graphs", {}).get(key)
        if not isinstance(entry, tuple):
            return {}
        import inspect  # pylint: disable=import-outside-toplevel
        arg_names = []
        try:
            for name, param in inspect.signature(cell.construct).parameters.items():
                if param.kind == inspect.Parameter.VAR_POSITIONAL:  # *inputs: inputs0, inputs1...
                    arg_names += [f"{name}{i}" for i in range(64)]
                elif name != "self":
                    arg_names.append(name)
        except (TypeError, ValueError):
            pass
        nodes = host().graphInfo(entry[0], arg_names)
        return {"@graph_0": {name: {"inputs": list(inputs), "attrs": {k: _shown_attr(k, v) for k, v in dict(attrs).items()}}
                             for name, inputs, attrs in nodes}}

    def get_strategy(self, phase):
        cell, _ = self._cell(phase)
        return dict(cell.__dict__.get("_msjvm_shard_strategies", {}))


# Attributes MindSpore holds as lists (MakeListValue: NeighborExchangeV2's, which a partitioned Conv3D or
# MaxPool3D gets); its other sequence attributes are tuples.
_LIST_ATTRS = frozenset(("send_rank_ids", "send_lens", "recv_rank_ids", "recv_lens"))


def _shown_attr(name, value):
    """An attribute as MindSpore's get_parallel_graph_info gives it: scalars and strings as they are,
    a sequence as the text of its value ('[0, 1, 0, 1]' for a list, '(1, 1)' for a tuple)."""
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    try:
        items = [_shown_attr(name, v) for v in value]
    except TypeError:
        return value
    text = ", ".join(str(v) for v in items)
    return f"[{text}]" if name in _LIST_ATTRS else f"({text})"


class _CellGraphExecutor:
    """Compiles cells (MindSpore's ``_CellGraphExecutor``; only what compiling needs)."""

    def __init__(self):
        self._graph_executor = _GraphExecutor()

    def compile(self, obj, *args, phase="predict", do_convert=True, jit_config_dict=None, **kwargs):  # pylint: disable=unused-argument
        """Compiles ``obj`` for ``args`` without running it; later calls with the same signature
        replay the compiled graph. Returns the phase and whether it compiled now (False: compiled
        before), as MindSpore does."""
        if not hasattr(obj, "construct"):
            raise AttributeError(f"The class {type(obj).__name__} does not have method construct")
        compiled = _graph.compile_only(obj, args)
        name = f"{phase}.{id(obj)}"
        self._graph_executor._record(name, obj, args)  # pylint: disable=protected-access
        return name, compiled


    def _get_shard_strategy(self, obj):
        """The input strategy of every operator of ``obj``'s latest semi_auto/auto_parallel compile,
        keyed ``Default/<Primitive>-op<k>`` (``k`` counting that primitive's calls from 0); ``{}``
        before a parallel compile."""
        return dict(obj.__dict__.get("_msjvm_shard_strategies", {}))


_cell_graph_executor = _CellGraphExecutor()


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="", **options):
    """``mindspore.jit``: runs ``function`` (a function, a method, a Cell instance or class) as a graph
    with GRAPH_MODE semantics in either execution mode: the first call of an argument signature traces
    it, later calls replay the graph; a function that reads a computed value in Python runs eagerly,
    as GRAPH_MODE cells do here. A jit function called while a graph is traced is inlined. The
    compilation options (``jit_level``, ``backend``, ``capture_mode``, ``options``) are checked as
    MindSpore checks them; the engine has one way to run a graph. ``MS_JIT=0`` runs ``function`` as
    it is."""
    from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
    validator.check_string(capture_mode, ["ast", "bytecode", "trace"], "capture_mode", "jit")
    validator.check_string(jit_level, ["O0", "O1"], "jit_level", "jit")
    validator.check_int_range(dynamic, 0, 1, validator.INC_BOTH, "dynamic", "jit")
    validator.check_bool(fullgraph, "fullgraph", "jit")
    _check_jit_options(options, backend)
    if function is not None:
        return _jit_wrap(function)
    return _jit_wrap


def _check_jit_options(options, backend):
    """MindSpore's checks of ``jit(**options)``: deprecated names are dropped with a warning, known
    options are checked by type, unknown ones warned about."""
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    renamed = {"mode": "capture_mode", "input_signature": "dynamic", "jit_config": "jit_level, fullgraph or options",
               "compile_once": ""}
    for key, instead in renamed.items():
        if key in options:
            text = f"For 'jit', the parameter '{key}' has been deprecated."
            if instead:
                text += (f" Please use the parameter '{instead}' instead. For more details, please refer to "
                         f"https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.jit.html.")
            logger.warning(text)
            del options[key]
    backends = {"disable_format_transform": ["ms_backend"], "exec_order": ["ms_backend"], "ge_options": ["GE"],
                "infer_boost": ["ms_backend"]}
    choices = {"exec_order": ["bfs", "dfs"], "infer_boost": ["on", "off"], "auto_offload": ["weight", "activation", "all"]}
    for option, value in options.items():
        if option in backends and backend != "" and backend not in backends[option]:
            logger.warning(f"For 'jit(options)', the option '{option}' is only support backend in "
                           f"'{backends[option]}', but got '{backend}', ignore it.")
        if option == "infer_boost":
            logger.warning("For 'jit', the parameter 'infer_boost' is deprecated from version 2.10.0 and will be "
                           "removed in a future version.")
        if option == "disable_format_transform":
            if not isinstance(value, bool):
                raise TypeError(f"For 'jit(options)', the type of '{option}' must be bool, but got {type(value)}.")
        elif option in choices:
            if not isinstance(value, str):
                raise TypeError(f"For 'jit(options)', the type of '{option}' must be str, but got {type(value)}.")
            if value not in choices[option]:
                raise ValueError(f"For '{option}', the value of '{option}' must be one of {choices[option]}, "
                                 f"but got '{value}'.")
        elif option == "ge_options":
            _check_ge_options(option, value)
        else:
            logger.warning(f"For 'jit(options)', the option argument '{option}' is not recognized, please check!"
                           f"For detailed usage of 'jit(options)', please refer to the Mindspore official website.")


def _check_ge_options(option, value):
    """MindSpore's check of ``jit(ge_options={"global"|"session": {str: str}})``."""
    if not isinstance(value, dict):
        raise TypeError(f"For 'jit(options)', the type of '{option}' must be dict, but got {type(value)}.")
    for level, entries in value.items():
        if level not in ["global", "session"]:
            raise ValueError(f"For '{option}', the key of '{option}' must be one of ['global', 'session'], "
                             f"but got '{level}'.")
        if not isinstance(entries, dict):
            raise TypeError(f"For '{option}', the type of {level} options must be dict, but got {type(entries)}. "
                            f"The error options: {entries}.")
        for key, item in entries.items():
            if not isinstance(key, str):
                raise TypeError(f"For '{option}', the type of key and value must be str, but got {type(key)}. "
                                f"The error key is {key}.")
            if not isinstance(item, str):
                raise TypeError(f"For '{option}', the type of key and value must be str, but got {type(item)}. "
                                f"The error value is {item}")


def _jit_wrap(func):
    """``func`` run as a graph (see ``jit``)."""
    import functools  # pylint: disable=import-outside-toplevel
    import inspect  # pylint: disable=import-outside-toplevel
    import types  # pylint: disable=import-outside-toplevel
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    from mindspore.nn.cell import Cell  # pylint: disable=import-outside-toplevel
    if isinstance(func, Cell):
        return types.MethodType(_jit_wrap(type(func).construct), func)
    if isinstance(func, type) and issubclass(func, Cell):
        func.construct = _jit_wrap(func.construct)
        return func
    if hasattr(func, "construct"):
        return func
    if isinstance(func, types.MethodType):
        return types.MethodType(_jit_wrap(func.__func__), func.__self__)
    if not isinstance(func, types.FunctionType):
        logger.warning(f"The func should be function, method or cell instance/class, but got {func}")
        return func
    if hasattr(func, "__wrapped_by_jit__"):
        logger.warning(f"The func {func} should be wrapped by jit only once.")
    signature = inspect.signature(func)

    @functools.wraps(func)
    def run(*args, **kwargs):
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        if os.environ.get("MS_JIT") == "0" or host().recording():
            return func(*args, **kwargs)
        if kwargs:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            if bound.kwargs:
                # Keyword-only arguments have no place in a graph's positional signature: the
                # function runs as it is (same results, no graph).
                return func(*args, **kwargs)
            args = bound.args
        owner = args[0] if args and isinstance(args[0], Cell) else None
        if owner is not None and func.__name__ == "construct" and type(owner).construct is run:
            # Cell.construct decorated with @jit: the cell's own graph.
            return _graph.call(owner, tuple(args[1:]))
        cell = _function_cell(run, func, owner)
        if owner is not None:
            # A method's graph depends on its cell's mode (Dropout...): the key carries it.
            object.__setattr__(cell, "training", owner.training)
        return _graph.call(cell, tuple(args if owner is None else args[1:]))

    run.__signature__ = signature
    run.__wrapped_by_jit__ = True
    return run


def _function_cell(run, func, owner):
    """The cell whose graph cache holds ``func``'s graphs (one per function, or per cell for a
    method): its construct calls ``func``."""
    holder = owner.__dict__ if owner is not None else run.__dict__
    key = ("_msjvm_jit", func.__name__)
    if key not in holder:
        holder[key] = _jit_cell(func, owner)
    return holder[key]


def _jit_cell(func, owner):
    """A cell whose ``construct`` calls the jit function ``func`` (bound to ``owner`` for a method)."""
    from mindspore.nn.cell import Cell  # pylint: disable=import-outside-toplevel

    class JitFunction(Cell):
        """A jit function as a cell, so that it traces, caches and replays as GRAPH_MODE cells do."""

        def construct(self, *args):
            return func(*args) if owner is None else func(owner, *args)

    return JitFunction(auto_prefix=False)
