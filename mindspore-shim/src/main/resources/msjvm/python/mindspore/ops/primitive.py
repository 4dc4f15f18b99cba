"""``Primitive``: an operator with attributes and a parallel strategy, recorded for the engine.

Attribute and ``shard`` handling follow MindSpore 2.10's ``mindspore/ops/primitive.py`` (same checks
and messages for tuple and Layout strategies). Subclasses run through ``_run_engine``: the engine
operator of the same name, bound once per attribute set (collectives such as ``AllReduce`` bind to
this rank's communicator instead). A primitive the engine cannot run yet (AllGather and the other
communication operators, until the parallel work) raises ``NotImplementedError`` naming it.
"""


# Operators whose strategy may hold tuples of tuples or of Layouts (MindSpore parallel/_utils.py).
SUPPORTED_TUPLE_IN_TUPLE_STRATEGY = ("GroupedMatmul", "FusedInferAttentionScore", "Custom", "Index")


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


# Automatic mixed precision of this interpreter (``amp_level="auto"``): while a network decorated by
# ``mindspore.amp.auto_mixed_precision`` runs, the innermost entry maps a primitive to the
# (input type, output type) its call is cast to, or None. Per interpreter, as MindSpore's own
# AMP strategy stack is per process.
_AMP_STACK = []


def _amp_cast_all(value, dtype):
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    if isinstance(value, Tensor):
        if value.dtype != dtype and value.dtype in mstype.float_type:
            return value.astype(dtype)
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(_amp_cast_all(v, dtype) for v in value)
    return value


def _layout_lists(layouts):
    """A recorded Layout strategy as the engine reads it: per tensor ``[device_matrix, map]``, the
    map holding per dimension the list of device axes (counted from the right; ``[-1]``: whole)."""
    return [[list(d["device_matrix"]),
             [list(e) if isinstance(e, tuple) else [e] for e in d["tensor_map"]]] for d in layouts]


def _with_strategy(prim, call, args, kwargs):
    """Runs a sharded primitive with its strategy attached to the engine operators it records (the
    graph partitioner reads it from the traced nodes)."""
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    extra = [k for key in ("in_strategy", "out_strategy") if prim.attrs.get(key) is not None
             for k in (key, prim.attrs[key])]
    for key in ("in_layout", "out_layout"):
        if prim.attrs.get(key) is not None:
            extra += [key, _layout_lists(prim.attrs[key])]
    if prim.attrs.get("enable_nd_tp") is True:  # MatMul's 2D tensor parallel (read with the Layouts)
        extra += ["enable_nd_tp", True]
    if prim.attrs.get("strategy_gen_mode") is not None:  # Cell.set_data_parallel
        extra += ["strategy_gen_mode", prim.attrs["strategy_gen_mode"]]
    h = host()
    h.pushCallAttrs([prim.name], extra)
    try:
        return call(prim, *args, **kwargs)
    finally:
        h.popCallAttrs()


def _with_amp(call):
    """``call`` (a primitive class's ``__call__``) under mixed precision: a primitive marked by
    O1's white list (``_amp_cast``) or chosen by the active ``auto`` strategy gets its
    floating-point inputs cast to the compute type and, where asked, its outputs to float32. A
    sharded primitive (``in_strategy``) also runs under ``_with_strategy``; one marked by
    ``recompute()`` labels the operators it records for recomputation in the backward pass."""
    def amp_call(self, *args, **kwargs):
        if self.attrs.get("recompute") is True:
            from mindspore._host import host  # pylint: disable=import-outside-toplevel
            h = host()
            if h.recording():
                h.pushLabels(["recompute", True])
                try:
                    return amp_call_strategy(self, *args, **kwargs)
                finally:
                    h.popLabels()
        return amp_call_strategy(self, *args, **kwargs)

    def amp_call_strategy(self, *args, **kwargs):
        if "in_strategy" in self.attrs or "in_layout" in self.attrs or "strategy_gen_mode" in self.attrs:
            return _with_strategy(self, amp_call_inner, args, kwargs)
        return amp_call_inner(self, *args, **kwargs)

    def amp_call_inner(self, *args, **kwargs):
        cast = self.__dict__.get("_amp_cast")
        if cast is None and _AMP_STACK:
            cast = _AMP_STACK[-1](self, args)
        if cast is None:
            return call(self, *args, **kwargs)
        in_type, out_type = cast
        out = call(self, *(_amp_cast_all(a, in_type) for a in args), **kwargs)
        return out if out_type is None else _amp_cast_all(out, out_type)
    amp_call.__name__ = call.__name__
    amp_call.__doc__ = call.__doc__
    amp_call.__wrapped__ = call
    return amp_call


def _python_primitive(call):
    """``__call__`` of a primitive a script defines in Python with ``infer_shape``/``infer_dtype``
    (MindSpore's ``PrimitiveWithInfer``): in a graph compiled on shapes it is an engine node typed by
    those functions, differentiated by its ``get_bprop``; otherwise ``call`` (its own ``__call__``)
    runs, as in MindSpore's PYNATIVE_MODE."""
    def python_call(self, *args, **kwargs):
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        if not kwargs and host().onShapes():
            return _traced_python_primitive(self, args)
        return call(self, *args, **kwargs)
    python_call.__name__ = call.__name__
    return python_call


def _traced_python_primitive(prim, args):
    from mindspore._host import host  # pylint: disable=import-outside-toplevel
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    for i, a in enumerate(args):
        if not isinstance(a, Tensor):
            raise TypeError(f"For the Python primitive '{prim.name}', msjvm compiles tensor inputs only, "
                            f"but input {i} is {type(a).__name__}.")
    shape = prim.infer_shape(*[list(a.shape) for a in args])
    dtype = prim.infer_dtype(*[a.dtype for a in args])
    if not isinstance(shape, (list, tuple)) or not all(isinstance(d, int) for d in shape):
        raise NotImplementedError(f"For the Python primitive '{prim.name}', msjvm compiles one output, but "
                                  f"infer_shape returned {shape}.")
    adapter = None
    if hasattr(prim, "get_bprop"):
        bprop = prim.get_bprop()

        def adapter(*java):
            grads = bprop(*[Tensor._wrap(j) for j in java])  # pylint: disable=protected-access
            return [None if g is None else g._java for g in grads]  # pylint: disable=protected-access
    out = host().pythonPrimitive(prim.name, list(shape), dtype.engine_name, adapter,
                                 [a._java for a in args])  # pylint: disable=protected-access
    return Tensor._wrap(out.java)  # pylint: disable=protected-access


class Primitive:
    """Base class of operators: ``name``, ``attrs``, ``add_prim_attr``, ``shard``, ``recompute``."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if hasattr(cls, "infer_shape") and hasattr(cls, "infer_dtype") and \
                not getattr(cls.__call__, "_msjvm_python_primitive", False):
            # (a subclass inheriting the wrapped __call__ keeps it: the flag is on the wrapper)
            cls.__call__ = _with_amp(_python_primitive(call or cls.__call__))
            cls.__call__._msjvm_python_primitive = True  # pylint: disable=protected-access
        elif call is not None and not hasattr(call, "__wrapped__"):
            cls.__call__ = _with_amp(call)

    def __init__(self, name):
        self.name = name
        self.attrs = {}
        self.init_attrs = {"name": name}

    def init_prim_io_names(self, inputs, outputs):
        """Names of the inputs and outputs (MindSpore's ``input_names``/``output_names`` attributes)."""
        self.add_prim_attr("input_names", inputs)
        self.add_prim_attr("output_names", outputs)

    def add_prim_attr(self, name, value):
        self.__dict__[name] = value
        self.attrs[name] = value
        self.__dict__.pop("_bound_op", None)
        return self

    def set_device(self, device_target):
        """Where the primitive runs ("Ascend", "GPU", "CPU"; MindSpore's heterogeneous placement): kept as
        ``primitive_target``; every primitive runs on the engine's CPU backend here."""
        return self.add_prim_attr("primitive_target", device_target)

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
            bound = cache[key] = self._prepare(host(), name or self.name, self._engine_attrs() + list(extra))
        args = [x._java if isinstance(x, Tensor) else x for x in inputs]  # pylint: disable=protected-access
        if all_outputs:
            return tuple(Tensor._wrap(t.java) for t in bound.callAll(*args))  # pylint: disable=protected-access
        return Tensor._wrap(bound.call(*args).java)  # pylint: disable=protected-access

    @staticmethod
    def _prepare(h, name, attrs):
        """The engine operator ``name`` bound to ``attrs`` (collectives bind to the communicator)."""
        return h.prepare(name, attrs)

    def set_stage(self, stage):
        return self.add_prim_attr("stage", stage)

    def _tuple_in_tuple(self):
        """Operators whose strategy elements may themselves be tuples (of ints or Layouts)."""
        return self.name in SUPPORTED_TUPLE_IN_TUPLE_STRATEGY or self.attrs.get("self_define_shard", False)

    def _check_shard_strategy(self, strategy, log_info):
        """Whether ``strategy`` is made of Layouts (None for ``()``: unset); MindSpore's checks.

        As in MindSpore 2.10, only the first element decides the kind: a tuple strategy with a
        Layout further on is not rejected here (a Layout strategy with a tuple further on fails
        when its values are extracted).
        """
        from mindspore.parallel.shard import Layout  # pylint: disable=import-outside-toplevel
        if not isinstance(strategy, tuple):
            raise TypeError(f'{log_info} must be tuple type, but got:{type(strategy)}')
        if strategy == ():
            return None
        is_layout = []
        for element in strategy:
            if not isinstance(element, (tuple, Layout)):
                raise TypeError(f'The element of strategy must be tuple/Layout type, but got:{type(element)}')
            if isinstance(element, Layout):
                is_layout.append(True)
                continue
            for value in element:
                if not isinstance(value, int) and not self._tuple_in_tuple():
                    raise TypeError(f'The {log_info}: {strategy} of {self.name} is not valid,'
                                    f' the value of strategy must be int type, but got:{type(value)}')
                if isinstance(value, Layout) and self._tuple_in_tuple():
                    is_layout.append(True)
                    continue
            is_layout.append(False)
        return is_layout[0]

    @staticmethod
    def _extract_layout_value(layout, log_info):
        """The recorded form of a Layout strategy: per element the Layout's dict (less rank_list)."""
        from mindspore.parallel.shard import Layout, layout_values  # pylint: disable=import-outside-toplevel
        if layout is None:
            return None
        if not isinstance(layout, tuple):
            raise TypeError(f'{log_info} must be tuple type, but got:{type(layout)}')
        values = ()
        for element in layout:
            if isinstance(element, Layout):
                values += layout_values((element,))
            elif isinstance(element, tuple):
                if not all(isinstance(e, Layout) for e in element):
                    raise TypeError(f"The {log_info} item should be a object of class Layout.")
                values += (layout_values(element),)
            else:
                raise TypeError(f"The {log_info} item should be a object of class Layout or a tuple.")
        return values

    def shard(self, in_strategy=None, out_strategy=None):
        """Records the strategy for the parallel planner.

        Tuple strategies (one tuple per input, one int = number of slices per dimension) become the
        attributes ``in_strategy``/``out_strategy``; Layout strategies become ``in_layout``/
        ``out_layout`` (tuples of dicts with ``device_matrix``, ``tensor_map``,
        ``interleaved_parallel``, ``alias_name``).
        """
        if in_strategy is None and out_strategy is None:
            return self
        in_is_layout = None
        out_is_layout = None
        if in_strategy is not None:
            in_is_layout = self._check_shard_strategy(in_strategy, "in_strategy")
        if out_strategy is not None:
            out_is_layout = self._check_shard_strategy(out_strategy, "out_strategy")
        is_layout = in_is_layout if in_is_layout is not None else out_is_layout
        if out_is_layout is not None and is_layout != out_is_layout and not self._tuple_in_tuple():
            raise ValueError('The in_strategy type must equal to the out_strategy type, '
                             'one using tuple(tuple) and the other using tuple(Layout) is not allowed.')
        if in_strategy is None and out_strategy is not None:
            raise ValueError(f'The out_strategy of {self.name} is {out_strategy}, need to set in_strategy,'
                             f' but got none')
        if is_layout:
            in_layout = self._extract_layout_value(in_strategy, "in_strategy")
            out_layout = self._extract_layout_value(out_strategy, "out_strategy")
            if in_layout is not None:
                self.add_prim_attr("in_layout", in_layout)
            if out_layout is not None:
                self.add_prim_attr("out_layout", out_layout)
            return self
        if in_strategy is not None:
            self.add_prim_attr("in_strategy", in_strategy)
        if out_strategy is not None:
            self.add_prim_attr("out_strategy", out_strategy)
        return self

    def recompute(self, mode=True):
        if not isinstance(mode, bool):
            raise TypeError(f"The input value must be a bool, but got {type(mode).__name__}.")
        return self.add_prim_attr("recompute", mode)

    def __call__(self, *args):
        raise NotImplementedError(f"Running the operator {self.name} is not supported by msjvm yet.")

    def __repr__(self):
        attrs = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


class PrimitiveWithInfer(Primitive):
    """Kept for scripts that subclass it."""


class PrimitiveWithCheck(Primitive):
    """Kept for scripts that subclass it."""


def prim_attr_register(fn):
    """Decorates a primitive's ``__init__``: names the primitive after its class (``substitute_name``
    where set) and records every argument of ``__init__``, defaults included, as an attribute."""
    import functools  # pylint: disable=import-outside-toplevel
    import inspect  # pylint: disable=import-outside-toplevel

    @functools.wraps(fn)
    def deco(self, *args, **kwargs):
        name = getattr(type(self), "substitute_name", type(self).__name__)
        Primitive.__init__(self, name)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["self"]
        del self.init_attrs["name"]
        for key, value in arguments.items():
            self.add_prim_attr(key, value)
            self.init_attrs[key] = value
        fn(self, *args, **kwargs)

    deco.decorated_func = fn
    return deco

