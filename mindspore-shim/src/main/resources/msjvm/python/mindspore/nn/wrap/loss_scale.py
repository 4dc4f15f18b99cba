"""Loss scaling cells (MindSpore 2.10's ``mindspore/nn/wrap/loss_scale.py``).

``TrainOneStepWithLossScaleCell`` seeds the backward pass with the loss scale, divides the
gradients by it, checks them for inf/NaN (summed over the ranks when the job is distributed), lets
the update cell adjust the scale and runs the optimizer only without overflow; it returns
``(loss, overflow, scale)``. The overflow test reads a value in Python, so in GRAPH_MODE this step
runs eagerly (MindSpore compiles it as control flow), except in semi_auto/auto_parallel, where the
step must be one graph: there the update runs and is undone on overflow inside the graph.
"""
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.wrap.cell_wrapper import TrainOneStepCell

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]


def _finite_flags(tensors):
    """A float32 scalar: 0 when every element of ``tensors`` is finite, NaN otherwise (x - x is 0
    exactly for finite x and NaN for inf and NaN)."""
    total = None
    for t in tensors:
        part = (t.astype(mstype.float32) - t.astype(mstype.float32)).sum()
        total = part if total is None else total + part
    return total if total is not None else Tensor(0.0, mstype.float32)


def _all_finite(tensors):
    """Bool scalar tensor: every element of ``tensors`` is finite."""
    return _finite_flags(tensors) == 0


def _one_graph():
    """Whether the step compiles to one graph whatever it computes (semi_auto/auto_parallel): the
    skipped update on overflow then happens inside the graph instead of in a Python ``if``."""
    from mindspore.context import get_auto_parallel_context  # pylint: disable=import-outside-toplevel
    return get_auto_parallel_context("parallel_mode") in ("semi_auto_parallel", "auto_parallel")


class DynamicLossScaleUpdateCell(Cell):
    """Adjusts ``loss_scale`` after each step: divided by ``scale_factor`` (not below 1) on
    overflow, multiplied by it once ``scale_window`` steps passed since the last overflow."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")

    def get_loss_scale(self):
        return self.loss_scale_value

    def __call__(self, loss_scale, overflow):
        # Updates the ``loss_scale`` Parameter it is given: always eager, so it sees that Parameter
        # rather than a traced copy.
        return self._run_construct(loss_scale, overflow)

    def construct(self, loss_scale, overflow):
        # Tensor operators only, so that the update is part of a traced step (one graph in
        # semi_auto/auto_parallel) as much as of an eager one.
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        from mindspore.ops.operations import BroadcastTo  # pylint: disable=import-outside-toplevel
        select, assign, cast = P.Select(), P.Assign(), P.Cast()
        overflow = cast(overflow, mstype.bool_)
        at_scale = BroadcastTo(tuple(loss_scale.shape))
        factor = self.scale_factor.astype(loss_scale.dtype)
        reduced = P.Maximum()(loss_scale / factor, P.OnesLike()(loss_scale))
        on_overflow = select(at_scale(overflow), reduced, loss_scale)
        should_inc = P.LessEqual()(self.scale_window, self.cur_iter - self.last_overflow_iter)
        overflow_i, inc_i = cast(overflow, mstype.int32), cast(should_inc, mstype.int32)
        # last_overflow_iter <- cur_iter on an overflow or a growth
        reset = P.Greater()(overflow_i + inc_i, P.ZerosLike()(inc_i))
        assign(self.last_overflow_iter, select(reset, self.cur_iter, self.last_overflow_iter))
        grow = P.Greater()(inc_i - overflow_i, P.ZerosLike()(inc_i))  # should_inc and not overflow
        assign(loss_scale, select(at_scale(grow), on_overflow * factor, on_overflow))
        assign(self.cur_iter, self.cur_iter + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """Keeps the loss scale; only passes the overflow flag on."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """``TrainOneStepWithLossScaleCell(network, optimizer, scale_sense)``: a training step with
    loss scaling; ``scale_sense`` is an update cell or a scalar/shape-(1,) Tensor."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        from mindspore.context import get_auto_parallel_context  # pylint: disable=import-outside-toplevel
        self.is_distributed = get_auto_parallel_context("parallel_mode") != "stand_alone"
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape in ((1,), ()):
                self.scale_sense = Parameter(scale_sense, name='scale_sense')
            else:
                raise ValueError("For 'TrainOneStepWithLossScaleCell', "
                                 "the shape of 'scale_sense' must be (1,) or (), but got {}."
                                 .format(scale_sense.shape))
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', "
                            "the 'scale_sense' must be Cell or Tensor, but got 'scale_sense' type: {}."
                            .format(type(scale_sense)))

    def construct(self, *inputs):
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        loss = self.network(*inputs)
        scaling_sens = self.scale_sense
        sens = P.OnesLike()(loss) * scaling_sens.astype(loss.dtype)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = tuple(g * (1.0 / scaling_sens).astype(g.dtype) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        if _one_graph():
            self._update_unless(overflow, grads)
        elif not overflow:
            self.optimizer(grads)
        return loss, cond, scaling_sens

    def _update_unless(self, overflow, grads):
        """The optimizer step inside the graph, undone on ``overflow`` (MindSpore compiles the skipped
        update as control flow): every Parameter of the optimizer (weights, states, step counter) is
        read before the update and assigned its old value back after it where ``overflow`` holds."""
        from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
        params = list(self.optimizer.get_parameters())
        before = [P.Identity()(p) for p in params]
        self.optimizer(grads)
        for p, old in zip(params, before):
            # The condition is computed from p itself, so that it is laid out as p is on every rank.
            cond = P.Cast()(P.OnesLike()(p) * overflow.astype(p.dtype), mstype.bool_)
            P.Assign()(p, P.Select()(cond, old, p))

    def set_sense_scale(self, sens):
        """Replaces the loss scale with ``sens`` (a Tensor of the same shape and type)."""
        if self.scale_sense and isinstance(sens, Tensor):
            self.scale_sense.set_data(sens)
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', "
                            "the type of 'sens' must be Tensor, but got {}".format(type(sens)))

    def start_overflow_check(self, pre_cond, compute_input):
        """No status register to clear on these devices: ``(status, compute_input)``."""
        return Tensor([0] * 8, mstype.int32), compute_input  # pylint: disable=unused-argument

    def get_overflow_status(self, status, compute_output):
        """Bool scalar: some gradient holds inf or NaN (on any rank when distributed)."""
        # pylint: disable=unused-argument
        flags = _finite_flags(compute_output)
        # A data/hybrid-parallel rank sees its own gradients: the ranks' flags are combined. A
        # semi_auto/auto_parallel network is one global program, whose sum over the sliced
        # gradients the compile already completes across the ranks.
        if self.is_distributed and not _one_graph():
            from mindspore.ops import operations as P  # pylint: disable=import-outside-toplevel
            flags = P.AllReduce()(flags)
        return flags != 0

    def process_loss_scale(self, overflow):
        """Lets the update cell see ``overflow``; returns it."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
