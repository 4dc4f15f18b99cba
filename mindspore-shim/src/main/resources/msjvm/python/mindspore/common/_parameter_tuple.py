"""``mindspore.ParameterTuple``: a tuple of Parameters that can clone itself (optimizer moments).

Follows MindSpore 2.10's ``ParameterTuple`` in ``mindspore/common/parameter.py``: elements must be
Parameters with distinct names; ``clone(prefix, init)`` gives ``<prefix>.<name>`` copies.
"""
from mindspore.common.parameter import Parameter

__all__ = ["ParameterTuple"]


class ParameterTuple(tuple):
    """A tuple of ``Parameter`` (duplicates by name are rejected)."""

    def __new__(cls, iterable):
        data = tuple(iterable)
        ids = set()
        names = set()
        for x in data:
            if not isinstance(x, Parameter):
                raise TypeError(f"For ParameterTuple initialization, "
                                f"ParameterTuple input should be 'Parameter' collection, "
                                f"but got a {type(iterable)}. ")
            if id(x) not in ids:
                if x.name in names:
                    raise ValueError("The value {} , its name '{}' already exists. "
                                     "Please set a unique name for the parameter.".format(x, x.name))
                names.add(x.name)
                ids.add(id(x))
        return tuple.__new__(ParameterTuple, tuple(data))

    def clone(self, prefix, init='same'):
        """Copies named ``<prefix>.<name>``; ``init`` 'zeros', 'ones' or 'same'."""
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        from mindspore.common.initializer import initializer  # pylint: disable=import-outside-toplevel
        from mindspore._checkparam import check_str_by_regular  # pylint: disable=import-outside-toplevel
        check_str_by_regular(prefix)
        new = []
        for x in self:
            if init in ('zeros', 'ones'):
                # An initializer, as MindSpore's Parameter.clone: in a parallel mode the copy waits
                # for its layout like the original (nothing whole is made).
                value = initializer(init, x.shape, x.dtype)
            elif init == 'same':
                value = Tensor(x)
            else:
                raise ValueError(f"msjvm: ParameterTuple.clone(init={init!r}) is not supported.")
            p = Parameter(value, name=prefix + '.' + x.name, requires_grad=x.requires_grad)
            new.append(p)
        return ParameterTuple(new)
