"""``mindspore.nn``: networks (layers, losses and optimizers arrive with the compute core)."""
from mindspore.nn.cell import Cell

__all__ = ["Cell"]
