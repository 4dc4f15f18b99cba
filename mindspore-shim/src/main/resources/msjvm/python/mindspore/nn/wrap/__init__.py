"""``mindspore.nn.wrap``: training and evaluation wrappers."""
from mindspore.nn.wrap.cell_wrapper import (AllreduceGraph, ForwardValueAndGrad, GradAccumulationCell,
                                            MicroBatchInterleaved, PipelineCell, TrainOneStepCell, WithEvalCell,
                                            WithGradCell, WithLossCell)
from mindspore.nn.wrap.grad_reducer import DistributedGradReducer
from mindspore.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                          TrainOneStepWithLossScaleCell)

__all__ = ["WithLossCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell", "WithEvalCell", "AllreduceGraph", "DistributedGradReducer", "TrainOneStepWithLossScaleCell",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "PipelineCell", "GradAccumulationCell", "MicroBatchInterleaved"]
