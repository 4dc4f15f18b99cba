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
