"""Training callbacks (``mindspore.train.callback``)."""
from mindspore.train.callback._callback import Callback, RunContext
from mindspore.train.callback._checkpoint import CheckpointConfig, ModelCheckpoint
from mindspore.train.callback._loss_monitor import LossMonitor
from mindspore.train.callback._time_monitor import TimeMonitor
from mindspore.train.callback._misc import LambdaCallback, SummaryCollector

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
           "LambdaCallback", "SummaryCollector"]
