"""``Print`` and ``Depend``: operators about the outside world and about order, not values.

``Print`` writes its inputs to standard output, one per line, as MindSpore 2.10 does: run eagerly,
a tensor as its ``repr`` and anything else as ``print`` writes it; inside a traced graph it becomes
the engine's ``Print`` operator, which writes each time the graph runs in MindSpore's graph-mode
text (no commas in tensors, a 0-d tensor as its value, ``True`` as ``1``), and a compile on shapes
writes nothing. ``Depend(value, expr)`` is ``value``: the engine keeps every operator with an effect
in the order the script called it, so there is no order to impose.
"""
from mindspore.ops.primitive import Primitive


def _graph_text(value):
    """How MindSpore's graph-mode Print writes a non-tensor item."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


class Print(Primitive):
    """``Print()(*items)``: writes tensors, strings, numbers and bools, one per line; returns None."""

    def __init__(self):
        super().__init__("Print")
        self.add_prim_attr("side_effect_io", True)

    def _engine_attrs(self):
        # The engine operator takes only what it prints.
        return []

    def __call__(self, *args):
        from mindspore._host import host  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if not host().recording():
            for arg in args:
                print(repr(arg) if isinstance(arg, Tensor) else arg)
            return None
        tensors = [a for a in args if isinstance(a, Tensor)]
        items = "".join("T" if isinstance(a, Tensor) else "S" for a in args)
        texts = [_graph_text(a) for a in args if not isinstance(a, Tensor)]
        self._run_engine(*tensors, extra=("items", items, "texts", texts))
        return None


class Depend(Primitive):
    """``Depend()(value, expr)``: ``value`` (MindSpore orders ``expr`` before the uses of ``value``)."""

    def __init__(self):
        super().__init__("Depend")

    def __call__(self, value, expr):  # pylint: disable=unused-argument
        return value
