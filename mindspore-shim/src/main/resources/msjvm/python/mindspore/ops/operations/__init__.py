"""``mindspore.ops.operations`` (``P``): operator classes with MindSpore's constructor arguments."""
from mindspore.ops.primitive import Primitive


class ReduceOp:
    """Reduction kinds of the communication operators."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


def _world_group():
    from mindspore.communication._comm_helper import GlobalComm  # pylint: disable=import-outside-toplevel
    return GlobalComm.WORLD_COMM_GROUP


class _Simple(Primitive):
    def __init__(self):
        super().__init__(type(self).__name__)


class Add(_Simple):
    """Elementwise addition."""


class Sub(_Simple):
    """Elementwise subtraction."""


class Mul(_Simple):
    """Elementwise multiplication."""


class ReLU(_Simple):
    """Rectified linear unit."""


class Flatten(_Simple):
    """Flattens all dimensions but the first."""


class MatMul(Primitive):
    """Matrix product, with optional transposes."""

    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__("MatMul")
        self.add_prim_attr("transpose_a", transpose_a)
        self.add_prim_attr("transpose_b", transpose_b)


class AllReduce(Primitive):
    """Reduces a tensor over the ranks of a communication group."""

    def __init__(self, op=ReduceOp.SUM, group=None):
        super().__init__("AllReduce")
        if not isinstance(op, str) or op not in (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD):
            raise TypeError(f"For 'AllReduce', the 'op' must be str, but got {type(op).__name__}.")
        self.add_prim_attr("op", op)
        self.add_prim_attr("group", group if group is not None else _world_group())
        self.add_prim_attr("fusion", 0)


class AllGather(Primitive):
    """Concatenates a tensor from every rank of a group along dimension 0."""

    def __init__(self, group=None):
        super().__init__("AllGather")
        self.add_prim_attr("group", group if group is not None else _world_group())
        self.add_prim_attr("fusion", 0)
