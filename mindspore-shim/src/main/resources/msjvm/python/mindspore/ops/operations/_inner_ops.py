"""``mindspore.ops.operations._inner_ops``: the inner primitives MindSpore's layers build on.

``SyncBatchNorm`` is BatchNorm in training whose statistics are those of the batch blocks of every
rank of ``group`` (``nn.SyncBatchNorm``'s operator): the engine's ``SyncBatchNorm`` collective sums
the per-channel sums over the group (the mean first, then the squared deviations from it), so each
rank normalises with, and updates its moving statistics from, the whole batch's mean and variance;
its gradient sums its per-channel terms over the group the same way.
"""
from mindspore import _checkparam as validator
from mindspore.ops.operations import AllReduce
from mindspore.ops.primitive import Primitive
from mindspore.ops.operations._elementary_ops import _unary

SiLU = _unary("SiLU", "x * sigmoid(x) (MindSpore's inner SiLU primitive, behind ops.silu).", "input")

__all__ = ["SyncBatchNorm", "SiLU"]


class SyncBatchNorm(Primitive):
    """``SyncBatchNorm(epsilon=1e-5, momentum=0.1, group="sync_bn_group0", device_num=2)``:
    ``(x, scale, bias, mean, variance)`` -> (y, batch mean, batch variance, the same two again),
    updating ``mean``/``variance`` in place."""

    def __init__(self, epsilon=1e-5, momentum=0.1, group="sync_bn_group0", device_num=2):
        super().__init__("SyncBatchNorm")
        validator.check_float_range(epsilon, 0, 1, validator.INC_RIGHT, 'epsilon', self.name)
        validator.check_float_range(momentum, 0, 1, validator.INC_BOTH, 'momentum', self.name)
        validator.check_isinstance("group", group, str)
        validator.check_int(device_num, 2, validator.GE, "device_num", self.name)
        self.add_prim_attr("epsilon", float(epsilon))
        self.add_prim_attr("momentum", float(momentum))
        self.add_prim_attr("group", group)
        self.add_prim_attr("device_num", device_num)

    _prepare = staticmethod(AllReduce._prepare)  # pylint: disable=protected-access

    def __call__(self, input_x, scale, bias, mean, variance):
        from mindspore.ops.operations._nn_ops import _check_tensors  # pylint: disable=import-outside-toplevel
        _check_tensors("SyncBatchNorm", ("input_x", "scale", "offset", "mean", "variance"),
                       (input_x, scale, bias, mean, variance))
        y, batch_mean, batch_var = self._run_engine(input_x, scale, bias, mean, variance, all_outputs=True)
        return y, batch_mean, batch_var, batch_mean, batch_var
