"""``nn.MaxPool2d``, ``nn.AvgPool2d``, ``nn.AdaptiveAvgPool2d``, ``nn.MaxPool3d`` and ``nn.AvgPool3d`` as
MindSpore 2.10.

Signatures, defaults (``kernel_size=1, stride=1, pad_mode="valid"``) and checks follow MindSpore. The 2-D
layers run the MaxPool/AvgPool primitives ('valid'/'same' windows over NCHW, a 3-D input taken as one
batch); AvgPool2d's ``pad_mode='pad'`` path (explicit ``padding``, ``ceil_mode``, ``count_include_pad=False``,
``divisor_override``) runs AvgPool3D over a one-plane depth, as MindSpore does. The 3-D layers run MaxPool3D
and AvgPool3D (a 4-D input taken as one batch). MaxPool2d's ``pad_mode='pad'`` and MaxPool3d's ``dilation``
or ``return_indices`` go through MindSpore's MaxPool3DWithArgmax, which msjvm does not have: those settings
raise a ValueError naming the limitation.
"""
from mindspore import _checkparam as validator
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "MaxPool3d", "AvgPool3d"]


def _cal_padding(padding, cls_name, nd):
    """An average pooling's ``padding`` as AvgPool3D's six pads (MindSpore's checks and texts)."""
    validator.check_value_type('padding', padding, (int, tuple, list), cls_name)
    if isinstance(padding, int):
        return (0, 0) * (3 - nd) + (padding,) * nd * 2
    validator.check_non_negative_int_sequence(padding, "padding", cls_name)
    if len(padding) == nd:
        return (0, 0) * (3 - nd) + tuple(padding[i // 2] for i in range(nd * 2))
    if len(padding) == 1:
        return (0, 0) * (3 - nd) + tuple(padding * nd * 2)
    if nd == 1:
        raise ValueError(f"For {cls_name}, the padding must be a int or tuple/list contains one int, "
                         f"but got tuple/list with length:{len(padding)}.")
    raise ValueError(f"For {cls_name}, the padding must be a int or tuple/list contains 1 or {nd} int, "
                     f"but got tuple/list with length:{len(padding)}.")


def _check_maxpool_padding(padding, nd, cls_name):
    """A max pooling's ``padding`` as three pads (MindSpore's checks and texts)."""
    validator.check_value_type('padding', padding, (int, tuple, list), cls_name)
    if isinstance(padding, int):
        return (0,) * (3 - nd) + (padding,) * nd
    validator.check_non_negative_int_sequence(padding, "padding", cls_name)
    if len(padding) == 1:
        return (0,) * (3 - nd) + tuple(padding * nd)
    if len(padding) != nd:
        raise ValueError(f"For {cls_name}, the length of padding must equal to {nd}, but got {len(padding)}.")
    return (0,) * (3 - nd) + tuple(padding)


def _check_tuple_length(arg_name, arg_value, length, cls_name):
    if len(arg_value) != length:
        raise ValueError(f"For {cls_name}, the length of {arg_name} must be equal to {length}, "
                         f"but got {len(arg_value)}.")


def _depth_one(value, name, cls_name):
    """A 2-D window's ``kernel_size`` or ``stride`` as AvgPool3D's (1, h, w)."""
    if isinstance(value, tuple):
        _check_tuple_length(name, value, 2, cls_name)
        return (1,) + value
    return (1, value, value)


class _PoolNd(Cell):
    """Checks shared by the pooling layers."""

    def __init__(self, kernel_size, stride, pad_mode, data_format="NCHW"):
        super().__init__()
        validator.check_value_type('pad_mode', pad_mode, [str], self.cls_name)
        self.pad_mode = validator.check_string(pad_mode.upper(), ['VALID', 'SAME', 'PAD'], 'pad_mode', self.cls_name)
        self.format = validator.check_string(data_format, ['NCHW', 'NHWC'], 'format', self.cls_name)
        if self.format == "NHWC":
            raise ValueError(f"For '{self.cls_name}, the 'NHWC' format only support in GPU target, but got device "
                             f"target CPU.")

        def _check_int_or_tuple(arg_name, arg_value):
            validator.check_value_type(arg_name, arg_value, [int, tuple], self.cls_name)
            error_msg = (f"For '{self.cls_name}', the '{arg_name}' must be an positive int number or "
                         f"a tuple, but got {arg_value}")
            if isinstance(arg_value, int):
                if arg_value <= 0:
                    raise ValueError(error_msg)
            else:
                for item in arg_value:
                    if isinstance(item, int) and item > 0:
                        continue
                    raise ValueError(error_msg)
                if len(arg_value) == 1:
                    return arg_value[0]
            return arg_value

        self.kernel_size = _check_int_or_tuple('kernel_size', kernel_size)
        self.stride = _check_int_or_tuple('stride', stride)
        self.reshape = P.Reshape()

    def _unsupported(self, what):
        raise ValueError(f"For '{self.cls_name}', msjvm does not support {what} (MindSpore runs it with "
                         f"MaxPool3DWithArgmax, which msjvm does not have); use dilation 1 without "
                         f"return_indices (MaxPool3D).")

    def _pool(self, pool, x):
        if x.ndim != 3:
            return pool(x)
        out = pool(self.reshape(x, (1,) + tuple(x.shape)))
        return self.reshape(out, tuple(out.shape)[1:])

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_PoolNd):
    """2-D max pooling over NCHW (or CHW) input."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        self.return_indices = return_indices
        if pad_mode.upper() == 'PAD':
            self._unsupported("pad_mode 'pad'")
        if padding != 0 or dilation != 1 or return_indices or ceil_mode:
            raise ValueError(f"For MaxPool2d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                             f"can not be set to non-default value when pad_mode is not 'pad', "
                             f"but got pad_mode:{pad_mode}.")
        self.use_pad = False
        self.max_pool = P.MaxPool(kernel_size=self.kernel_size, strides=self.stride, pad_mode=self.pad_mode,
                                  data_format=self.format)

    def construct(self, x):
        return self._pool(self.max_pool, x)


class AvgPool2d(_PoolNd):
    """2-D average pooling over NCHW (or CHW) input."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        if pad_mode.upper() == 'PAD' or padding != 0 or ceil_mode or not count_include_pad \
                or divisor_override is not None:
            if self.format == "NHWC":
                raise ValueError(f"For '{self.cls_name}, the 'NHWC' format are not support when 'pad_mode' is 'pad' or "
                                 f"'padding' is not 0 or 'ceil_mode' is not False or 'count_include_pad' is not True"
                                 f"or divisor_override is not None, but got pade_mode:{pad_mode}, padding:{padding}, "
                                 f"ceil_mode:{ceil_mode}, count_include_pad:{count_include_pad}, "
                                 f"divisor_override:{divisor_override}.")
            self.is_expand = True
            if divisor_override is not None and divisor_override <= 0:
                raise ValueError(
                    f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got {divisor_override}.")
            divisor_override = 0 if divisor_override is None else divisor_override
            padding = _cal_padding(padding, self.cls_name, 2)
            self.avg_pool = P.AvgPool3D(kernel_size=_depth_one(self.kernel_size, 'kernel_size', self.cls_name),
                                        strides=_depth_one(self.stride, 'stride', self.cls_name),
                                        pad_mode=pad_mode, pad=padding, ceil_mode=ceil_mode,
                                        count_include_pad=count_include_pad, divisor_override=divisor_override)
        else:
            self.is_expand = False
            self.avg_pool = P.AvgPool(kernel_size=self.kernel_size, strides=self.stride, pad_mode=self.pad_mode,
                                      data_format=self.format)
        self.expand_dims = P.ExpandDims()

    def construct(self, x):
        if not self.is_expand:
            return self._pool(self.avg_pool, x)
        batched = x.ndim != 3
        if not batched:
            x = self.expand_dims(x, 0)
        out = self.avg_pool(self.expand_dims(x, 2))
        out = P.Squeeze(2)(out)
        return out if batched else P.Squeeze(0)(out)


class AdaptiveAvgPool2d(Cell):
    """2-D adaptive average pooling of NCHW or CHW input to ``output_size`` (int, (h, w), None entries)."""

    def __init__(self, output_size):
        super().__init__()
        self.adaptive_avgpool2d = P.AdaptiveAvgPool2D(output_size)

    def construct(self, input):  # pylint: disable=redefined-builtin
        return self.adaptive_avgpool2d(input)


class MaxPool3d(_PoolNd):
    """3-D max pooling over NCDHW (or CDHW) input."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        self.return_indices = return_indices
        padding = _check_maxpool_padding(padding, 3, self.cls_name)
        validator._check_3d_int_or_tuple("padding", padding, self.cls_name, greater_zero=False, ret_five=False)
        if dilation != 1 or return_indices:
            if pad_mode.upper() != "PAD":
                raise ValueError(f"For {self.cls_name}, the pad_mode must be 'pad' when dilation is not 1 "
                                 f"or return_indices is True, but got pad_mode:{pad_mode}.")
            self._unsupported(f"dilation:{dilation}, return_indices:{return_indices} (MaxPool3DWithArgmax)")
        ceil_mode = None if not ceil_mode else True
        self.max_pool = P.MaxPool3D(kernel_size=kernel_size, strides=stride, pad_mode=pad_mode, pad_list=padding,
                                    ceil_mode=ceil_mode)
        self.expand_dims = P.ExpandDims()

    def construct(self, x):
        if x.ndim != 4:
            return self.max_pool(x)
        return P.Squeeze(0)(self.max_pool(self.expand_dims(x, 0)))


class AvgPool3d(_PoolNd):
    """3-D average pooling over NCDHW (or CDHW) input."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode)
        padding = _cal_padding(padding, self.cls_name, 3)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        divisor_override = 0 if divisor_override is None else divisor_override
        self.avg_pool = P.AvgPool3D(self.kernel_size, self.stride, pad_mode, padding, ceil_mode, count_include_pad,
                                    divisor_override)
        self.expand_dims = P.ExpandDims()

    def construct(self, x):
        if x.ndim != 4:
            return self.avg_pool(x)
        return P.Squeeze(0)(self.avg_pool(self.expand_dims(x, 0)))
