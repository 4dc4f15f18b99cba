"""``mindspore.dataset.vision``: Rescale, Normalize, HWC2CHW and Resize, run in Java.

Arguments are checked as in MindSpore 2.10 (mindspore/dataset/vision/validators.py). Resize
implements bilinear interpolation only (MindSpore's default ``Inter.LINEAR``).
"""
import numbers

from mindspore.dataset.core.validator_helpers import (FLOAT_MAX_INTEGER, INT32_MAX, check_value,
                                                      type_check)
from mindspore.dataset.transforms.transforms import BuiltinTransform
from mindspore.dataset.vision.utils import Inter

__all__ = ["Rescale", "Normalize", "HWC2CHW", "Resize"]


class Rescale(BuiltinTransform):
    """``image * rescale + shift`` as float32."""

    _name = "Rescale"

    def __init__(self, rescale, shift):
        type_check(rescale, (numbers.Number,), "rescale")
        type_check(shift, (numbers.Number,), "shift")
        self.rescale, self.shift = rescale, shift
        self._make(float(rescale), float(shift))


class Normalize(BuiltinTransform):
    """``(image - mean) / std`` per channel, as float32."""

    _name = "Normalize"

    def __init__(self, mean, std, is_hwc=True):
        type_check(mean, (list, tuple), "mean")
        type_check(std, (list, tuple), "std")
        if len(mean) != len(std):
            raise ValueError("Length of mean and std must be equal.")
        for i, value in enumerate(mean):
            type_check(value, (int, float), f"mean[{i}]")
            check_value(value, [0, 255], f"mean[{i}]")
        for j, value in enumerate(std):
            type_check(value, (int, float), f"std[{j}]")
            check_value(value, [0, 255], f"std[{j}]", left_open=True)
        type_check(is_hwc, (bool,), "is_hwc")
        self.mean, self.std, self.is_hwc = mean, std, is_hwc
        self._make([float(m) for m in mean], [float(s) for s in std], is_hwc)


class HWC2CHW(BuiltinTransform):
    """Transposes an image from <H, W, C> to <C, H, W>."""

    _name = "HWC2CHW"

    def __init__(self):
        self._make()


class Resize(BuiltinTransform):
    """Resizes an image to ``size`` (h, w), or its shorter side to ``size`` keeping the aspect ratio."""

    _name = "Resize"

    def __init__(self, size, interpolation=Inter.LINEAR):
        if isinstance(size, int) and not isinstance(size, bool):
            check_value(size, (1, FLOAT_MAX_INTEGER))
            height, width = size, -1
        elif isinstance(size, (tuple, list)) and len(size) == 2:
            for i, value in enumerate(size):
                type_check(value, (int,), f"size at dim {i}")
                check_value(value, (1, INT32_MAX), f"size at dim {i}")
            height, width = size
        else:
            raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
        type_check(interpolation, (Inter,), "interpolation")
        if interpolation not in (Inter.LINEAR, Inter.BILINEAR):
            raise NotImplementedError(f"Resize with {interpolation} is not supported by msjvm; use Inter.LINEAR.")
        self.size, self.interpolation = size, interpolation
        self._make(height, width)
