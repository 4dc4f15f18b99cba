"""``mindspore.ops._register_for_op``: the registry keyed by primitive class or name that MindSpore's
grad and vm_impl tables are built on (same lookup order: the name given, the primitive's class,
then its name)."""
from collections import UserDict

from mindspore.ops.primitive import Primitive


class Registry(UserDict):
    """Functions registered per primitive class (``register(P.Add)``) or per name (``register("Add")``)."""

    def register(self, prim):
        """A decorator registering its function for ``prim``."""
        def deco(fn):
            if isinstance(prim, str):
                self[prim] = fn
            elif issubclass(prim, Primitive):
                self[id(prim)] = fn
            return fn
        return deco

    def get(self, prim_obj, default):  # pylint: disable=arguments-renamed
        """The function registered for ``prim_obj`` (a name or a primitive), or ``default``."""
        if isinstance(prim_obj, str):
            return self[prim_obj] if prim_obj in self else default
        if isinstance(prim_obj, Primitive):
            key = id(prim_obj.__class__)
            if key in self:
                return self[key]
            if prim_obj.name in self:
                return self[prim_obj.name]
        return default


class PyFuncRegistry(UserDict):
    """Python functions by key."""

    def register(self, key, value):
        self[key] = value

    def get(self, key):  # pylint: disable=arguments-differ
        if key not in self:
            raise ValueError(f"Python function with key{key} not registered.")
        return self[key]
