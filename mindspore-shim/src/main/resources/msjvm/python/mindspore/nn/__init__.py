"""``mindspore.nn``: networks (layers, losses and optimizers arrive with the compute core)."""
from mindspore.nn.cell import Cell

__all__ = ["Cell"]
from mindspore.nn.learning_rate_schedule import LearningRateSchedule, ExponentialDecayLR, NaturalExpDecayLR, InverseDecayLR, CosineDecayLR, PolynomialDecayLR, WarmUpLR  # noqa: E402
from mindspore.nn.dynamic_lr import piecewise_constant_lr, exponential_decay_lr, natural_exp_decay_lr, inverse_decay_lr, cosine_decay_lr, polynomial_decay_lr, warmup_lr  # noqa: E402
from mindspore.nn.optim import Optimizer, Momentum, SGD, Adam, AdamWeightDecay, Lamb  # noqa: E402
from mindspore.nn.wrap import WithLossCell, TrainOneStepCell, WithEvalCell  # noqa: E402
__all__ += ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR", "piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr", "Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "Lamb", "WithLossCell", "TrainOneStepCell", "WithEvalCell"]  # noqa: E501
