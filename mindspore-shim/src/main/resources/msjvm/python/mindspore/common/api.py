"""``mindspore.common.api``: the cell graph executor's compile-only entry point.

MindSpore's own parallel tests and tools compile a network without running it
(``_cell_graph_executor.compile(net, *inputs)``) and then read ``net.parameter_layout_dict``; here
that traces the network on shapes alone and, in semi_auto/auto_parallel, plans this rank's part.
"""
from mindspore.common import _graph


class _CellGraphExecutor:
    """Compiles cells (MindSpore's ``_CellGraphExecutor``; only what compiling needs)."""

    def compile(self, obj, *args, phase="predict", do_convert=True, jit_config_dict=None, **kwargs):  # pylint: disable=unused-argument
        """Compiles ``obj`` for ``args`` without running it; later calls with the same signature
        replay the compiled graph. Returns the phase and whether it compiled now (False: compiled
        before), as MindSpore does."""
        if not hasattr(obj, "construct"):
            raise AttributeError(f"The class {type(obj).__name__} does not have method construct")
        compiled = _graph.compile_only(obj, args)
        return f"{phase}.{id(obj)}", compiled


_cell_graph_executor = _CellGraphExecutor()
