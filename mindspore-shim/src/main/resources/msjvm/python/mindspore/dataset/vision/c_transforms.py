"""The deprecated ``mindspore.dataset.vision.c_transforms`` path of the same transforms."""
from mindspore.dataset.vision.transforms import HWC2CHW, Normalize, Rescale, Resize
from mindspore.dataset.vision.utils import Inter

__all__ = ["HWC2CHW", "Normalize", "Rescale", "Resize", "Inter"]
