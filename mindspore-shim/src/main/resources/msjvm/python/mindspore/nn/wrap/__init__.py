"""``mindspore.nn.wrap``: training and evaluation wrappers."""
from mindspore.nn.wrap.cell_wrapper import AllreduceGraph, TrainOneStepCell, WithEvalCell, WithLossCell

__all__ = ["WithLossCell", "TrainOneStepCell", "WithEvalCell", "AllreduceGraph"]
