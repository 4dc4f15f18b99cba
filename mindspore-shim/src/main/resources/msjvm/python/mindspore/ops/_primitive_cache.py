"""``mindspore.ops._primitive_cache``: one primitive object per class and arguments, as functional code
builds them (``_get_cache_prim(P.Add)()``)."""
_PRIM_CACHE = {}


def _get_cache_prim(cls):
    """A constructor of ``cls`` that returns the cached instance for equal arguments (per interpreter)."""
    def get(*args, **kwargs):
        key = (cls, str(args), str(sorted(kwargs.items())))
        instance = _PRIM_CACHE.get(key)
        if instance is None:
            instance = _PRIM_CACHE[key] = cls(*args, **kwargs)
        return instance
    return get
