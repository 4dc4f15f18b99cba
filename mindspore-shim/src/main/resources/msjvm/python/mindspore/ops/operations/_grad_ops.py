"""``mindspore.ops.operations._grad_ops`` (``G``): the gradient primitives MindSpore's backward rules
emit, callable directly as MindSpore's tests and custom bprops do. Each runs the engine operator
the engine's own gradient rules use (Conv2DBackpropFilter, MaxPoolGrad, ReluGrad...), with
MindSpore 2.10's constructor arguments and input order.
"""
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations._nn_ops import Conv2D, _check_tensors, _pair
from mindspore.ops.operations._array_math_ops import _is_int


class Conv2DBackpropFilter(Primitive):
    """The gradient of Conv2D with respect to its weight: ``(out_backprop, input, filter_sizes)``."""

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=(0, 0, 0, 0), mode=1,
                 stride=(1, 1), dilation=(1, 1, 1, 1), group=1, data_format="NCHW"):
        super().__init__("Conv2DBackpropFilter")
        conv = Conv2D(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group, data_format)
        for key, value in conv.attrs.items():
            self.add_prim_attr(key, value)
        self.add_prim_attr("pad_list", pad_list)

    def __call__(self, out_backprop, input, filter_sizes):  # pylint: disable=redefined-builtin
        _check_tensors(self.name, ("out_backprop", "input"), (out_backprop, input))
        return self._run_engine(out_backprop, input, extra=("filter_shape", list(filter_sizes)))


class _PoolGrad(Primitive):
    """MaxPoolGrad / AvgPoolGrad: ``(x, out, dout)``; the engine's kernel needs ``x`` and ``dout``."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW"):
        name = type(self).__name__
        super().__init__(name)
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{name}', the 'pad_mode' must be one of ['VALID', 'SAME'], but got '{pad_mode}'.")
        self.add_prim_attr("kernel_size", (1, 1) + _pair(name, "kernel_size", kernel_size))
        self.add_prim_attr("strides", (1, 1) + _pair(name, "strides", strides))
        self.add_prim_attr("pad_mode", pad_mode.upper())
        self.add_prim_attr("data_format", data_format)

    def __call__(self, x, out, dout):  # pylint: disable=unused-argument
        _check_tensors(self.name, ("x", "out", "dout"), (x, out, dout))
        return self._run_engine(x, dout)


class MaxPoolGrad(_PoolGrad):
    """The gradient of MaxPool: ``dout`` routed to each window's maximum."""


class AvgPoolGrad(_PoolGrad):
    """The gradient of AvgPool: ``dout`` spread over each window."""


class BiasAddGrad(Primitive):
    """The gradient of BiasAdd with respect to the bias: ``dout`` summed over all but the channels."""

    def __init__(self, data_format="NCHW"):
        super().__init__("BiasAddGrad")
        self.add_prim_attr("data_format", data_format)

    def __call__(self, dout):
        _check_tensors(self.name, ("dout",), (dout,))
        return self._run_engine(dout)


class ReluGrad(Primitive):
    """The gradient of ReLU: ``y_backprop`` where ``x`` (ReLU's output) is positive."""

    def __init__(self):
        super().__init__("ReluGrad")

    def __call__(self, y_backprop, x):
        _check_tensors(self.name, ("y_backprop", "x"), (y_backprop, x))
        return self._run_engine(y_backprop, x)


class BatchNormGrad(Primitive):
    """The gradients of BatchNorm with respect to x, scale and bias."""

    def __init__(self, is_training=False, epsilon=1e-5, data_format="NCHW"):
        super().__init__("BatchNormGrad")
        self.add_prim_attr("is_training", is_training)
        self.add_prim_attr("epsilon", float(epsilon))
        self.add_prim_attr("data_format", data_format)

    def __call__(self, dout, x, scale, saved_mean, saved_variance, reserve):  # pylint: disable=unused-argument
        _check_tensors(self.name, ("dout", "x", "scale", "saved_mean", "saved_variance"),
                       (dout, x, scale, saved_mean, saved_variance))
        return self._run_engine(dout, x, scale, saved_mean, saved_variance, all_outputs=True)


class FlattenGrad(Primitive):
    """The gradient of Flatten: ``x`` reshaped to ``shape``."""

    def __init__(self):
        super().__init__("FlattenGrad")

    def __call__(self, x, shape):
        from mindspore.ops.operations import Reshape  # pylint: disable=import-outside-toplevel
        return Reshape()(x, tuple(shape))


class ConcatOffset(Primitive):
    """The offset of each of Concat's ``N`` inputs along ``axis``: an int64 tensor of ``N`` rows."""

    def __init__(self, N=2, axis=0):  # pylint: disable=invalid-name
        super().__init__("ConcatOffset")
        self.add_prim_attr("N", N)
        self.add_prim_attr("axis", axis)

    def __call__(self, input_x):
        shapes = [tuple(x.shape) if hasattr(x, "shape") else tuple(x) for x in input_x]
        rank = len(shapes[0])
        axis = self.attrs["axis"]
        if not _is_int(axis) or axis < -rank or axis >= rank:
            raise ValueError(f"For 'ConcatOffset', 'axis' must be in range [{-rank}, {rank}), but got {axis}")
        axis = axis + rank if axis < 0 else axis
        offsets, at = [], 0
        for shape in shapes:
            offsets.append([at if d == axis else 0 for d in range(rank)])
            at += shape[axis]
        from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        return Tensor(offsets, mstype.int64)


class Conv2DBackpropInput(Primitive):
    """The gradient of Conv2D with respect to its input: ``(doutput, weight, input_size)``
    (``ops.Conv2DBackpropInput``, also Conv2DTranspose's forward)."""

    def __init__(self, out_channel, kernel_size, pad_mode="valid", pad=0, pad_list=None, mode=1, stride=1,
                 dilation=1, group=1, data_format="NCHW"):
        super().__init__("Conv2DTranspose" if isinstance(self, Conv2DTranspose) else "Conv2DBackpropInput")
        conv = Conv2D(out_channel, kernel_size, mode, pad_mode, pad, stride, dilation, group, data_format)
        for key, value in conv.attrs.items():
            self.add_prim_attr(key, value)
        self.add_prim_attr("pad_list", pad_list)

    def __call__(self, doutput, weight, input_size):
        _check_tensors(self.name, ("doutput", "weight"), (doutput, weight))
        return self._run_engine(doutput, weight, extra=("input_shape", list(input_size)))


class Conv2DTranspose(Conv2DBackpropInput):
    """``ops.Conv2DTranspose(...)(x, weight, input_size)``: the transposed 2-D convolution, i.e. the
    gradient of the Conv2D that maps an ``input_size`` input to ``x``; it has Conv2DBackpropInput's
    arguments and checks, and is differentiable (MindSpore's bprop: a Conv2D of the output gradient
    for ``x``, a filter gradient for ``weight``). In semi_auto_parallel its H and W split like that
    Conv2D's input, with the halos sent back to the neighbours they belong to."""


class MaxPoolGradWithArgmax(_PoolGrad):
    """The gradient of MaxPoolWithArgmax: ``(x, grad, argmax)``, each gradient added where its argmax points."""

    def __call__(self, x, grad, argmax):  # pylint: disable=arguments-renamed
        _check_tensors(self.name, ("x", "grad", "argmax"), (x, grad, argmax))
        return self._run_engine(x, grad, argmax)


class _Resize(Primitive):
    def __init__(self, align_corners=False, half_pixel_centers=False):
        name = type(self).__name__
        super().__init__(name)
        for arg, value in (("align_corners", align_corners), ("half_pixel_centers", half_pixel_centers)):
            if not isinstance(value, bool):
                raise TypeError(f"For '{name}', the '{arg}' must be a bool, but got {type(value).__name__}.")
        self.add_prim_attr("align_corners", align_corners)
        self.add_prim_attr("half_pixel_centers", half_pixel_centers)


class ResizeBilinearGrad(_Resize):
    """The gradient of ResizeBilinearV2: ``(grads, original_image)``."""

    def __call__(self, grads, image):
        _check_tensors(self.name, ("grads", "original_image"), (grads, image))
        return self._run_engine(grads, image)


from mindspore.ops.operations._math_extra_ops import IgammaGradA  # noqa: E402,F401
