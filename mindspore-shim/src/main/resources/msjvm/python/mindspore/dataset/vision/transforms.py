"""``mindspore.dataset.vision``: Rescale, Normalize, HWC2CHW, Resize, RandomCrop,
RandomHorizontalFlip and SlicePatches, run in Java.

Arguments are checked as in MindSpore 2.10 (mindspore/dataset/vision/validators.py). Resize
implements bilinear interpolation only (MindSpore's default ``Inter.LINEAR``). The random transforms
draw from a generator seeded from the dataset seed (``ds.config.set_seed``): the same seed gives the
same crops and flips, but not MindSpore's.
"""
import numbers

from mindspore.dataset.core.validator_helpers import (FLOAT_MAX_INTEGER, INT32_MAX, check_value,
                                                      type_check)
from mindspore.dataset.transforms.transforms import BuiltinTransform
from mindspore.dataset.vision.utils import Border, Inter, SliceMode

__all__ = ["Rescale", "Normalize", "HWC2CHW", "Resize", "RandomCrop", "RandomHorizontalFlip", "SlicePatches"]


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


def _check_uint8(value, arg_name):
    type_check(value, (int,), arg_name)
    check_value(value, [0, 255], arg_name)


def _check_crop_size(size):
    """mindspore/dataset/vision/validators.py check_crop_size."""
    type_check(size, (int, list, tuple), "size")
    if isinstance(size, int):
        check_value(size, (1, FLOAT_MAX_INTEGER))
    elif isinstance(size, (tuple, list)) and len(size) == 2:
        for index, value in enumerate(size):
            type_check(value, (int,), f"size[{index}]")
            check_value(value, (1, FLOAT_MAX_INTEGER))
    else:
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")


def _check_padding(padding):
    """mindspore/dataset/vision/validators.py check_padding."""
    type_check(padding, (tuple, list, numbers.Number), "padding")
    if isinstance(padding, numbers.Number):
        type_check(padding, (int,), "padding")
        check_value(padding, (0, INT32_MAX), "padding")
    if isinstance(padding, (tuple, list)):
        if len(padding) not in (2, 4):
            raise ValueError("The size of the padding list or tuple should be 2 or 4.")
        for i, pad_value in enumerate(padding):
            type_check(pad_value, (int,), f"padding[{i}]")
            check_value(pad_value, (0, INT32_MAX), "pad_value")


def _check_fill_value(fill_value):
    if isinstance(fill_value, int):
        _check_uint8(fill_value, "fill_value")
    elif isinstance(fill_value, tuple) and len(fill_value) == 3:
        for i, value in enumerate(fill_value):
            _check_uint8(value, f"fill_value[{i}]")
    else:
        raise TypeError("fill_value should be a single integer or a 3-tuple.")


def _parse_padding(padding):
    """(left, top, right, bottom), as mindspore/dataset/vision/utils.py parse_padding."""
    if isinstance(padding, numbers.Number):
        padding = [padding] * 4
    if len(padding) == 2:
        padding = (padding[0], padding[1], padding[0], padding[1])
    return tuple(padding)


class RandomCrop(BuiltinTransform):
    """Crops a random ``size`` window of the image after optional padding."""

    _name = "RandomCrop"

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        _check_crop_size(size)
        type_check(pad_if_needed, (bool,), "pad_if_needed")
        if padding is not None:
            _check_padding(padding)
        if fill_value is not None:
            _check_fill_value(fill_value)
        if padding_mode is not None:
            type_check(padding_mode, (Border,), "padding_mode")
        if isinstance(size, int):
            size = (size, size)
        padding = (0, 0, 0, 0) if padding is None else _parse_padding(padding)
        if isinstance(fill_value, int):
            fill_value = tuple([fill_value] * 3)
        self.size, self.padding, self.pad_if_needed = size, padding, pad_if_needed
        self.fill_value, self.padding_mode = fill_value, padding_mode
        left, top, right, bottom = padding
        self._make(size[0], size[1], [top, bottom, left, right], pad_if_needed, list(fill_value),
                   padding_mode.value)


class RandomHorizontalFlip(BuiltinTransform):
    """Mirrors the image left to right with probability ``prob``."""

    _name = "RandomHorizontalFlip"

    def __init__(self, prob=0.5):
        type_check(prob, (float, int,), "prob")
        check_value(prob, [0., 1.], "prob")
        self.prob = prob
        self._make(float(prob))


class SlicePatches(BuiltinTransform):
    """Slices an <H, W, ...> tensor into ``num_height * num_width`` patches, one output column each."""

    _name = "SlicePatches"

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        if num_height is not None:
            type_check(num_height, (int,), "num_height")
            check_value(num_height, (1, INT32_MAX), "num_height")
        if num_width is not None:
            type_check(num_width, (int,), "num_width")
            check_value(num_width, (1, INT32_MAX), "num_width")
        if slice_mode is not None:
            type_check(slice_mode, (SliceMode,), "slice_mode")
        if fill_value is not None:
            type_check(fill_value, (int,), "fill_value")
            check_value(fill_value, [0, 255], "fill_value")
        self.num_height, self.num_width, self.slice_mode, self.fill_value = num_height, num_width, slice_mode, fill_value
        self._make(num_height, num_width, slice_mode == SliceMode.PAD, fill_value)
