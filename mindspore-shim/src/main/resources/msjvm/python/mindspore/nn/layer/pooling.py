"""``nn.MaxPool2d``, ``nn.AvgPool2d`` and ``nn.AdaptiveAvgPool2d`` as MindSpore 2.10.

Signatures, defaults (``kernel_size=1, stride=1, pad_mode="valid"``) and checks follow MindSpore; both
run the MaxPool/AvgPool primitives ('valid'/'same' windows over NCHW, a 3-D input taken as one batch).
MindSpore's ``pad_mode='pad'`` path (explicit ``padding``, ``dilation``, ``ceil_mode``,
``return_indices``, ``count_include_pad=False``, ``divisor_override``) goes through 3-D pooling kernels
msjvm does not have: those settings raise a ValueError naming the limitation.
"""
from mindspore import _checkparam as validator
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]


def _padding_3d(padding):
    """A 2-D pooling ``padding`` as MindSpore's 3-D form ``(0, 0, h, h, w, w)`` (None if malformed)."""
    if isinstance(padding, int) and not isinstance(padding, bool):
        return (0, 0) + (padding,) * 4
    if isinstance(padding, (tuple, list)) and all(isinstance(p, int) for p in padding):
        if len(padding) == 2:
            return (0, 0) + tuple(padding[i // 2] for i in range(4))
        if len(padding) == 1:
            return (0, 0) + tuple(padding) * 4
    return None


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
        raise ValueError(f"For '{self.cls_name}', msjvm does not support {what} (MindSpore runs it with 3-D "
                         f"pooling kernels msjvm does not have); use pad_mode 'valid' or 'same' with the "
                         f"default padding.")

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
            if divisor_override is not None and divisor_override <= 0:
                raise ValueError(
                    f"For '{self.cls_name}', the 'divisor_override' must be > 0, but got {divisor_override}.")
            pads = _padding_3d(padding)
            if pad_mode.upper() != 'PAD' and pads is not None and any(pads):
                raise ValueError(f"For 'AvgPool3D', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' "
                                 f"is not \"PAD\", but got 'pad' is {pads} and 'pad_mode' is {pad_mode}.")
            self._unsupported(f"pad_mode:{pad_mode}, padding:{padding}, ceil_mode:{ceil_mode}, "
                              f"count_include_pad:{count_include_pad}, divisor_override:{divisor_override}")
        self.is_expand = False
        self.avg_pool = P.AvgPool(kernel_size=self.kernel_size, strides=self.stride, pad_mode=self.pad_mode,
                                  data_format=self.format)

    def construct(self, x):
        return self._pool(self.avg_pool, x)


class AdaptiveAvgPool2d(Cell):
    """2-D adaptive average pooling of NCHW or CHW input to ``output_size`` (int, (h, w), None entries)."""

    def __init__(self, output_size):
        super().__init__()
        self.adaptive_avgpool2d = P.AdaptiveAvgPool2D(output_size)

    def construct(self, input):  # pylint: disable=redefined-builtin
        return self.adaptive_avgpool2d(input)
