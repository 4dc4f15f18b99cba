"""``mindspore._c_expression``: in MindSpore the C++ extension module; here only the parts scripts and
MindSpore's tests import by this path (``typing``)."""
from mindspore._c_expression import typing  # noqa: F401
