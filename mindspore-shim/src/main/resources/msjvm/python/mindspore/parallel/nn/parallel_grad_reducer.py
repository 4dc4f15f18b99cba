"""``PipelineGradReducer(parameters, scale_sense=1.0, opt_shard=None)`` (MindSpore 2.10 no longer
checks the mode). Calling it on the gradients of a micro-batched step returns
them divided by ``scale_sense``. MindSpore returns its ``accu_grads`` parameters, which its pipeline
backend fills micro-batch by micro-batch, and zeroes them; here the traced step's gradient already is
that accumulated sum, so it is scaled directly and no ``accu_grads`` parameters exist."""
from mindspore.nn.cell import Cell

__all__ = ["PipelineGradReducer"]


class PipelineGradReducer(Cell):
    """The accumulated gradients of a pipeline step, divided by ``scale_sense``."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.parameters = parameters
        self.scale_sense = scale_sense
        if opt_shard is None:
            from mindspore.parallel._utils import _get  # pylint: disable=import-outside-toplevel
            opt_shard = bool(_get("enable_parallel_optimizer"))
        self.opt_shard = opt_shard

    def construct(self, grads):
        scale = 1.0 / self.scale_sense
        return tuple(g * scale for g in grads)
