"""``mindspore.nn.loss``: the loss cells (``mindspore.nn.loss.loss``)."""
from mindspore.nn.loss.loss import (  # noqa: F401
    LossBase, MAELoss, MSELoss, L1Loss, SoftmaxCrossEntropyWithLogits, NLLLoss, CrossEntropyLoss, BCEWithLogitsLoss, _Loss)

__all__ = ['LossBase', 'MAELoss', 'MSELoss', 'L1Loss', 'SoftmaxCrossEntropyWithLogits', 'NLLLoss', 'CrossEntropyLoss', 'BCEWithLogitsLoss']
