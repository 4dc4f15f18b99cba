"""``mindspore.train``: Model, callbacks, metrics and checkpoints."""
from mindspore.train.serialization import (build_searched_strategy, load_checkpoint, load_distributed_checkpoint,
                                           load_param_into_net, merge_sliced_parameter, save_checkpoint)
from mindspore.train.callback import (Callback, CheckpointConfig, LambdaCallback, LossMonitor, ModelCheckpoint,
                                      RunContext, SummaryCollector, TimeMonitor)
from mindspore.train.metrics import (Accuracy, EvaluationBase, Loss, Metric, Precision, Recall,
                                     Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy,
                                     get_metric_fn, names, rearrange_inputs)
from mindspore.train.model import Model
from mindspore.train.amp import build_train_network
from mindspore.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["Model", "Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
           "LambdaCallback", "SummaryCollector", "Accuracy", "Loss", "Precision", "Recall", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Metric", "EvaluationBase", "rearrange_inputs",
           "names", "get_metric_fn", "save_checkpoint", "load_checkpoint", "load_param_into_net", "build_train_network",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager", "build_searched_strategy",
           "merge_sliced_parameter", "load_distributed_checkpoint"]
