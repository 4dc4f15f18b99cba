"""``nn.DistributedGradReducer``: data-parallel gradient aggregation (MindSpore 2.10's
``mindspore/nn/wrap/grad_reducer.py``).

Each gradient is cast to float32, summed over the group with AllReduce (``layerwise_parallel``
parameters are skipped: each rank keeps its own), multiplied by ``1/degree`` when ``mean`` and cast
back. ``TrainOneStepCell`` uses it in ``data_parallel`` and ``hybrid_parallel`` modes with
``degree`` = the device count and ``mean`` = ``gradients_mean``. In GRAPH_MODE the collectives are
part of the traced step and run on every replay.
"""
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.communication._comm_helper import GlobalComm
from mindspore.nn.cell import Cell

__all__ = ["DistributedGradReducer"]


class DistributedGradReducer(Cell):
    """``DistributedGradReducer(parameters, mean=None, degree=None, fusion_type=1, group=world)``."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=None):
        super().__init__(auto_prefix=False)
        from mindspore.parallel import _utils  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations import AllReduce  # pylint: disable=import-outside-toplevel
        group = GlobalComm.WORLD_COMM_GROUP if group is None else group
        self.mean = _utils._get_gradients_mean() if mean is None else mean  # pylint: disable=protected-access
        if degree is None:
            from mindspore.communication.management import get_group_size  # pylint: disable=import-outside-toplevel
            degree = get_group_size()
        elif not isinstance(degree, int) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', "
                             "parameter 'degree' in DistributedGradReducer "
                             "should large than 0 and be int, degree: {}.".format(degree))
        self.degree = Tensor(1.0 / degree, mstype.float32)
        self.allreduce_filter = tuple(p.layerwise_parallel is False for p in parameters)
        self.allreduce = AllReduce('sum', group).add_prim_attr('fusion', fusion_type)

    def construct(self, grads):
        reduced = []
        for do_reduce, grad in zip(self.allreduce_filter, grads):
            if do_reduce:
                dtype = grad.dtype
                grad = self.allreduce(grad.astype(mstype.float32))
                if self.mean:
                    grad = grad * self.degree
                grad = grad.astype(dtype)
            reduced.append(grad)
        return tuple(reduced)
