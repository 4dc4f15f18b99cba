"""``mindspore.nn``: cells, layers, losses, optimizers and training wrappers."""
from mindspore.nn.cell import Cell
from mindspore.nn.layer.activation import FastGelu, GELU, LogSoftmax, PReLU, ReLU, Sigmoid, SiLU, Softmax, Tanh, get_activation
from mindspore.nn.layer.basic import Dense, Dropout, Flatten, Identity, Linear
from mindspore.nn.layer.container import CellList, SequentialCell
from mindspore.nn.loss.loss import (BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, LossBase, MAELoss, MSELoss,
                                    NLLLoss, SoftmaxCrossEntropyWithLogits)

__all__ = ["Cell", "Linear", "FastGelu", "GELU", "LogSoftmax", "PReLU", "ReLU", "Sigmoid", "SiLU", "Softmax", "Tanh", "get_activation", "Dense",
           "Dropout", "Flatten", "Identity", "CellList", "SequentialCell", "BCEWithLogitsLoss",
           "CrossEntropyLoss", "L1Loss", "LossBase", "MAELoss", "MSELoss", "NLLLoss",
           "SoftmaxCrossEntropyWithLogits"]
from mindspore.nn.learning_rate_schedule import LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR, InverseDecayLR, CosineDecayLR, PolynomialDecayLR, WarmUpLR  # noqa: E402
from mindspore.nn.dynamic_lr import piecewise_constant_lr, exponential_decay_lr, natural_exp_decay_lr, inverse_decay_lr, cosine_decay_lr, polynomial_decay_lr, warmup_lr  # noqa: E402
from mindspore.nn.optim import Optimizer, Momentum, SGD, Adam, AdamWeightDecay, Lamb  # noqa: E402
from mindspore.nn.wrap import WithLossCell, TrainOneStepCell, WithEvalCell  # noqa: E402
__all__ += ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR", "piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr", "Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "Lamb", "WithLossCell", "TrainOneStepCell", "WithEvalCell"]  # noqa: E501
# Layers: convolution, pooling, normalization, embedding.
from mindspore.nn.layer.conv import Conv2d  # noqa: E402
from mindspore.nn.layer.embedding import Embedding  # noqa: E402
from mindspore.nn.layer.normalization import BatchNorm1d, BatchNorm2d, LayerNorm, SyncBatchNorm  # noqa: E402
from mindspore.nn.layer.pooling import AdaptiveAvgPool2d, AvgPool2d, AvgPool3d, MaxPool2d, MaxPool3d  # noqa: E402

__all__ += ["Conv2d", "Embedding", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "SyncBatchNorm", "AvgPool2d", "MaxPool2d", "AdaptiveAvgPool2d", "AvgPool3d",
            "MaxPool3d"]
# Loss scaling for mixed precision.
from mindspore.nn.wrap import (DistributedGradReducer, DynamicLossScaleUpdateCell,  # noqa: E402
                               FixedLossScaleUpdateCell, TrainOneStepWithLossScaleCell)

__all__ += ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell",
            "DistributedGradReducer"]
# MindSpore 2.10 exports the micro-batch wrappers from mindspore.nn too (the docs' pipeline samples use
# nn.PipelineCell and nn.PipelineGradReducer).
from mindspore.nn.wrap import GradAccumulationCell, MicroBatchInterleaved, PipelineCell  # noqa: E402
from mindspore.parallel.nn.parallel_grad_reducer import PipelineGradReducer  # noqa: E402
__all__ += ["PipelineCell", "PipelineGradReducer", "MicroBatchInterleaved", "GradAccumulationCell"]
from mindspore.nn.wrap import ForwardValueAndGrad, WithGradCell  # noqa: E402
__all__ += ["ForwardValueAndGrad", "WithGradCell"]
