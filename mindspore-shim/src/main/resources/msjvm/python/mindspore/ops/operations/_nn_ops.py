"""Neural-network, indexing and state primitives run by the engine's operator table.

Constructor arguments, stored attributes and checks follow MindSpore 2.10's
``mindspore/ops/operations/nn_ops.py`` and ``array_ops.py`` (e.g. ``Conv2D`` keeps ``stride`` as
``(1, 1, h, w)`` and ``MaxPool`` keeps ``kernel_size`` as ``(1, 1, h, w)`` with an upper-case
``pad_mode``). Arguments MindSpore passes at call time (``Tile``'s multiples, ``StridedSlice``'s
begin/end/strides, ``Gather``'s axis, ``OneHot``'s depth) become engine attributes of that call.
"""
from mindspore.ops.primitive import Primitive


def _tensor_cls():
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor


def _type_name(value):
    if isinstance(value, _tensor_cls()):
        return "Tensor"
    return "string" if isinstance(value, str) else type(value).__name__


def _check_tensors(prim, names, values):
    tensor = _tensor_cls()
    for name, value in zip(names, values):
        if not isinstance(value, tensor):
            raise TypeError(f"For '{prim}', the input '{name}' must be a Tensor, but got {_type_name(value)}.")


def _pair(prim, arg_name, value, allow_four=True):
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError(f"For '{prim}', the type of '{arg_name}' must be one of ['int', 'tuple'], "
                        f"but got {type(value).__name__}.")
    if isinstance(value, int):
        value = (value, value)
    elif len(value) == 4 and allow_four:
        value = (value[2], value[3])
    elif len(value) == 1:
        value = (value[0], value[0])
    if len(value) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in value):
        raise ValueError(f"For '{prim}', the '{arg_name}' must be a positive int or a tuple of two or four "
                         f"positive ints, but got {value}.")
    return value


def _four(prim, arg_name, value):
    """``value`` checked by ``_pair`` as (1, 1, h, w), or the four-element tuple as given."""
    pair = _pair(prim, arg_name, value)
    return tuple(value) if isinstance(value, tuple) and len(value) == 4 else (1, 1) + pair


class BiasAdd(Primitive):
    """``x + bias`` along the channel dimension (dimension 1)."""

    def __init__(self, data_format="NCHW"):
        super().__init__("BiasAdd")
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For 'BiasAdd', the 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', "
                             f"but got '{data_format}'.")
        if data_format != "NCHW":
            raise ValueError(f"For 'BiasAdd', msjvm supports only data_format 'NCHW', but got '{data_format}'.")
        self.add_prim_attr("data_format", data_format)

    def __call__(self, input_x, bias):
        _check_tensors("BiasAdd", ("input_x", "bias"), (input_x, bias))
        return self._run_engine(input_x, bias)


class BatchMatMul(Primitive):
    """Matrix product over the last two dimensions, batch dimensions broadcast."""

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__("BatchMatMul")
        for name, value in (("transpose_a", transpose_a), ("transpose_b", transpose_b)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'BatchMatMul', the type of '{name}' must be bool, "
                                f"but got {type(value).__name__}.")
        self.add_prim_attr("transpose_a", transpose_a)
        self.add_prim_attr("transpose_b", transpose_b)

    def __call__(self, x, y):
        _check_tensors("BatchMatMul", ("x", "y"), (x, y))
        return self._run_engine(x, y)


class GeLU(Primitive):
    """Gaussian error linear unit (tanh approximation, as MindSpore's kernel)."""

    def __init__(self):
        super().__init__("GeLU")

    def __call__(self, x):
        _check_tensors("GeLU", ("x",), (x,))
        return self._run_engine(x)


class Conv2D(Primitive):
    """2-D convolution over NCHW input with an ``[out, in, kh, kw]`` weight."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, data_format="NCHW"):
        super().__init__("Conv2D")
        self.add_prim_attr("kernel_size", _pair("Conv2D", "kernel_size", kernel_size, allow_four=False))
        # A four-element stride or dilation is kept as given (MindSpore's ret_four): the parallel
        # checks read its first two elements; the kernel its last two.
        self.add_prim_attr("stride", _four("Conv2D", "stride", stride))
        self.add_prim_attr("dilation", _four("Conv2D", "dilation", dilation))
        if not isinstance(pad_mode, str) or pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For 'Conv2D', the 'pad_mode' must be one of ['valid', 'same', 'pad'], "
                             f"but got '{pad_mode}'.")
        if isinstance(pad, int) and not isinstance(pad, bool):
            pad = (pad,) * 4
        if not isinstance(pad, tuple) or len(pad) != 4 or any(not isinstance(p, int) or p < 0 for p in pad):
            raise ValueError(f"For 'Conv2D', the 'pad' must be a non-negative int or a tuple of four "
                             f"non-negative ints, but got {pad}.")
        if pad_mode.lower() != "pad" and pad != (0, 0, 0, 0):
            raise ValueError(f"For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', "
                             f"but got 'pad': {pad[0]} and 'pad_mode': {pad_mode}.")
        self.add_prim_attr("pad", pad)
        self.add_prim_attr("pad_mode", pad_mode.lower())
        self.add_prim_attr("mode", mode)
        self.add_prim_attr("out_channel", out_channel)
        self.add_prim_attr("group", group)
        self.add_prim_attr("data_format", data_format)

    def __call__(self, x, weight):
        _check_tensors("Conv2D", ("x", "w"), (x, weight))
        return self._run_engine(x, weight)


class _Pool(Primitive):
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        name = type(self).__name__
        super().__init__(name)
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{name}', the 'pad_mode' must be one of ['VALID', 'SAME'], but got '{pad_mode}'.")
        self.add_prim_attr("kernel_size", (1, 1) + _pair(name, "kernel_size", kernel_size))
        self.add_prim_attr("strides", (1, 1) + _pair(name, "strides", strides))
        self.add_prim_attr("pad_mode", pad_mode.upper())
        self.add_prim_attr("data_format", data_format)

    def __call__(self, x):
        _check_tensors(self.name, ("x",), (x,))
        if x.ndim != 4:
            raise ValueError(f"For '{self.name}', the dimension of 'x' must be 4, but got {x.ndim}.")
        return self._run_engine(x)


class MaxPool(_Pool):
    """Max pooling over NCHW windows."""


class AvgPool(_Pool):
    """Average pooling over NCHW windows."""


class Conv3D(Primitive):
    """3-D convolution over NCDHW input with an ``[out, in / group, kd, kh, kw]`` weight; attributes as
    MindSpore's (``strides``/``dilations`` as (1, 1, d, h, w), ``pad`` six ints, ``groups``)."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, data_format="NCDHW"):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        from mindspore import context  # pylint: disable=import-outside-toplevel
        super().__init__("Conv3D")
        name = self.name
        self.kernel_size = validator._check_3d_int_or_tuple("kernel_size", kernel_size, name)
        self.add_prim_attr("kernel_size", self.kernel_size)
        self.stride = validator._check_3d_int_or_tuple("stride", stride, name, allow_five=False, ret_five=True)
        self.add_prim_attr("strides", self.stride)
        ascend = context.get_context("device_target").lower() == "ascend"
        self.dilation = validator._check_3d_int_or_tuple("dilation", dilation, name, allow_five=False,
                                                         ret_five=True, third_one=ascend)
        self.add_prim_attr("dilations", self.dilation)
        validator.check_value_type("pad", pad, (int, tuple), name)
        if isinstance(pad, int):
            pad = (pad,) * 6
        if len(pad) != 6:
            raise ValueError(f"For '{name}', attr 'pad' must be an positive int number or a tuple of "
                             f"six positive int numbers, but got {pad}.")
        validator.check_value_type("pad_mode", pad_mode, [str], name)
        self.pad_mode = validator.check_string(pad_mode.lower(), ["valid", "same", "pad"], "pad_mode", name)
        self.add_prim_attr("pad_mode", self.pad_mode)
        if self.pad_mode != "pad" and pad != (0, 0, 0, 0, 0, 0):
            raise ValueError(f"For '{name}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' "
                             f"is not \"pad\", but got 'pad' is {pad} and 'pad_mode' is {pad_mode}.")
        self.add_prim_attr("pad", pad)
        self.padding = pad
        if self.pad_mode == "pad":
            for item in pad:
                validator.check_non_negative_int(item, "pad item", name)
        self.mode = validator.check_int(mode, 1, validator.EQ, "mode", name)
        self.add_prim_attr("mode", self.mode)
        self.format = validator.check_string(data_format, ["NCDHW"], "data_format", name)
        self.add_prim_attr("data_format", self.format)
        self.out_channel = validator.check_positive_int(out_channel, "out_channel", name)
        self.add_prim_attr("out_channel", self.out_channel)
        validator.check_value_type("group", group, (int,), name)
        validator.check_int_range(group, 1, out_channel, validator.INC_BOTH, "group", name)
        if self.out_channel % group != 0:
            raise ValueError("The argument 'group' should be divisible by 'out_channel'")
        if ascend and group != 1:
            raise ValueError("On Ascend platform, group = 1 must be satisfied.")
        self.group = group
        self.add_prim_attr("groups", self.group)
        self.add_prim_attr("offset_x", 0)

    def __call__(self, x, w):
        _check_tensors("Conv3D", ("x", "w"), (x, w))
        return self._run_engine(x, w)


class MaxPool3D(Primitive):
    """Max pooling over NCDHW windows; ``kernel_size``/``strides`` kept as (1, 1, d, h, w), ``pad_mode``
    upper-case ("PAD" stored as "CALCULATED"), ``pad_list`` six ints, ``ceil_mode`` 0 or 1."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                 data_format="NCDHW"):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        super().__init__("MaxPool3D")
        name = self.name
        validator.check_value_type("kernel_size", kernel_size, [int, tuple], name)
        validator.check_value_type("strides", strides, [int, tuple], name)
        validator.check_value_type("pad_mode", pad_mode, [str], name)
        self.pad_mode = validator.check_string(pad_mode.upper(), ["VALID", "SAME", "PAD"], "pad_mode", name)
        if pad_mode.upper() == "PAD":
            self.pad_mode = "CALCULATED"
        self.add_prim_attr("pad_mode", self.pad_mode)
        self.data_format = validator.check_string(data_format, ["NCDHW"], "data_format", name)
        self.kernel_size = validator._check_3d_int_or_tuple("kernel_size", kernel_size, name, ret_five=True)
        self.add_prim_attr("kernel_size", self.kernel_size)
        self.strides = validator._check_3d_int_or_tuple("strides", strides, name, ret_five=True)
        self.add_prim_attr("strides", self.strides)
        if ceil_mode is None:
            self.ceil_mode = False
        else:
            self.ceil_mode = validator.check_value_type("ceil_mode", ceil_mode, [bool], name)
            if self.pad_mode != "CALCULATED":
                raise ValueError("When the 'pad_mode' is 'same' or 'valid', the 'ceil_mode' only supports 'None'.")
        self.add_prim_attr("ceil_mode", int(self.ceil_mode))
        validator.check_value_type("pad_list", pad_list, (int, tuple), name)
        self.pad_list = pad_list
        if isinstance(self.pad_list, int):
            self.pad_list = (self.pad_list,) * 6
        if len(self.pad_list) == 3:
            self.pad_list = (pad_list[0], pad_list[0], pad_list[1], pad_list[1], pad_list[2], pad_list[2])
        if len(self.pad_list) != 3 and len(self.pad_list) != 6:
            raise ValueError(f"For '{name}', attr 'pad_list' must be an positive int number or a tuple of "
                             f"three or six positive int numbers, but got {len(self.pad_list)} numbers.")
        if self.pad_mode != "CALCULATED" and self.pad_list != (0, 0, 0, 0, 0, 0):
            raise ValueError(f"For '{name}', the 'pad_list' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' "
                             f"is not \"pad\", but got 'pad_list' is {pad_list} and 'pad_mode' is {pad_mode}.")
        if self.pad_mode == "CALCULATED":
            for item in self.pad_list:
                validator.check_non_negative_int(item, "pad_list item", name)
        self.add_prim_attr("pad_list", self.pad_list)

    def __call__(self, x):
        _check_tensors("MaxPool3D", ("x",), (x,))
        return self._run_engine(x)


class AvgPool3D(Primitive):
    """Average pooling over NCDHW windows; ``kernel_size``/``strides`` kept as (1, 1, d, h, w),
    ``pad_mode`` upper-case, ``pad_list`` six ints, ``ceil_mode``/``count_include_pad`` bools and
    ``divisor_override`` (0: none), as MindSpore 2.10 stores them."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=0, data_format="NCDHW"):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        super().__init__("AvgPool3D")
        name = self.name
        self.kernel_size = validator._check_3d_int_or_tuple("kernel_size", kernel_size, name, ret_five=True)
        self.add_prim_attr("kernel_size", self.kernel_size)
        self.strides = validator._check_3d_int_or_tuple("strides", strides, name, ret_five=True)
        self.add_prim_attr("strides", self.strides)
        validator.check_value_type("pad", pad, (int, tuple, list), name)
        self.pad = pad  # the argument as given, as MindSpore's messages show it
        if isinstance(pad, int):
            pad = (pad,) * 6
        if len(pad) != 6:
            raise ValueError(f"For '{name}', attr 'pad' must be an positive int number or a tuple of "
                             f"six positive int numbers, but got {self.pad}.")
        self.pad_list = pad
        self.add_prim_attr("pad_list", self.pad_list)
        validator.check_value_type("pad_mode", pad_mode, [str], name)
        self.pad_mode = validator.check_string(pad_mode.upper(), ["VALID", "SAME", "PAD"], "pad_mode", name)
        self.add_prim_attr("pad_mode", self.pad_mode)
        if self.pad_mode != "PAD" and pad != (0, 0, 0, 0, 0, 0):
            raise ValueError(f"For '{name}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when 'pad_mode' "
                             f"is not \"PAD\", but got 'pad' is {self.pad} and 'pad_mode' is {pad_mode}.")
        if self.pad_mode == "PAD":
            for item in pad:
                validator.check_non_negative_int(item, "pad or item of pad", name)
        self.ceil_mode = validator.check_value_type("ceil_mode", ceil_mode, bool, name)
        self.add_prim_attr("ceil_mode", self.ceil_mode)
        self.count_include_pad = validator.check_value_type("count_include_pad", count_include_pad, bool, name)
        self.add_prim_attr("count_include_pad", self.count_include_pad)
        self.divisor_override = validator.check_non_negative_int(divisor_override, "divisor_override", name)
        self.add_prim_attr("divisor_override", self.divisor_override)
        self.format = validator.check_string(data_format, ["NCDHW"], "format", name)
        self.add_prim_attr("format", self.format)

    def __call__(self, x):
        _check_tensors("AvgPool3D", ("x",), (x,))
        return self._run_engine(x)


class AdaptiveAvgPool2D(Primitive):
    """Adaptive average pooling of NCHW or CHW input to ``output_size`` (an int, or (h, w) with None
    keeping that input dimension; stored with -1 for None, as MindSpore)."""

    def __init__(self, output_size):
        super().__init__("AdaptiveAvgPool2D")
        if isinstance(output_size, bool) or not isinstance(output_size, (int, tuple)):
            raise TypeError(f"For 'AdaptiveAvgPool2D', the type of 'output_size' should be one of '['int', "
                            f"'tuple']', but got type '{type(output_size).__name__}'.")
        if isinstance(output_size, tuple) and len(output_size) != 2:
            raise ValueError(f"For 'AdaptiveAvgPool2D', the 'length of output_size' must be int and must = 2, "
                             f"but got '{len(output_size)}' with type 'int'.")
        sizes = (output_size, output_size) if isinstance(output_size, int) else output_size
        for i, size in enumerate(sizes):
            if isinstance(size, bool) or not isinstance(size, (int, type(None))):
                raise TypeError(f"For 'AdaptiveAvgPool2D', the type of 'output_size[{i}]' should be one of "
                                f"'['int', 'NoneType']', but got type '{type(size).__name__}'.")
            if size is not None and size < 0:
                raise ValueError(f"For 'AdaptiveAvgPool2D', the argument 'output_size[{i}]' must >= 0, "
                                 f"but got {size}.")
        self.add_prim_attr("output_size", tuple(-1 if size is None else size for size in sizes))

    def __call__(self, x):
        _check_tensors(self.name, ("x",), (x,))
        return self._run_engine(x)


class BatchNorm(Primitive):
    """Batch normalization; in training it updates the moving mean/variance Parameters in place."""

    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        super().__init__("BatchNorm")
        if not isinstance(is_training, bool):
            raise TypeError(f"For 'BatchNorm', the type of 'is_training' must be bool, "
                            f"but got {type(is_training).__name__}.")
        if not 0 <= epsilon <= 1:
            raise ValueError(f"For 'BatchNorm', the 'epsilon' must be in range [0, 1], but got {epsilon}.")
        if not 0 <= momentum <= 1:
            raise ValueError(f"For 'BatchNorm', the 'momentum' must be in range [0, 1], but got {momentum}.")
        self.add_prim_attr("is_training", is_training)
        self.add_prim_attr("epsilon", float(epsilon))
        self.add_prim_attr("momentum", float(momentum))
        self.add_prim_attr("data_format", data_format)

    def __call__(self, input_x, scale, bias, mean, variance):
        _check_tensors("BatchNorm", ("input_x", "scale", "bias", "mean", "variance"),
                       (input_x, scale, bias, mean, variance))
        y, batch_mean, batch_var = self._run_engine(input_x, scale, bias, mean, variance, all_outputs=True)
        return y, batch_mean, batch_var, batch_mean, batch_var


class LayerNorm(Primitive):
    """Layer normalization over the dimensions from ``begin_norm_axis``: (y, mean, rstd)."""

    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        super().__init__("LayerNorm")
        self.add_prim_attr("begin_norm_axis", begin_norm_axis)
        self.add_prim_attr("begin_params_axis", begin_params_axis)
        self.add_prim_attr("epsilon", float(epsilon))

    def __call__(self, input_x, gamma, beta):
        _check_tensors("LayerNorm", ("input_x", "gamma", "beta"), (input_x, gamma, beta))
        return self._run_engine(input_x, gamma, beta, all_outputs=True)


class Dropout(Primitive):
    """Zeroes elements with probability ``1 - keep_prob`` and scales the rest: (output, mask)."""

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):  # pylint: disable=invalid-name
        super().__init__("Dropout")
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)) or not 0 < keep_prob <= 1:
            raise ValueError(f"For 'Dropout', the 'keep_prob' must be in range (0, 1], but got {keep_prob}.")
        self.add_prim_attr("keep_prob", float(keep_prob))
        self.add_prim_attr("Seed0", Seed0)
        self.add_prim_attr("Seed1", Seed1)
        self._rng = None

    def __call__(self, x):
        _check_tensors("Dropout", ("x",), (x,))
        if self._rng is None:
            from mindspore._host import host  # pylint: disable=import-outside-toplevel
            from mindspore.common.seed import get_seed  # pylint: disable=import-outside-toplevel
            seed = self.attrs["Seed0"] or self.attrs["Seed1"] or get_seed()
            self._rng = host().randomStream(-1 if seed is None else seed).java
        return self._run_engine(x, all_outputs=True, extra=("rng", self._rng))


class SoftmaxCrossEntropyWithLogits(Primitive):
    """Dense-label softmax cross entropy per sample: (loss [N], backprop [N, C])."""

    def __init__(self):
        super().__init__("SoftmaxCrossEntropyWithLogits")

    def __call__(self, logits, labels):
        _check_tensors(self.name, ("logits", "labels"), (logits, labels))
        return self._run_engine(logits, labels, all_outputs=True)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mean softmax cross entropy of integer labels (a scalar)."""

    def __init__(self, is_grad=False):
        super().__init__("SparseSoftmaxCrossEntropyWithLogits")
        self.add_prim_attr("is_grad", is_grad)

    def __call__(self, logits, labels):
        _check_tensors(self.name, ("logits", "labels"), (logits, labels))
        return self._run_engine(logits, labels)


class Concat(Primitive):
    """Joins a tuple of tensors along ``axis``."""

    def __init__(self, axis=0):
        super().__init__("Concat")
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Concat', the type of 'axis' must be int, but got {type(axis).__name__}.")
        self.add_prim_attr("axis", axis)

    def __call__(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not input_x:
            raise TypeError(f"For 'Concat', the 'input_x' must be a non-empty tuple or list of Tensors, "
                            f"but got {_type_name(input_x)}.")
        _check_tensors("Concat", [f"input_x[{i}]" for i in range(len(input_x))], input_x)
        return self._run_engine(*input_x)


class Split(Primitive):
    """Splits a tensor into ``output_num`` equal parts along ``axis``."""

    def __init__(self, axis=0, output_num=1):
        super().__init__("Split")
        for name, value in (("axis", axis), ("output_num", output_num)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Split', the type of '{name}' must be int, but got {type(value).__name__}.")
        if output_num <= 0:
            raise ValueError(f"For 'Split', the 'output_num' must be a positive int, but got {output_num}.")
        self.add_prim_attr("axis", axis)
        self.add_prim_attr("output_num", output_num)

    def __call__(self, x):
        _check_tensors("Split", ("input_x",), (x,))
        return self._run_engine(x, all_outputs=True)


class SplitV(Primitive):
    """Splits a tensor along ``split_dim`` into ``num_split`` parts of ``size_splits`` (one -1 takes the
    rest). MindSpore's CPU wheel has no kernel for it; it runs here by the documented definition."""

    def __init__(self, size_splits, split_dim, num_split):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        super().__init__("SplitV")
        validator.check_value_type("size_splits", size_splits, [tuple, list], self.name)
        for size in size_splits:
            validator.check_value_type("elements of size_splits", size, [int], self.name)
            if size != -1 and size < 1:
                raise ValueError(f"For '{self.name}', all elements of size_splits must be positive (except at most "
                                 f"one default value -1), but got: {size}.")
        validator.check_value_type("split_dim", split_dim, [int], self.name)
        validator.check_value_type("num_split", num_split, [int], self.name)
        validator.check_positive_int(num_split, "num_split", self.name)
        self.add_prim_attr("size_splits", list(size_splits))
        self.add_prim_attr("split_dim", split_dim)
        self.add_prim_attr("num_split", num_split)

    def __call__(self, x):
        _check_tensors("SplitV", ("input_x",), (x,))
        return self._run_engine(x, all_outputs=True)


class PadV3(Primitive):
    """Pads ``x`` by ``paddings`` (a 1-D int Tensor of (begin, end) pairs from the last dimension
    backwards, or all begins then all ends when ``paddings_contiguous`` is False; negative amounts
    crop) in ``mode`` 'constant' (with ``constant_value``, default 0), 'reflect', 'edge' or
    'circular'. The paddings' values decide the output shape, so they must be known when the graph
    is traced (a constant tensor, as MindSpore's static-shape compile needs)."""

    def __init__(self, mode="constant", paddings_contiguous=True):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        super().__init__("PadV3")
        validator.check_string(mode, ["constant", "reflect", "edge", "circular"], "mode", self.name)
        validator.check_bool(paddings_contiguous, "paddings_contiguous", self.name)
        self.mode = mode
        self.paddings_contiguous = paddings_contiguous
        self.add_prim_attr("mode", mode)
        self.add_prim_attr("paddings_contiguous", paddings_contiguous)

    def __call__(self, x, paddings, constant_value=None):
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        _check_tensors("PadV3", ("x", "paddings"), (x, paddings))
        if paddings.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For primitive[PadV3], the input argument[paddings] must be a type of "
                            f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{paddings.dtype}].")
        if len(paddings.shape) != 1:
            raise ValueError(f"For primitive[PadV3], the paddings_dim must be equal to 1, but got "
                             f"{len(paddings.shape)}.")
        values = [int(v) for v in paddings.asnumpy().tolist()]
        inputs = (x, paddings) if constant_value is None else (x, paddings, constant_value)
        return self._run_engine(*inputs, extra=("paddings", values))


class KLDivLoss(Primitive):
    """The Kullback-Leibler divergence loss ``labels * (log(labels) - logits)`` (0 where a label is not
    positive), reduced by ``reduction``: 'none', 'mean', 'sum' or 'batchmean' (the CPU target's
    choices)."""

    def __init__(self, reduction="mean"):
        from mindspore import _checkparam as validator  # pylint: disable=import-outside-toplevel
        super().__init__("KLDivLoss")
        self.reduction = validator.check_string(reduction, ["none", "mean", "batchmean", "sum"], "reduction",
                                                self.name)
        self.add_prim_attr("reduction", self.reduction)

    def __call__(self, logits, labels):
        _check_tensors("KLDivLoss", ("logits", "labels"), (logits, labels))
        return self._run_engine(logits, labels)


class Gather(Primitive):
    """Picks slices of ``input_params`` along ``axis`` at ``input_indices``; with ``batch_dims``,
    the leading dimensions of both are batches, each gathering its own slice."""

    def __init__(self, batch_dims=0):
        super().__init__("Gather")
        self.add_prim_attr("batch_dims", batch_dims)

    def __call__(self, input_params, input_indices, axis):
        _check_tensors(self.name, ("input_params", "input_indices"), (input_params, input_indices))
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For '{self.name}', the 'axis' must be an int, but got {_type_name(axis)}.")
        return self._run_engine(input_params, input_indices, extra=("axis", axis))


class SparseGatherV2(Gather):
    """``Gather`` whose gradient MindSpore keeps sparse (a RowTensor); values, sharding rule and
    strategies are Gather's (its SparseGatherV2Info is a GatherInfo), the gradient is dense here."""

    def __init__(self):  # pylint: disable=super-init-not-called
        Primitive.__init__(self, "SparseGatherV2")
        self.init_prim_io_names(inputs=['params', 'indices', 'axis'], outputs=['output'])


class GatherNd(Primitive):
    """``GatherNd()(input_x, indices)``: the slices of ``input_x`` the index tuples in the last
    dimension of ``indices`` address (an engine operator; its sharding rule keeps ``input_x``
    whole and splits the indices along their leading dimensions)."""

    def __init__(self):
        super().__init__("GatherNd")
        self.init_prim_io_names(inputs=['input_x', 'indices'], outputs=['y'])

    def __call__(self, input_x, indices):
        from mindspore.ops.operations import _ms_type_name  # pylint: disable=import-outside-toplevel
        if not isinstance(input_x, _tensor_cls()) or not isinstance(indices, _tensor_cls()):
            raise TypeError(f'Failed calling GatherNd with "GatherNd()(input_x={_signature_name(input_x)}, '
                            f'indices={_ms_type_name(indices)})".')
        return self._run_engine(input_x, indices)


class ScatterNd(Primitive):
    """``ScatterNd()(indices, updates, shape)``: ``updates`` added into zeros of ``shape`` at the
    index tuples of ``indices`` (repeated tuples accumulate)."""

    def __init__(self):
        super().__init__("ScatterNd")
        self.init_prim_io_names(inputs=['indices', 'update', 'shape'], outputs=['output'])

    def __call__(self, indices, updates, shape):
        from mindspore.ops.operations import _ms_type_name  # pylint: disable=import-outside-toplevel
        ints = isinstance(shape, tuple) and all(isinstance(d, int) and not isinstance(d, bool) for d in shape)
        if not isinstance(indices, _tensor_cls()) or not isinstance(updates, _tensor_cls()) or not ints:
            raise TypeError(f'Failed calling ScatterNd with "ScatterNd()(indices={_ms_type_name(indices)}, '
                            f'updates={_ms_type_name(updates)}, shape={_ms_type_name(shape)})".')
        if any(d <= 0 for d in shape):
            raise ValueError(f"For 'ScatterNd', the input [shape] should be a tuple with all positive item. "
                             f"But got: {{ {', '.join(str(d) for d in shape)} }}")
        n = indices.shape[-1] if indices.shape else 0
        if n > len(shape):
            raise ValueError(f"For 'ScatterNd', if the rank of output tensor is 'P' (length of the 'shape'), and "
                             f"the last dimension of 'indices' is 'N', the 'N' should be less than or equal to "
                             f"'P', but got P = {len(shape)}, N = {n}")
        return self._run_engine(indices, updates, extra=("shape", list(shape)))


def _signature_name(value):
    """An argument's type as 'Failed calling' prints a non-MindSpore object (``<class '...'>``)."""
    from mindspore.ops.operations import _ms_type_name  # pylint: disable=import-outside-toplevel
    if isinstance(value, (_tensor_cls(), tuple, list, int, float, str, bool)) or value is None:
        return _ms_type_name(value)
    return str(type(value))


class _UnsortedSegment(Primitive):
    """``UnsortedSegment{Sum,Prod,Max,Min}()(input_x, segment_ids, num_segments)``: the rows of
    ``input_x`` combined by segment id into ``num_segments`` rows (an engine operator with a
    sharding rule: ids split with ``input_x``'s leading dims leave the output partial)."""

    def __init__(self):
        super().__init__(type(self).__name__)
        self.init_prim_io_names(inputs=['x', 'segment_ids', 'num_segments'], outputs=['y'])

    def __call__(self, input_x, segment_ids, num_segments):
        _check_tensors(self.name, ("input_x",), (input_x,))
        if not isinstance(segment_ids, _tensor_cls()):
            raise TypeError(f"For '{self.name}', segment_ids must be a tensor, but got: {_type_name(segment_ids)}.")
        if isinstance(num_segments, _tensor_cls()):
            num_segments = num_segments.item()
        if isinstance(num_segments, bool) or not isinstance(num_segments, int):
            if self.name == "UnsortedSegmentSum":
                raise TypeError(f'Failed calling UnsortedSegmentSum with "UnsortedSegmentSum()(input_x=Tensor, '
                                f'segment_ids=Tensor, num_segments={type(num_segments).__name__})".')
            got = {bool: "Bool", float: "Float32"}.get(type(num_segments), _type_name(num_segments))
            raise TypeError(f"For primitive[{self.name}], the input argument[num_segments] must be a type of "
                            f"{{Int32, Int64}}, but got {got}.")
        return self._run_engine(input_x, segment_ids, extra=("num_segments", num_segments))


class UnsortedSegmentSum(_UnsortedSegment):
    """Sums the rows of ``input_x`` by segment id."""


class UnsortedSegmentProd(_UnsortedSegment):
    """Multiplies the rows of ``input_x`` by segment id (an empty segment is 1)."""


class UnsortedSegmentMax(_UnsortedSegment):
    """The largest row of ``input_x`` per segment id (an empty segment is the dtype's lowest value)."""


class UnsortedSegmentMin(_UnsortedSegment):
    """The smallest row of ``input_x`` per segment id (an empty segment is the dtype's largest value)."""


class OneHot(Primitive):
    """One-hot encoding of integer indices: ``on_value`` at the index, ``off_value`` elsewhere."""

    def __init__(self, axis=-1):
        super().__init__("OneHot")
        self.add_prim_attr("axis", axis)

    def __call__(self, indices, depth, on_value, off_value):
        _check_tensors("OneHot", ("indices", "on_value", "off_value"), (indices, on_value, off_value))
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise TypeError(f"For 'OneHot', the 'depth' must be an int, but got {_type_name(depth)}.")
        return self._run_engine(indices, on_value, off_value, extra=("depth", depth))


class Select(Primitive):
    """Elements of ``x`` where ``cond`` holds, of ``y`` elsewhere."""

    def __init__(self):
        super().__init__("Select")

    def __call__(self, cond, x, y):
        _check_tensors("Select", ("cond", "x", "y"), (cond, x, y))
        return self._run_engine(cond, x, y)


class Tile(Primitive):
    """Repeats a tensor ``dims`` times along each dimension."""

    def __init__(self):
        super().__init__("Tile")

    def __call__(self, input, dims):  # pylint: disable=redefined-builtin
        _check_tensors("Tile", ("input",), (input,))
        if not isinstance(dims, tuple) or any(isinstance(d, bool) or not isinstance(d, int) for d in dims):
            from mindspore.ops.operations import _ms_type_name  # pylint: disable=import-outside-toplevel
            raise TypeError(f'Failed calling Tile with "Tile()(input=Tensor, dims={_ms_type_name(dims)})".')
        return self._run_engine(input, extra=("multiples", list(dims)))


class StridedSlice(Primitive):
    """Numpy-style slicing with begin/end/strides and the five masks."""

    def __init__(self, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
        super().__init__("StridedSlice")
        for name, value in (("begin_mask", begin_mask), ("end_mask", end_mask), ("ellipsis_mask", ellipsis_mask),
                            ("new_axis_mask", new_axis_mask), ("shrink_axis_mask", shrink_axis_mask)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'StridedSlice', the type of '{name}' must be int, "
                                f"but got {type(value).__name__}.")
            self.add_prim_attr(name, value)

    def __call__(self, x, begin, end, strides):
        _check_tensors("StridedSlice", ("input_x",), (x,))
        for name, value in (("begin", begin), ("end", end), ("strides", strides)):
            if not isinstance(value, tuple) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
                raise TypeError(f"For 'StridedSlice', the '{name}' must be a tuple of ints, but got {value}.")
        if not len(begin) == len(end) == len(strides):
            raise ValueError(f"For 'StridedSlice', the length of 'begin', 'end' and 'strides' must be equal, "
                             f"but got {len(begin)}, {len(end)} and {len(strides)}.")
        return self._run_engine(x, extra=("begin", list(begin), "end", list(end), "strides", list(strides)))


class Assign(Primitive):
    """Sets a Parameter to ``value`` (recorded in graphs, so a replayed step updates it)."""

    def __init__(self):
        super().__init__("Assign")

    def __call__(self, variable, value):
        from mindspore.common.parameter import Parameter  # pylint: disable=import-outside-toplevel
        if not isinstance(variable, Parameter):
            raise TypeError(f"For 'Assign', the 'variable' must be a Parameter, but got {_type_name(variable)}.")
        _check_tensors("Assign", ("value",), (value,))
        return self._run_engine(variable, value)


class StopGradient(Primitive):
    """The input, with no gradient flowing back through it."""

    def __init__(self):
        super().__init__("StopGradient")

    def __call__(self, x):
        return self._run_engine(x)


class Identity(Primitive):
    """The input unchanged (a ``shard`` strategy on it lays the value out: ``Cell.shard``'s inputs)."""

    def __init__(self):
        super().__init__("Identity")

    def __call__(self, x):
        return self._run_engine(x)


class RealDiv(Primitive):
    """Elementwise division."""

    def __init__(self):
        super().__init__("RealDiv")

    def __call__(self, x, y):
        from mindspore.ops.operations import Div  # pylint: disable=import-outside-toplevel
        return Div()(x, y)


class Shape(Primitive):
    """The shape of a tensor as a tuple (a constant in graphs)."""

    def __init__(self):
        super().__init__("Shape")

    def __call__(self, input_x):
        _check_tensors("Shape", ("input_x",), (input_x,))
        return input_x.shape
