"""``mindspore.dataset.vision.utils``: enums of the vision transforms."""
from enum import IntEnum

__all__ = ["Inter"]


class Inter(IntEnum):
    """Interpolation methods (values as MindSpore 2.10)."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5
