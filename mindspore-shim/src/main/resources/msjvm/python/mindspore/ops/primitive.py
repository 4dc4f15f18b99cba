"""``Primitive``: an operator with attributes and a parallel strategy, recorded for the engine.

Attribute and ``shard`` handling follow MindSpore's ``mindspore/ops/primitive.py`` (same checks and
messages for tuple strategies). Subclasses run through ``_run_engine``: the engine operator of the
same name, bound once per attribute set. A primitive the engine cannot run yet (the communication
operators, until the parallel work) raises ``NotImplementedError`` naming it.
"""


def _freeze(value):
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    try:
        hash(value)
        return value
    except TypeError:
        return id(value)


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    return isinstance(value, (tuple, list)) and all(_plain(v) for v in value)


class Primitive:
    """Base class of operators: ``name``, ``attrs``, ``add_prim_attr``, ``shard``, ``recompute``."""

    def __init__(self, name):
        self.name = name
        self.attrs = {}
        self.init_attrs = {"name": name}

    def add_prim_attr(self, name, value):
        self.__dict__[name] = value
        self.attrs[name] = value
        self.__dict__.pop("_bound_op", None)
        return self

    def del_prim_attr(self, name):
        if name in self.__dict__ and name in self.attrs:
            del self.__dict__[name]
            del self.attrs[name]
            self.__dict__.pop("_bound_op", None)
        return self

    def _engine_attrs(self):
        """The attributes the engine's kernel reads, as alternating names and values."""
        flat = []
        for key, value in self.attrs.items():
            if _plain(value):
                flat.extend((key, value))
        return flat

    def _run_engine(self, *inputs, name=None, all_outputs=False, extra=()):
        """Runs this operator in the engine (bound once per attribute set); tensors in, tensors out.

        ``extra`` holds alternating names and values of call-time attributes (Tile's multiples...).
        """
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        cache = self.__dict__.get("_bound_op")
        if cache is None:
            cache = self.__dict__["_bound_op"] = {}
        key = (name, _freeze(extra))
        bound = cache.get(key)
        if bound is None:
            bound = cache[key] = host().prepare(name or self.name, self._engine_attrs() + list(extra))
        args = [x._java if isinstance(x, Tensor) else x for x in inputs]  # pylint: disable=protected-access
        if all_outputs:
            return tuple(Tensor._wrap(t.java) for t in bound.callAll(*args))  # pylint: disable=protected-access
        return Tensor._wrap(bound.call(*args).java)  # pylint: disable=protected-access

    def set_stage(self, stage):
        return self.add_prim_attr("stage", stage)

    def _check_shard_strategy(self, strategy, log_info):
        if not isinstance(strategy, tuple):
            raise TypeError(f'{log_info} must be tuple type, but got:{type(strategy)}')
        for element in strategy:
            if not isinstance(element, tuple):
                raise TypeError(f'The element of strategy must be tuple/Layout type, but got:{type(element)}')
            for value in element:
                if not isinstance(value, int):
                    raise TypeError(f'The {log_info}: {strategy} of {self.name} is not valid,'
                                    f' the value of strategy must be int type, but got:{type(value)}')

    def shard(self, in_strategy=None, out_strategy=None):
        """Records the strategy: one tuple per input, one int (number of slices) per dimension."""
        if in_strategy is None and out_strategy is None:
            return self
        if in_strategy is not None:
            self._check_shard_strategy(in_strategy, "in_strategy")
        if out_strategy is not None:
            self._check_shard_strategy(out_strategy, "out_strategy")
        if in_strategy is None and out_strategy is not None:
            raise ValueError(f'The out_strategy of {self.name} is {out_strategy}, need to set in_strategy,'
                             f' but got none')
        if in_strategy is not None:
            self.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            self.add_prim_attr("out_strategy", out_strategy)
        return self

    def recompute(self, mode=True):
        if not isinstance(mode, bool):
            raise TypeError(f"For 'Primitive', the argument 'mode' must be bool, but got {type(mode)}.")
        return self.add_prim_attr("recompute", mode)

    def __call__(self, *args):
        raise NotImplementedError(f"Running the operator {self.name} is not supported by msjvm yet.")

    def __repr__(self):
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


class PrimitiveWithInfer(Primitive):
    """Kept for scripts that subclass it."""
