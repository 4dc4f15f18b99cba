"""``mindspore.ops.vm_impl_registry``: Python implementations of primitives registered for debugging
(MindSpore's tests register numpy versions of many operators here). Registering runs nothing; the
engine's own kernels run the operators."""
from mindspore.ops._register_for_op import Registry
from mindspore.ops.primitive import Primitive


class VmImplRegistry(Registry):
    """The registry of vm_impl functions, keyed by primitive class (and its name) or by name."""

    def register(self, prim):
        def deco(fn):
            if isinstance(prim, str):
                self[prim] = fn
            elif issubclass(prim, Primitive):
                self[id(prim)] = fn
                self[prim.__name__] = fn
            return fn
        return deco


vm_impl_registry = VmImplRegistry()


def get_vm_impl_fn(prim):
    """The Python implementation registered for ``prim`` (a primitive or a name), bound to it, or None."""
    out = vm_impl_registry.get(prim, None)
    if out:
        return out(prim)
    return None
