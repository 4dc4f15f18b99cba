"""``mindspore.nn``: cells, layers, losses, optimizers and training wrappers."""
from mindspore.nn.cell import Cell
from mindspore.nn.layer.activation import GELU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh, get_activation
from mindspore.nn.layer.basic import Dense, Dropout, Flatten, Identity
from mindspore.nn.layer.container import CellList, SequentialCell
from mindspore.nn.loss.loss import (BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, LossBase, MAELoss, MSELoss,
                                    NLLLoss, SoftmaxCrossEntropyWithLogits)

__all__ = ["Cell", "GELU", "LogSoftmax", "ReLU", "Sigmoid", "Softmax", "Tanh", "get_activation", "Dense",
           "Dropout", "Flatten", "Identity", "CellList", "SequentialCell", "BCEWithLogitsLoss",
           "CrossEntropyLoss", "L1Loss", "LossBase", "MAELoss", "MSELoss", "NLLLoss",
           "SoftmaxCrossEntropyWithLogits"]
# Layers: convolution, pooling, normalization, embedding.
from mindspore.nn.layer.conv import Conv2d  # noqa: E402
from mindspore.nn.layer.embedding import Embedding  # noqa: E402
from mindspore.nn.layer.normalization import BatchNorm1d, BatchNorm2d, LayerNorm  # noqa: E402
from mindspore.nn.layer.pooling import AvgPool2d, MaxPool2d  # noqa: E402

__all__ += ["Conv2d", "Embedding", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "AvgPool2d", "MaxPool2d"]
