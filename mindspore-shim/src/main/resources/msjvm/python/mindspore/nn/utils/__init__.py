"""``mindspore.nn.utils``: ``no_init_parameters``."""
from contextlib import contextmanager

from mindspore.common.parameter import Parameter

__all__ = ["no_init_parameters"]


@contextmanager
def no_init_parameters():
    """Parameters built from ``initializer(...)`` inside keep their initializer until
    ``init_data()`` (or the first use of their data). Also a decorator: ``@no_init_parameters()``."""
    init_class = Parameter
    setattr(init_class, "init_param", False)
    try:
        yield
    finally:
        setattr(init_class, "init_param", True)
