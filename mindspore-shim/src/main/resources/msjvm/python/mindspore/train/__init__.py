"""``mindspore.train``: checkpoints (and, later, Model, callbacks and metrics)."""
from mindspore.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
