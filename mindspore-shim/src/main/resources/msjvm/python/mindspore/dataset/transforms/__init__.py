"""``mindspore.dataset.transforms``: general data transforms."""
from mindspore.dataset.transforms.transforms import Compose, OneHot, TypeCast

__all__ = ["Compose", "OneHot", "TypeCast"]
