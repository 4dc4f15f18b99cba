"""``mindspore.nn.optim``: optimizers updating Parameters with fused engine operators."""
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.nn.optim.momentum import Momentum
from mindspore.nn.optim.sgd import SGD
from mindspore.nn.optim.adam import Adam, AdamWeightDecay
from mindspore.nn.optim.lamb import Lamb

__all__ = ["Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "Lamb"]
