"""``mindspore.dataset.vision``: image transforms."""
from mindspore.dataset.vision.transforms import (HWC2CHW, Normalize, RandomCrop, RandomHorizontalFlip, Rescale, Resize,
                                                 SlicePatches)
from mindspore.dataset.vision.utils import Border, Inter, SliceMode

__all__ = ["HWC2CHW", "Normalize", "RandomCrop", "RandomHorizontalFlip", "Rescale", "Resize", "SlicePatches",
           "Border", "Inter", "SliceMode"]
