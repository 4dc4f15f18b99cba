"""``PipelineCell``/``Pipeline``, ``MicroBatchInterleaved`` and ``GradAccumulation``: the wrappers of
``mindspore.nn.wrap.cell_wrapper`` under their ``mindspore.parallel.nn`` names (``GradAccumulation``
checks its arguments under its own name)."""
from mindspore.nn.wrap.cell_wrapper import GradAccumulationCell, MicroBatchInterleaved, PipelineCell

__all__ = ["PipelineCell", "Pipeline", "MicroBatchInterleaved", "GradAccumulation"]


class Pipeline(PipelineCell):
    """``Pipeline(network, micro_size, stage_config=None)``: ``PipelineCell`` under its 2.x name."""


class GradAccumulation(GradAccumulationCell):
    """``GradAccumulation(network, micro_size)``: micro-batches whose gradients accumulate."""
