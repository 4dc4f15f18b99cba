"""``mindspore.lazy_inline``: marks a Cell's ``__init__`` so that MindSpore compiles the cell once as
a reusable sub-graph (an Ascend compile-time optimization). Here every traced graph is flat, so the
decorator changes no result: it makes the same checks as MindSpore 2.10, records the attributes
MindSpore records (``cell_init_args``, ``no_inline`` for ``policy="front"``) and runs ``__init__``."""
import functools
import inspect

from mindspore import log as logger


def lazy_inline(fn=None, attrs=None, policy=None):
    """``@lazy_inline`` or ``@lazy_inline(attrs=..., policy=...)`` on a Cell's ``__init__``."""

    def decorate(init):
        if inspect.isclass(init):
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the class "
                             f"{init.__name__}. File: {inspect.getfile(init)}")
        if init.__name__ != "__init__":
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the function: "
                             f"{init.__name__}. line: {init.__code__.co_firstlineno} in "
                             f"{init.__code__.co_filename}")
        warned = []

        def warn_once(cell):
            # MindSpore logs once per decorated __init__ when construct cannot be reused as is.
            if warned:
                return
            construct = getattr(cell, "construct", None)
            if construct is None:
                logger.warning(f"The {type(cell).__name__} must be a cell and must has a construct function. "
                               f"line: {init.__code__.co_firstlineno} in {init.__code__.co_filename}")
                warned.append(True)
                return
            defaults = [name for name, p in inspect.signature(construct).parameters.items()
                        if p.default is not inspect.Parameter.empty]
            if defaults:
                logger.info(f"The function construct's parameters:  {' , '.join(defaults)} must be  key word or "
                            f"positional arguments and can't have default values. line: "
                            f"{construct.__code__.co_firstlineno} in {construct.__code__.co_filename}")
                warned.append(True)

        @functools.wraps(init)
        def wrapped(self, *args, **kwargs):
            warn_once(self)
            bound = None
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                bound.pop("self", None)
            init(self, *args, **kwargs)
            if isinstance(policy, str) and policy == "front":
                self.no_inline = False
            elif policy is not None:
                raise ValueError("policy must be None or 'front'")
            if attrs is None:
                recorded = bound.values()
            elif isinstance(attrs, list):
                recorded = []
                for attr in attrs:
                    if not isinstance(attr, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, attr):
                        recorded.append(getattr(self, attr))
            elif isinstance(attrs, str):
                recorded = getattr(self, attrs) if hasattr(self, attrs) else []
            else:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = "lazy_inline_" + type(self).__name__ + str(recorded)

        return wrapped

    if fn is not None:
        return decorate(fn)
    return decorate
