"""``mindspore.parallel.parameter_broadcast``: make the ranks that hold the same slice of a
parameter agree on the values of the one rank that owns it.

Follows MindSpore 2.10's ``mindspore/parallel/parameter_broadcast.py``: the redundancy groups come
from ``get_parameter_redundancy(layout, initial_rank)``, the owners from
``remove_param_redundancy``; for every group of two or more ranks that holds this rank, the rank
zeroes the parameters of that group it does not own, and a SUM AllReduce over the group
(``AllreduceGraph``) leaves the owner's values everywhere. The parallel mode is switched to
``hybrid_parallel`` meanwhile and restored afterwards (left switched if an unknown parameter name
raises, as in MindSpore). As in MindSpore, a rank that owns no parameter at all returns at once
without joining its groups' AllReduces, so a layout must give every rank of a redundancy group
something to own (otherwise the owners wait for it until the job's timeout).
"""
from mindspore.communication import create_group, get_group_size, get_rank

__all__ = ["parameter_broadcast"]

_MODE_OF_AUTO_PARALLEL = {"sharding_propagation": "auto_parallel", "recursive_programming": "auto_parallel",
                          "semi_auto": "semi_auto_parallel"}


def _parallel_settings(net):
    """``(parallel_mode, pipeline_stages)`` of an ``AutoParallel`` cell in ``net``, else of the context."""
    import mindspore as ms  # pylint: disable=import-outside-toplevel
    for _, cell in net.cells_and_names():
        if type(cell).__name__ == 'AutoParallel':
            mode = cell._parallel_mode  # pylint: disable=protected-access
            if mode not in _MODE_OF_AUTO_PARALLEL:
                raise ValueError("Invalid parallel_mode input, expect one of 'semi_auto', 'sharding_propagation', "
                                 "'recursive_programming', but got the value: {}.".format(mode))
            return _MODE_OF_AUTO_PARALLEL[mode], cell._pipeline_stages  # pylint: disable=protected-access
    return ms.get_auto_parallel_context("parallel_mode"), ms.get_auto_parallel_context("pipeline_stages")


def _check_rank(cur_rank, initial_rank, pipeline_stages):
    if cur_rank != get_rank():
        raise ValueError(f"For parameter broadcast, the cur_rank: {cur_rank} is wrong.")
    if initial_rank % (get_group_size() / pipeline_stages) != 0:
        raise ValueError(f"For parameter broadcast, the initial_rank: {initial_rank} is wrong.")


def parameter_broadcast(net, layout, cur_rank=0, initial_rank=0):
    """Broadcasts every redundant parameter of ``net`` from its owner within its redundancy group."""
    # pylint: disable=import-outside-toplevel
    import mindspore as ms
    from mindspore import ops
    from mindspore.nn.wrap.cell_wrapper import AllreduceGraph
    from mindspore.train._utils import get_parameter_redundancy, remove_param_redundancy
    if not layout or get_group_size() <= 1:
        return
    origin_parallel_mode, pipeline_stages = _parallel_settings(net)
    _check_rank(cur_rank, initial_rank, pipeline_stages)
    param_redundancy = get_parameter_redundancy(layout, initial_rank)
    if not param_redundancy:
        return
    single_params = remove_param_redundancy(param_redundancy)
    if not single_params:
        return
    params_by_group = {}
    for name, groups in param_redundancy.items():
        for group in groups:
            if len(group) > 1 and cur_rank in group:
                params_by_group.setdefault(group, []).append(name)
    if not params_by_group or cur_rank not in single_params:
        return
    net_params = net.parameters_dict()
    ms.set_auto_parallel_context(parallel_mode="hybrid_parallel")
    for group, names in params_by_group.items():
        create_group(str(group), list(group))
        inputs = []
        for name in names:
            if name not in net_params:
                raise ValueError(f"For parameter broadcast, the param: {name} can not be found.")
            param = net_params[name]
            if name not in single_params[cur_rank]:
                param.set_data(ops.zeros(param.shape, param.dtype))
            inputs.append(param)
        if inputs:
            AllreduceGraph(inputs, str(group))()
    ms.set_auto_parallel_context(parallel_mode=origin_parallel_mode)
