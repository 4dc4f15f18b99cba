"""GRAPH_MODE: a cell's ``construct`` traced once into a Java graph, then replayed without Python.

The first call for an input signature (shapes, dtypes, non-tensor arguments, training flag) runs
``construct`` eagerly while the engine records every operator; the recording becomes a graph that
later calls replay in Java (forward, backward and optimizer updates of a ``TrainOneStepCell``
alike). If ``construct`` read a traced value in Python (``item()``, ``print``, a data-dependent
``if``), the graph would freeze that decision, so such a cell keeps running eagerly instead, as a
MindSpore user would expect from PYNATIVE. Graphs are kept per cell and signature (a new shape,
the training flag, or a Parameter/sub-cell set on any cell since the trace all trace again).
A compile without a call (``compile_only``) and every semi_auto/auto_parallel compile trace on
shapes alone instead: no kernel runs and no parameter changes while they trace.
"""
import ast
import contextlib
import os
from mindspore._host import host
from mindspore.ops.composite import base as _grad_base

_EAGER = object()  # cache entry of a signature whose trace read a value


def _tensor_cls():
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor


def _signature(args, training):
    """The cache key of a call: the training flag, the cells' structure version, the arguments'
    structure with each non-tensor value, and the tensors' dtypes and shapes. Tensors inside tuple
    or list arguments (a tuple of gradients given to an optimizer) are graph inputs like top-level
    ones, in the order ``_leaves`` lists them; None when an argument cannot be a key."""
    from mindspore.nn.cell import STRUCTURE_VERSION  # pylint: disable=import-outside-toplevel
    tensor = _tensor_cls()
    tensors = []

    def part(a):
        if isinstance(a, tensor):
            tensors.append(a._java)  # pylint: disable=protected-access
            return "T"
        if isinstance(a, (tuple, list)) and _holds_tensor(a):
            return (type(a).__name__, tuple(part(x) for x in a))
        hash(a)
        return ("V", type(a), a)

    try:
        key = [training, STRUCTURE_VERSION[0]] + [part(a) for a in args]
    except TypeError:
        return None
    key.append(host().signatureOf(tensors))
    return tuple(key)


def _holds_tensor(value):
    tensor = _tensor_cls()
    return any(isinstance(x, tensor) or (isinstance(x, (tuple, list)) and _holds_tensor(x)) for x in value)


def _leaves(args):
    """The tensors among ``args`` and inside their tuples and lists, in order: a graph's inputs."""
    tensor = _tensor_cls()
    found = []

    def walk(a):
        if isinstance(a, tensor):
            found.append(a)
        elif isinstance(a, (tuple, list)):
            for x in a:
                walk(x)

    for a in args:
        walk(a)
    return found


def _map_tensors(args, fn):
    """``args`` with each tensor, top-level or inside tuples and lists, replaced by ``fn(tensor)``."""
    tensor = _tensor_cls()

    def each(a):
        if isinstance(a, tensor):
            return fn(a)
        if isinstance(a, (tuple, list)) and _holds_tensor(a):
            items = [each(x) for x in a]
            return type(a)(*items) if hasattr(a, "_fields") else type(a)(items)  # namedtuples take fields
        return a

    return [each(a) for a in args]


def _flatten(value, tensors):
    """A template of ``value`` with tensors replaced by their index in ``tensors``."""
    tensor = _tensor_cls()
    if isinstance(value, tensor):
        tensors.append(value)
        return ("T", len(tensors) - 1)
    if isinstance(value, tuple):
        return ("tuple", [_flatten(v, tensors) for v in value])
    if isinstance(value, list):
        return ("list", [_flatten(v, tensors) for v in value])
    if value is None or isinstance(value, (str, bool)):
        return ("V", value)
    return None


def _rebuild(template, tensors):
    kind, body = template
    if kind == "T":
        return tensors[body]
    if kind == "tuple":
        return tuple(_rebuild(t, tensors) for t in body)
    if kind == "list":
        return [_rebuild(t, tensors) for t in body]
    return body


def _has_unknown(template):
    if template is None:
        return True
    kind, body = template
    return kind in ("tuple", "list") and any(_has_unknown(t) for t in body)


@contextlib.contextmanager
def _micro_batch(i):
    """While a graph is traced, the operators recorded inside (and their gradients) carry micro-batch
    index ``i``, which pipeline scheduling reads; nothing otherwise."""
    h = host()
    if not h.recording():
        yield
        return
    h.pushLabels(["micro", i])
    try:
        yield
    finally:
        h.popLabels()


@contextlib.contextmanager
def _print_as_operator():
    """While ``construct`` is traced, ``print(...)`` is MindSpore's ``Print`` operator, as graph mode
    compiles it: a replay writes the step's values (each item on its own line, tensors in
    graph-mode text), and a compile on shapes needs no value. A call with ``sep``/``end``/``file``
    or ``flush`` stays Python's print, at trace time. Per interpreter: the ranks of a job each have
    their own ``builtins``."""
    import builtins  # pylint: disable=import-outside-toplevel
    python_print = builtins.print
    if getattr(python_print, "_msjvm_graph_print", False):  # a nested trace
        yield
        return

    def graph_print(*args, **kwargs):
        if kwargs or not args or not host().recording():
            python_print(*args, **kwargs)
            return
        from mindspore.ops.operations.debug_ops import Print  # pylint: disable=import-outside-toplevel
        builtins.print = python_print  # Print writes eagerly with print itself
        try:
            Print()(*args)
        finally:
            builtins.print = graph_print

    graph_print._msjvm_graph_print = True  # pylint: disable=protected-access
    builtins.print = graph_print
    try:
        yield
    finally:
        builtins.print = python_print


def call(cell, args):
    """Runs ``cell(*args)`` in GRAPH_MODE (as a dry run in MindSpore's UT setting: see
    ``parallel._utils._compile_world``)."""
    from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
    with _utils._compile_world(execution=True):  # pylint: disable=protected-access
        return _call(cell, args)


def _call(cell, args):
    h = host()
    tensor = _tensor_cls()
    key = _signature(args, cell.training)
    cache = cell.__dict__.setdefault("_msjvm_graphs", {})
    entry = cache.get(key) if key is not None else _EAGER
    if entry is _EAGER:
        return cell._run_construct(*args)  # pylint: disable=protected-access
    if entry is not None:
        graph, template = entry
        inputs = [a._java for a in _leaves(args)]  # pylint: disable=protected-access
        outs = [tensor._wrap(o.java) for o in h.runGraph(graph, inputs)]  # pylint: disable=protected-access
        report_dry_run()
        return _rebuild(template, outs)
    wrapper = _auto_parallel_in(cell)
    if wrapper is not None and not wrapper.__dict__.get("_compiling"):
        with _compiling(wrapper):
            return _call(cell, args)
    if _partitioned():
        return _compile_partitioned(cell, args, key, cache)
    return _trace(cell, args, key, cache, on_shapes=False)


def _trace(cell, args, key, cache, on_shapes):
    """Traces ``cell`` for ``args`` stand-alone and keeps the graph in ``cache`` (``_EAGER`` when
    ``construct`` read a traced value). ``on_shapes``: on abstract tensors of the arguments' shapes,
    no kernel runs (a compile-only call; returns None); else the trace runs the step, whose outputs
    it returns (the first call of a signature)."""
    h = host()
    tensor = _tensor_cls()
    _broadcast_before_compile(cell)
    traced = _map_tensors(args, lambda a: tensor._wrap(  # pylint: disable=protected-access
        (h.abstractTensor(list(a.shape), a._java) if on_shapes else h.alias(a._java)).java))  # pylint: disable=protected-access
    leaves = [a._java for a in _leaves(traced)]  # pylint: disable=protected-access
    tape = (h.tapePushAbstract(leaves) if on_shapes else h.tapePush(leaves)).java
    try:
        with _print_as_operator():
            out = cell._run_construct(*traced)  # pylint: disable=protected-access
    except BaseException:
        h.tapeReset()
        _grad_base.drop_traced_forwards()
        if on_shapes and tape.valueRead():
            cache[key] = _EAGER
            return None
        raise
    h.tapePop(tape)
    _grad_base.drop_traced_forwards()
    results = []
    template = _flatten(out, results)
    if tape.valueRead() or _has_unknown(template):
        cache[key] = _EAGER
    else:
        graph = h.compile(tape, leaves, [r._java for r in results]).java  # pylint: disable=protected-access
        cache[key] = (graph, template)
    return None if on_shapes else out


@contextlib.contextmanager
def _compiling(wrapper):
    """The ``AutoParallel`` wrapper's settings hold while a graph of its network compiles."""
    object.__setattr__(wrapper, "_compiling", True)
    try:
        with wrapper._compile_context():  # pylint: disable=protected-access
            yield
    finally:
        object.__setattr__(wrapper, "_compiling", False)


def compile_only(cell, args):
    """Compiles ``cell`` for ``args`` without running it (``_cell_graph_executor.compile``): the graph
    is traced on shapes alone (no kernel runs, no parameter changes) and kept for the calls with the
    same signature; in semi_auto/auto_parallel it is partitioned for this rank, so the strategies and
    ``parameter_layout_dict`` are known. A construct that reads a computed value keeps running
    eagerly (stand-alone) or raises MindSpore's one-graph error (parallel), as a call would.
    Returns whether it compiled (False: this signature was compiled before)."""
    key = _signature(args, cell.training)
    cache = cell.__dict__.setdefault("_msjvm_graphs", {})
    if key is None or key in cache:
        return False
    wrapper = _auto_parallel_in(cell)
    if wrapper is not None and not wrapper.__dict__.get("_compiling"):
        with _compiling(wrapper):
            return compile_only(cell, args)
    from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
    with _utils._compile_world():  # pylint: disable=protected-access
        if _partitioned():
            _plan_partitioned(cell, args, key, cache)
        else:
            _trace(cell, args, key, cache, on_shapes=True)
    return True


def _auto_parallel_in(cell):
    """The ``AutoParallel`` wrapper in ``cell``'s tree (the cell itself or a sub-cell), if any: its
    settings hold while the graph compiles."""
    from mindspore.parallel.auto_parallel import AutoParallel  # pylint: disable=import-outside-toplevel
    for _, sub in cell.cells_and_names():
        if isinstance(sub, AutoParallel):
            return sub
    return None


def _partitioned():
    """semi_auto_parallel / auto_parallel on more than one rank: graphs are partitioned per rank."""
    from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
    from mindspore.communication._comm_helper import GlobalComm  # pylint: disable=import-outside-toplevel
    if not GlobalComm.INITED or not _utils._is_in_auto_parallel_mode():  # pylint: disable=protected-access
        return False
    from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
    return get_group_size() > 1


def _compile_partitioned(cell, args, key, cache):
    """Plans ``cell`` for this rank (``_plan_partitioned``), then runs the rank's graph on its own
    arguments."""
    template = _plan_partitioned(cell, args, key, cache)
    h = host()
    tensor = _tensor_cls()
    local, _ = cache[key]
    inputs = [a._java for a in _leaves(args)]  # pylint: disable=protected-access
    outs = [tensor._wrap(o.java) for o in h.runGraph(local, inputs)]  # pylint: disable=protected-access
    report_dry_run()
    return _rebuild(template, outs)


def report_dry_run():
    """In a dry run: after the first (simulated) step of a graph at level 1, 2 or 3, prints this
    rank's memory as MindSpore's dry run ends its log (``Used peak memory usage (without fragments):
    <n>M``), with its parts, and writes them to ``dryrun_memory/rank_<r>.json``; at level 3, after
    every step, prints its predicted time (the kernels measured, the collectives timed on the link
    model) and adds it as a line to ``dryrun_time/rank_<r>.jsonl``."""
    h = host()
    memory = h.dryRunMemory()
    if memory is not None and memory[2] in (1, 2, 3):
        _report_memory(memory)
    timing = h.dryRunTime()
    if timing is not None:
        _report_time(timing)
    if memory is not None and os.environ.get("MSJVM_PLAN_ONLY"):
        # The job server's POST /v1/plan: the plan and this rank's memory are written; no more steps.
        raise SystemExit(0)


def _report_memory(memory):
    rank, size, level, params, states, inputs, values, total = memory
    mib = -(-total // (1 << 20))
    print(f"[dry run] rank {rank} of {size}, simulation level {level}: parameters {params} bytes, "
          f"optimizer states {states} bytes, inputs {inputs} bytes, activations/gradients/communication "
          f"at the peak {values} bytes")
    print(f"Used peak memory usage (without fragments): {mib}M")
    print(f"Actual peak memory usage (with fragments): {mib}M", flush=True)
    os.makedirs("dryrun_memory", exist_ok=True)
    import json  # pylint: disable=import-outside-toplevel
    with open(os.path.join("dryrun_memory", f"rank_{rank}.json"), "w", encoding="utf-8") as f:
        json.dump({"rank": rank, "rank_size": size, "simulation_level": level, "parameter_bytes": params,
                   "optimizer_state_bytes": states, "input_bytes": inputs, "peak_activation_bytes": values,
                   "used_peak_bytes": total}, f, indent=1)


def _report_time(timing):
    import json  # pylint: disable=import-outside-toplevel
    rank, size, compute, comm, calls, sent, step, link = timing
    print(f"[dry run] rank {rank} of {size}, step time predicted {step:.3f} ms: compute {compute:.3f} ms "
          f"(measured) + communication {comm:.3f} ms ({calls} collectives, {sent} bytes sent, links {link})",
          flush=True)
    os.makedirs("dryrun_time", exist_ok=True)
    with open(os.path.join("dryrun_time", f"rank_{rank}.jsonl"), "a", encoding="utf-8") as f:
        f.write(json.dumps({"rank": rank, "rank_size": size, "link": link, "compute_ms": compute,
                            "communication_ms": comm, "collectives": calls, "bytes_sent": sent,
                            "step_ms": step}) + "\n")


def _plan_partitioned(cell, args, key, cache):
    """Compiles ``cell`` for this rank in semi_auto/auto_parallel: the engine plans it once per job
    (``Host.parallelCompile``). The rank that leads traces ``cell`` on global shapes alone (a
    batch-split argument stands for all ranks' batches, a full_batch argument is global already: no
    kernel runs, no parameter changes) and plans the graph; the other ranks of the job in this JVM
    lower that plan with their own parameters without tracing. Keeps the rank's graph in ``cache``,
    sets the parameters' layouts and returns the outputs' template. See
    docs/design-parallel-execution.md."""
    from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
    from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
    from mindspore import context  # pylint: disable=import-outside-toplevel
    h = host()
    tensor = _tensor_cls()
    # With pipeline stages a batch is split over one stage's devices (reference §5.1).
    n = get_group_size() // max(1, context.get_auto_parallel_context("pipeline_stages"))
    split = not _utils._get("full_batch")  # pylint: disable=protected-access
    strategies = context.get_auto_parallel_context("dataset_strategy")
    if isinstance(strategies, str) or not all(isinstance(e, (list, tuple)) for e in strategies):
        strategies = None  # "data_parallel"/"full_batch" (or Layouts: not applied to inputs yet)
    specs = []

    def global_arg(a):
        shape = list(a.shape)
        if strategies:
            # A tuple dataset_strategy: each input is this rank's block of a global tensor split
            # strategy[d] ways along dimension d (the engine lays it out, ParallelCompiler.argLayouts).
            strategy = list(strategies[len(specs)]) if len(specs) < len(strategies) else [1] * a.ndim
            if len(strategy) != a.ndim:
                raise ValueError(f"The dataset strategy {tuple(strategy)} of input {len(specs)} has "
                                 f"{len(strategy)} dimensions, but the input has {a.ndim}: {tuple(a.shape)}.")
            shape = [d * f for d, f in zip(shape, strategy)]
            specs.append([shape, False, strategy])
        else:
            batch_split = split and a.ndim > 0
            if batch_split:
                shape[0] *= n
            specs.append([shape, batch_split])
        return tensor._wrap(h.abstractTensor(shape, a._java).java)  # pylint: disable=protected-access

    global_args = _map_tensors(args, global_arg)
    parameters = list(cell.get_parameters())
    deferred = [p for p in parameters if "_java" not in p.__dict__ and p.init_mode is not None]
    params = [_compile_variable(p) for p in parameters]
    held = {str(name) for name in h.holdSlices(params)}
    try:
        return _plan_held(cell, specs, global_args, params, deferred, key, cache, held)
    finally:
        h.restoreSlices()


def _plan_held(cell, specs, global_args, params, deferred, key, cache, held):
    """``_plan_partitioned`` while the parameters an earlier compile sliced show their whole types
    (``held``: their names)."""
    h = host()
    _broadcast_before_compile(cell, held)
    load, save = _strategy_files()
    wrapper = _auto_parallel_in(cell)
    op_load = wrapper._load_operator_strategy_file if wrapper is not None else ""  # pylint: disable=protected-access
    op_save = wrapper._save_operator_strategy_file if wrapper is not None else ""  # pylint: disable=protected-access
    compiling = h.parallelCompile(
        type(cell).__name__, specs, params,
        [v for p in cell.trainable_params() for v in (p.name, bool(p.parallel_optimizer), p.comm_fusion)],
        _parameter_plan(cell), load, save, op_load, op_save)
    if compiling.traceHere():
        try:
            graph, template = _trace_global(cell, global_args)
        except BaseException:
            compiling.abandon()
            raise
        plan = compiling.plan(graph, repr(template))
    else:
        plan = compiling.shared()
        template = ast.literal_eval(str(compiling.outputs()))
    local = plan.graph().java
    cell.__dict__["_msjvm_shard_strategies"] = {
        str(name): [[int(v) for v in s] for s in strategy]
        for name, strategy in compiling.operatorStrategies().items()}
    _save_plan(cell, plan)
    if os.environ.get("MSJVM_PLAN_ONLY") and os.environ.get("MS_SIMULATION_LEVEL", "").strip() in ("", "0"):
        # A plan without a simulated step: the plan report is written, nothing is trained.
        raise SystemExit(0)
    cache[key] = (local, template)
    _set_layouts(cell, plan)
    for p in deferred:
        if not p._java.deferred():  # pylint: disable=protected-access
            # The compile filled it (this rank's slice, or all of it where it is not split).
            p.init = None
            p.init_mode = None
    return template


def _compile_variable(param):
    """The Java variable of ``param`` for a parallel compile. A Parameter still waiting for its
    initializer gets a deferred one: tracing reads only its shape and dtype, and the compile fills
    only the rank's slice (``Host.deferredVariable``) from the seed drawn when the Parameter was
    made (or now, in get_parameters() order, when none was)."""
    if "_java" in param.__dict__ or param.init_mode is None:
        return param._java  # pylint: disable=protected-access
    from mindspore.common.initializer import _fill_java, _pin_seed  # pylint: disable=import-outside-toplevel
    tensor = param.init_mode
    init, shape, dtype = tensor.init, tuple(param._init_shape), param._init_dtype  # pylint: disable=protected-access
    seed = tensor.__dict__.get("_pinned_seed")
    if seed is None:
        seed = _pin_seed(init)

    def fill(begin, length):
        return _fill_java(init, shape, dtype, seed, (list(begin), list(length)))

    param._java = host().deferredVariable(param.name, list(shape), dtype.engine_name, fill).java  # pylint: disable=protected-access
    return param._java  # pylint: disable=protected-access


def _trace_global(cell, global_args):
    """The graph of ``cell`` traced on the abstract ``global_args`` and the template of its results;
    MindSpore's one-graph error if ``construct`` reads a computed value."""
    h = host()
    tensor = _tensor_cls()
    leaves = [a._java for a in _leaves(global_args)]  # pylint: disable=protected-access
    tape = h.tapePushAbstract(leaves).java
    try:
        with _print_as_operator():
            out = cell._run_construct(*global_args)  # pylint: disable=protected-access
    except BaseException:
        h.tapeReset()
        _grad_base.drop_traced_forwards()
        if tape.valueRead():
            raise _one_graph_error(cell, tape) from None
        raise
    h.tapePop(tape)
    _grad_base.drop_traced_forwards()
    results = []
    template = _flatten(out, results)
    if tape.valueRead() or _has_unknown(template):
        raise _one_graph_error(cell, tape)
    return h.compile(tape, leaves, [r._java for r in results]).java, template  # pylint: disable=protected-access


def _one_graph_error(cell, tape):
    """The error of a semi/auto-parallel network whose construct needs a computed value."""
    return RuntimeError(f"For semi_auto_parallel/auto_parallel, the network '{type(cell).__name__}' must "
                        f"compile to one graph, but its construct reads a computed value in Python "
                        f"({tape.valueReadReason()}).")


def _strategy_files():
    """The strategy checkpoint files to load and save (``strategy_ckpt_load_file``/``_save_file`` or
    ``strategy_ckpt_config``), as absolute paths ("" for none)."""
    from mindspore import context  # pylint: disable=import-outside-toplevel
    config = context.get_auto_parallel_context("strategy_ckpt_config")
    return tuple(os.path.abspath(config[k]) if config[k] else "" for k in ("load_file", "save_file"))


def _parameter_plan(cell):
    """The ``parameter_plan`` tuple strategies ``Cell.shard`` stored on the parameters of ``cell`` (a
    Layout as the tuple strategy that places the parameter alike, where there is one), as alternating
    parameter names and strategies."""
    from mindspore.parallel.shard import Layout, _layout_as_strategy  # pylint: disable=import-outside-toplevel
    out = []
    for param in cell.trainable_params():
        strategy = param.__dict__.get("_param_strategy")
        if isinstance(strategy, Layout):
            strategy = _layout_as_strategy(strategy)
        if isinstance(strategy, tuple):
            out += [param.name, list(strategy)]
    return out


def _save_plan(cell, plan):
    """The plan report (every op's strategy and layouts, every inserted collective with its group,
    bytes and cause) as ``<save_graphs_path>/rank_<r>/parallel_plan_<Cell>_<k>.txt`` when graphs are
    saved (``set_context(save_graphs=...)`` or ``MS_DEV_SAVE_GRAPHS``); with pipeline stages also
    ``pipeline_timeline_<Cell>_<k>.json`` (the Chrome trace of the rank's latest step, rewritten after
    each); after an auto_parallel search also ``strategy_search_<Cell>_<k>.json``/``.txt`` (per op the
    chosen strategy, its cost breakdown and the best rejected strategy with its cost delta)."""
    from mindspore import context  # pylint: disable=import-outside-toplevel
    from mindspore.communication.management import get_rank  # pylint: disable=import-outside-toplevel
    if not context.get_context("save_graphs") and not os.environ.get("MS_DEV_SAVE_GRAPHS"):
        return
    folder = os.path.join(context.get_context("save_graphs_path") or ".", f"rank_{get_rank()}")
    os.makedirs(folder, exist_ok=True)
    k = 0
    while os.path.exists(path := os.path.join(folder, f"parallel_plan_{type(cell).__name__}_{k}.txt")):
        k += 1
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(plan.plan()) + "\n")
    h = host()
    h.pipelineTimeline(os.path.join(folder, f"pipeline_timeline_{type(cell).__name__}_{k}.json"))
    for json, suffix in ((True, "json"), (False, "txt")):
        report = h.searchReport(json)
        if report is not None:
            name = f"strategy_search_{type(cell).__name__}_{k}.{suffix}"
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(str(report))


def _set_layouts(cell, plan):
    """``parameter_layout_dict`` on the compiled cell and on every sub-cell holding the parameters:
    the engine's layouts by parameter name (``Host.parameterLayouts``), which each cell turns into
    MindSpore's 12-tuples when its ``parameter_layout_dict`` is read (compiles in order: a later
    compile giving the cell's parameters layouts replaces the dict, as if set right away)."""
    layouts = host().parameterLayouts(plan.java)
    for _, sub in cell.cells_and_names():
        sub.__dict__.setdefault("_msjvm_layouts", []).append(layouts)


def _broadcast_before_compile(cell, skip=()):
    """``parameter_broadcast=True``: MindSpore broadcasts the parameters from rank 0 each time it
    compiles a graph (here: before a new signature is traced), but not those in ``skip`` (names of
    parameters split by an earlier compile)."""
    from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
    if _utils._get_parameter_broadcast():  # pylint: disable=protected-access
        _utils._parameter_broadcast(cell, skip)  # pylint: disable=protected-access


def compiled(cell, args):
    """``(graph, template, tensor signature)`` of ``cell``'s replayable graph for ``args``, or None
    (not traced yet, or running eagerly); for loops that replay it from Java (dataset sink mode)."""
    key = _signature(args, cell.training)
    entry = cell.__dict__.get("_msjvm_graphs", {}).get(key) if key is not None else None
    if entry is None or entry is _EAGER:
        return None
    tensor = _tensor_cls()
    return entry[0], entry[1], host().signatureOf([a._java for a in _leaves(args)])  # pylint: disable=protected-access


def rebuild(template, outputs):
    """A replay's results (``host()`` wrappers of Java tensors) shaped as ``construct`` returned them."""
    tensor = _tensor_cls()
    return _rebuild(template, [tensor._wrap(o.java) for o in outputs])  # pylint: disable=protected-access
