"""``mindspore.dataset.vision.utils``: enums of the vision transforms."""
from enum import Enum, IntEnum

__all__ = ["Inter", "Border", "SliceMode"]


class Inter(IntEnum):
    """Interpolation methods (values as MindSpore 2.10)."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """Padding modes (values as MindSpore 2.10)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class SliceMode(IntEnum):
    """How SlicePatches treats a size the grid does not divide (values as MindSpore 2.10)."""

    PAD = 0
    DROP = 1
