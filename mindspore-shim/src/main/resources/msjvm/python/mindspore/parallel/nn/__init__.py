"""``mindspore.parallel.nn``: the micro-batch wrappers of pipeline parallelism and gradient
accumulation (``Pipeline``/``PipelineCell``, ``MicroBatchInterleaved``, ``GradAccumulation``) and
``PipelineGradReducer``, as in MindSpore 2.10's ``parallel/nn/parallel_cell_wrapper.py`` and
``parallel_grad_reducer.py``."""
from mindspore.parallel.nn.parallel_cell_wrapper import GradAccumulation, MicroBatchInterleaved, Pipeline, PipelineCell
from mindspore.parallel.nn.parallel_grad_reducer import PipelineGradReducer

__all__ = ["PipelineCell", "Pipeline", "MicroBatchInterleaved", "GradAccumulation", "PipelineGradReducer"]
