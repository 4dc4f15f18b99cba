"""``nn.Conv2d`` as MindSpore 2.10.

Keeps MindSpore's signature, defaults and checks: weight ``[out_channels, in_channels // group, kh, kw]``
initialized with ``HeUniform(sqrt(5))``, bias (``has_bias=True``) ``Uniform(1 / sqrt(fan_in))``, computed
as ``BiasAdd(Conv2D(x, weight), bias)``; grouped convolutions (``group > 1``) included, in NCHW.
"""
import math
from itertools import repeat

from mindspore import _checkparam as Validator
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Uniform, _calculate_fan_in_and_fan_out, initializer
from mindspore.common.parameter import Parameter
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["Conv2d"]


def _twice(m):
    """An int as ``(m, m)``; a tuple must have two ints (MindSpore's ``_checkparam.twice``)."""
    if not isinstance(m, tuple):
        if isinstance(m, int) and not isinstance(m, bool):
            return tuple(repeat(m, 2))
        raise TypeError(f"When expanding an int number to tuple, input type must be integer or tuple[int], "
                        f"but got {type(m)}")
    if len(m) != 2:
        raise TypeError(f"When expanding an int number to tuple, input tuple dimension must be 2, but got {m}")
    for i in m:
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError(f"When expanding an int number to tuple, "
                            f"the type of element in input tuple must be an integer, but got {type(i)}.")
    return m


class _Conv(Cell):
    """Checks and parameters shared by convolutions."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                 has_bias, weight_init, bias_init, data_format='NCHW', dtype=mstype.float32):
        super().__init__()
        self.in_channels = Validator.check_positive_int(in_channels, 'in_channels', self.cls_name)
        self.out_channels = Validator.check_positive_int(out_channels, 'out_channels', self.cls_name)
        self.kernel_size = kernel_size
        self.stride = stride
        self.pad_mode = pad_mode
        self.data_format = Validator.check_string(data_format, ['NCHW', 'NHWC', 'NCDHW'], 'format', self.cls_name)
        if self.data_format == "NHWC":
            raise ValueError(f"For '{self.cls_name}', the \"NHWC\" format only support in GPU target, "
                             f"but got the 'format' is {self.data_format} and the platform is CPU.")
        if isinstance(padding, int) and not isinstance(padding, bool):
            Validator.check_non_negative_int(padding, 'padding', self.cls_name)
        elif isinstance(padding, tuple):
            for pad in padding:
                Validator.check_non_negative_int(pad, 'padding item', self.cls_name)
        else:
            raise TypeError(f"For '{self.cls_name}', the type of 'padding' must be int or tuple(int), "
                            f"but got {type(padding).__name__}.")
        self.padding = padding
        self.dilation = dilation
        self.group = Validator.check_positive_int(group)
        self.has_bias = has_bias
        for elem in kernel_size:
            Validator.check_positive_int(elem, 'kernel_size item', self.cls_name)
        for elem in stride:
            Validator.check_positive_int(elem, 'stride item', self.cls_name)
        for elem in dilation:
            Validator.check_positive_int(elem, 'dilation item', self.cls_name)
        if in_channels % group != 0:
            raise ValueError(f"For '{self.cls_name}', the attr 'in_channels' must be divisible by attr 'group', "
                             f"but got 'in_channels': {in_channels} and 'group': {group}.")
        if out_channels % group != 0:
            raise ValueError(f"For '{self.cls_name}', the 'out_channels' must be divisible by attr 'group', "
                             f"but got 'out_channels': {out_channels} and 'group': {group}.")
        shape = [out_channels, in_channels // group, *kernel_size]
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = Parameter(initializer(self.weight_init, shape, dtype=dtype), name='weight')
        self.bias_init = bias_init
        if Validator.check_bool(has_bias, "has_bias", self.cls_name):
            if bias_init is None:
                fan_in, _ = _calculate_fan_in_and_fan_out(shape)
                bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in != 0 else 'zeros'
                self.bias_init = bias_init
            self.bias = Parameter(initializer(self.bias_init, [out_channels], dtype=dtype), name='bias')
        else:
            self.bias = None

    def construct(self, *inputs):
        raise NotImplementedError

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, format={self.data_format}")


class Conv2d(_Conv):
    """2-D convolution over an NCHW input: ``BiasAdd(Conv2D(x, weight), bias)``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode='same', padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format='NCHW',
                 dtype=mstype.float32):
        kernel_size = _twice(kernel_size)
        stride = _twice(stride)
        _dilation = dilation
        dilation = _twice(dilation)
        Validator.check_positive_int(group, 'group', type(self).__name__)
        if not (in_channels % group == 0 and out_channels % group == 0):
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' "
                             f"and 'out_channels', but got group:{group}, in_channels:{in_channels}, "
                             f"out_channels:{out_channels}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group,
                         has_bias, weight_init, bias_init, data_format, dtype=dtype)
        self._dilation = _dilation
        if group != 1:
            raise ValueError(f"For '{self.cls_name}', msjvm supports only group=1 (grouped and depthwise "
                             f"convolutions are not implemented), but got group: {group}.")
        self.conv2d = P.Conv2D(out_channel=self.out_channels, kernel_size=self.kernel_size, mode=1,
                               pad_mode=self.pad_mode, pad=self.padding, stride=self.stride,
                               dilation=self.dilation, group=self.group, data_format=self.data_format)
        self.bias_add = P.BiasAdd(data_format=self.data_format)

    def construct(self, x):
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output
