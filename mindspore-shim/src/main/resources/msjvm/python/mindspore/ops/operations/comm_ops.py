"""``mindspore.ops.operations.comm_ops``: the communication primitives by MindSpore's module path, and
``_VirtualDataset``, the marker of dataset inputs."""
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations import (AllGather, AllReduce, AlltoAll, Broadcast, Receive, ReduceOp,  # noqa: F401
                                      ReduceScatter, Send)


class _VirtualDataset(Primitive):
    """Marks its inputs as the dataset's (MindSpore's planner redistributes them from the data-parallel
    layout); the planner here lays out a network's arguments by the dataset strategy already, so the
    inputs pass through unchanged (a tuple, as MindSpore returns)."""

    def __init__(self):
        super().__init__("_VirtualDataset")
        self.add_prim_attr("order_enforce_skip", True)

    def __call__(self, *args):
        return args


virtual_dataset = _VirtualDataset()
