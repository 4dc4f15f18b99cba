"""``mindspore.ops.operations.other_ops``: MindSpore's module path of these primitives (it also re-exports the
generated ones); the classes are ``mindspore.ops.operations``'."""
from mindspore.ops.operations import *  # noqa: F401,F403
