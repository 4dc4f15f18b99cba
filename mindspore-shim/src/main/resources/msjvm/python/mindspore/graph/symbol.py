"""``mindspore.Symbol``: symbolic information about one dimension of a dynamic shape.

A Symbol stands for a dimension of length ``divisor * N + remainder`` (N >= 1) between ``min`` and
``max`` (``max`` counts only when it exceeds ``min``); dimensions given one ``unique`` Symbol have
equal lengths. The arguments are checked as MindSpore 2.10 checks them. msjvm compiles graphs for
concrete shapes: a Tensor whose shape holds a Symbol (or None) is a dynamic-shape input, which is
not supported yet (``Tensor(shape=...)`` says so).
"""

__all__ = ["Symbol"]


class Symbol:
    """``Symbol(max=0, min=1, divisor=1, remainder=0, unique=False)``."""

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):  # pylint: disable=redefined-builtin,unused-argument
        for name, value, kind in (("max", max, int), ("min", min, int), ("divisor", divisor, int),
                                  ("remainder", remainder, int), ("unique", unique, bool)):
            if not isinstance(value, kind):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be {kind.__name__}, "
                                f"but got {type(value)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got {divisor}")
        if not 0 <= remainder < divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range '[0, {divisor})', "
                             f"but got {remainder}")
        self.max = max
        self.min = min
        self.divisor = divisor
        self.remainder = remainder
        self.unique = unique
        self.id = id(self)

    def to_dict(self):
        """The information that differs from the defaults (``id`` only for a unique symbol)."""
        info = {}
        if self.max > self.min:
            info["max"] = self.max
        if self.min > self.divisor + self.remainder:  # the least length d * 1 + r is implied
            info["min"] = self.min
        if self.divisor != 1:
            info["divisor"] = self.divisor
        if self.remainder != 0:
            info["remainder"] = self.remainder
        if self.unique:
            info["id"] = self.id
        return info

    def __str__(self):
        return str(self.to_dict())
