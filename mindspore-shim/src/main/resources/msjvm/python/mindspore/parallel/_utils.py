"""Parallel helpers of MindSpore 2.10's ``mindspore/parallel/_utils.py`` that the training wrappers
read: the parallel mode, the device count used for gradient averaging, ``gradients_mean`` and
whether parameters are broadcast at compile time."""
from mindspore.communication._comm_helper import GlobalComm
from mindspore.parallel._auto_parallel_context import auto_parallel_context


def _get(key):
    return auto_parallel_context()._handle.get(key)  # pylint: disable=protected-access


def _get_parallel_mode():
    return _get("parallel_mode")


def _get_gradients_mean():
    return _get("gradients_mean")


def _get_device_num():
    """1 in stand_alone mode; else the context's ``device_num`` if the script set it, otherwise
    the size of the world group."""
    if _get_parallel_mode() == "stand_alone":
        return 1
    if _get("device_num_is_set"):
        return _get("device_num")
    from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
    return get_group_size()


def _get_parameter_broadcast():
    return _get("parameter_broadcast")


def _get_enable_parallel_optimizer():
    """Whether the optimizer parallel is on."""
    return auto_parallel_context().get_enable_parallel_optimizer()


def _is_in_auto_parallel_mode():
    return _get_parallel_mode() in ("semi_auto_parallel", "auto_parallel")


def _parameter_broadcast(cell, skip=()):
    """Broadcasts ``cell``'s parameters (not the ``layerwise_parallel`` ones, nor in semi/auto mode
    the ones split by their layout or named in ``skip``) from rank 0 of the world group, as MindSpore
    does when it compiles a graph with ``parameter_broadcast=True``. A no-op before ``init()`` or on
    one rank."""
    if not GlobalComm.INITED:
        return
    from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
    if get_group_size() <= 1:
        return
    params = cell.parameters_broadcast_dict()
    if not params:
        return
    if _is_in_auto_parallel_mode():
        layouts = getattr(cell, "parameter_layout_dict", None) or {}
        split = {name for name, layout in layouts.items() if any(v != -1 for v in layout[1])}
        params = {name: p for name, p in params.items() if name not in split and name not in skip}
    from mindspore.ops.operations import Broadcast  # pylint: disable=import-outside-toplevel
    values = Broadcast(0, GlobalComm.WORLD_COMM_GROUP)(tuple(params.values()))
    for param, value in zip(params.values(), values):
        param.set_data(value)


def _reset_op_id():
    """MindSpore restarts the numbering of operator ids (``MatMul-op0``...) here; every compile in
    msjvm numbers its operators from 0 already, so there is nothing to restart."""


def _compile_world(execution=False):
    """The context manager a compile-only call (``_cell_graph_executor.compile``) runs in: when the
    script set ``device_num`` > 1 without calling ``init()`` (as MindSpore's own parallel tests do,
    sometimes marking ``GlobalComm.INITED`` by hand), the graph is planned, in any parallel mode
    (stand-alone too: its communication operators take device_num as the world's size, as
    MindSpore's UT backend answers), as rank ``global_rank`` of a simulated ``device_num``-rank
    cluster whose communicator moves nothing (the dry run's), and the world is left again
    afterwards (a one-rank job's communicator, as ``init()`` without a launcher gives, is
    rejoined). Otherwise nothing changes.

    ``execution``: a GRAPH_MODE call (``net(x)``, ``Model.train``) in a parallel mode runs in it
    too, as a dry run (no kernel runs, the results are zeros, the dry run's memory line is
    printed), where ``GlobalComm.INITED`` is set: by hand without ``init()``, or by ``init()`` of a
    one-rank job (the tests call it without a launcher); what MindSpore's UT build, whose backend
    runs nothing, makes of such a script. A script that merely forgot ``init()`` keeps running
    stand-alone."""
    import contextlib  # pylint: disable=import-outside-toplevel
    from mindspore._host import session  # pylint: disable=import-outside-toplevel

    @contextlib.contextmanager
    def world():
        if execution and not GlobalComm.INITED:  # the common case of every call: no Java round trip
            yield
            return
        s = session()
        size = _get("device_num")
        joined = s.commInited()
        # A compile-only call plans stand-alone graphs in the world too: their communication
        # operators take the group size MindSpore's UT backend gives (device_num).
        if (joined and s.comm().size() > 1) or (execution and _get_parallel_mode() == "stand_alone") \
                or not _get("device_num_is_set") or size <= 1:
            yield
            return
        # Not joined, or joined to a one-rank job (the tests' init("hccl") without a launcher).
        s.commSimulate(GlobalComm.WORLD_COMM_GROUP, 1, size, _get("global_rank"))
        inited = GlobalComm.INITED
        GlobalComm.INITED = True
        try:
            yield
        finally:
            GlobalComm.INITED = inited
            s.commRelease()
            if joined:
                s.commInit(GlobalComm.WORLD_COMM_GROUP)

    return world()
