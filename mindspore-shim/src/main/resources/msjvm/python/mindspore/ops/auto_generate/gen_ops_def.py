"""``mindspore.ops.auto_generate.gen_ops_def``: the functional forms MindSpore generates beside the
primitives (those its scripts and tests call by this path)."""
# pylint: disable=redefined-builtin
from mindspore.ops.auto_generate.gen_ops_prim import AddcmulExt, AddExt, SubExt
from mindspore.ops.function.elementary_func import prelu, rms_norm  # noqa: F401

_ADD_EXT, _SUB_EXT = AddExt(), SubExt()


def add_ext(input, other, alpha=1):
    """``input + alpha * other``."""
    return _ADD_EXT(input, other, alpha)


def sub_ext(input, other, alpha=1):
    """``input - alpha * other``."""
    return _SUB_EXT(input, other, alpha)


def addcmul_ext(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``."""
    return AddcmulExt()(input, tensor1, tensor2, value)
