"""``reshard(tensor, layout)``: pins a tensor of a parallel graph to a Layout.

MindSpore 2.10 (``mindspore/parallel/function/reshard_func.py``) returns the tensor itself in a
one-rank job, checks the argument types with its texts, and otherwise applies a ``Reshard`` primitive
whose input and output layouts are the given one, a configured node sharding propagation starts
from. Here that node is an ``Identity`` sharded with the Layout (as ``Cell.shard``'s inputs are):
the planner redistributes whatever the producer's layout is into the Layout, and the users read it
from there.
"""
from mindspore.common.tensor import Tensor
from mindspore.parallel.shard import Layout, _single_rank

__all__ = ["reshard"]


def reshard(tensor, layout):
    """``tensor``, laid out by ``layout`` (a ``mindspore.parallel.Layout``) in a parallel graph."""
    if _single_rank():
        return tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Reshard takes in Tensor type as the first input param, but got: {type(tensor)}.")
    if not isinstance(layout, Layout):
        raise TypeError(f"Reshard only support type mindspore.parallel.Layout, but got: {type(layout)}.")
    from mindspore.ops.operations import Identity  # pylint: disable=import-outside-toplevel
    return Identity().shard((layout,))(tensor)
