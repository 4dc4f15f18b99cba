"""``mindspore.dataset.vision``: image transforms."""
from mindspore.dataset.vision.transforms import HWC2CHW, Normalize, Rescale, Resize
from mindspore.dataset.vision.utils import Inter

__all__ = ["HWC2CHW", "Normalize", "Rescale", "Resize", "Inter"]
