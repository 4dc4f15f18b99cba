"""The deprecated ``mindspore.dataset.transforms.c_transforms`` path of the same transforms."""
from mindspore.dataset.transforms.transforms import Compose, OneHot, TypeCast

__all__ = ["Compose", "OneHot", "TypeCast"]
