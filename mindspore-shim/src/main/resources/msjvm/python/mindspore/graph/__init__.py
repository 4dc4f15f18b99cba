"""``mindspore.graph``: the symbolic-shape helpers (``Symbol``)."""
from mindspore.graph.symbol import Symbol

__all__ = ["Symbol"]
