"""Evaluation metrics (``mindspore.train.metrics``): those msjvm implements, by MindSpore's names."""
from mindspore.train.metrics.accuracy import (Accuracy, Loss, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                              TopKCategoricalAccuracy)
from mindspore.train.metrics.metric import EvaluationBase, Metric, rearrange_inputs
from mindspore.train.metrics.precision_recall import Precision, Recall

__all__ = ["Accuracy", "Loss", "Precision", "Recall", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "Metric", "EvaluationBase", "rearrange_inputs", "names", "get_metric_fn", "get_metrics"]

# MindSpore's factory names; the ones msjvm has no metric for raise NotImplementedError by name.
_FACTORY = {
    'accuracy': Accuracy,
    'acc': Accuracy,
    'topk': TopKCategoricalAccuracy,
    'top_1_accuracy': Top1CategoricalAccuracy,
    'top_5_accuracy': Top5CategoricalAccuracy,
    'loss': Loss,
    'precision': Precision,
    'recall': Recall,
}
_MINDSPORE_NAMES = ['F1', 'acc', 'accuracy', 'auc', 'bleu_score', 'confusion_matrix', 'confusion_matrix_metric',
                    'cosine_similarity', 'dice', 'hausdorff_distance', 'loss', 'mae', 'mean_surface_distance', 'mse',
                    'occlusion_sensitivity', 'perplexity', 'precision', 'recall', 'roc',
                    'root_mean_square_distance', 'top_1_accuracy', 'top_5_accuracy', 'topk']


def names():
    """Every metric name MindSpore knows (sorted)."""
    return list(_MINDSPORE_NAMES)


def get_metric_fn(name, *args, **kwargs):
    """A new metric object for ``name``."""
    if name not in _MINDSPORE_NAMES:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website "
                       f"for more details about supported metrics.")
    if name not in _FACTORY:
        raise NotImplementedError(f"The metric '{name}' is not implemented on msjvm yet.")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics):
    """``metrics`` (None, a dict name -> Metric, or a set of names) as a dict name -> Metric."""
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                                f"value in 'metrics' must be Metric, but got key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError("For 'get_metrics', the argument 'metrics' must be None, dict or set, "
                    "but got {}".format(metrics))
