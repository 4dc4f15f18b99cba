"""Loss cells as MindSpore 2.10 (``nn.MSELoss``, ``nn.SoftmaxCrossEntropyWithLogits``...).

Each is composed from engine operators, so autodiff and GRAPH_MODE need nothing special. The
reductions follow ``LossBase.get_loss``: cast to float32, weight, mean or sum over all axes, cast
back. Broadcasting follows the operators (``MAELoss`` on ``[32, 1]`` logits and ``[32]`` labels
averages a ``[32, 32]`` difference, exactly as MindSpore does).
"""
from mindspore import _checkparam as Validator
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.ops import operations as P

__all__ = ["LossBase", "MAELoss", "MSELoss", "L1Loss", "SoftmaxCrossEntropyWithLogits", "BCEWithLogitsLoss",
           "NLLLoss", "CrossEntropyLoss"]


def _check_is_tensor(param_name, input_data, cls_name):
    if input_data is not None and not isinstance(input_data, Tensor):
        raise TypeError(f"For '{cls_name}', the '{param_name}' must be 'Tensor', "
                        f"but got '{type(input_data).__name__}'")


def _check_reduction(reduction, cls_name):
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError(f"For '{cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                         f"but got {reduction}.")


class LossBase(Cell):
    """Base class of losses: ``get_loss`` applies weights and the reduction."""

    def __init__(self, reduction='mean'):
        super().__init__()
        _check_reduction(reduction, self.cls_name)
        self.average = reduction != 'sum'
        self.reduce = reduction != 'none'
        self.reduce_mean = P.ReduceMean()
        self.reduce_sum = P.ReduceSum()
        self.mul = P.Mul()
        self.cast = P.Cast()

    def get_axis(self, x):
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        input_dtype = x.dtype
        x = self.cast(x, mstype.float32)
        if isinstance(weights, Tensor):
            x = self.mul(self.cast(weights, mstype.float32), x)
        elif weights != 1.0:
            x = x * float(weights)
        if self.reduce and self.average:
            x = self.reduce_mean(x, self.get_axis(x))
        if self.reduce and not self.average:
            x = self.reduce_sum(x, self.get_axis(x))
        return self.cast(x, input_dtype)

    def construct(self, logits, labels):
        raise NotImplementedError


class _Loss(LossBase):
    """The deprecated name of ``LossBase`` that older networks subclass."""


class MAELoss(LossBase):
    """Mean absolute error ``|logits - labels|``."""

    def __init__(self, reduction='mean'):
        super().__init__(reduction)
        self.abs = P.Abs()

    def construct(self, logits, label):
        _check_is_tensor('logits', logits, self.cls_name)
        _check_is_tensor('labels', label, self.cls_name)
        return self.get_loss(self.abs(logits - label))


class MSELoss(LossBase):
    """Mean squared error ``(logits - labels) ** 2``."""

    def __init__(self, reduction='mean'):
        super().__init__(reduction)
        self.square = P.Square()

    def construct(self, logits, labels):
        _check_is_tensor('logits', logits, self.cls_name)
        _check_is_tensor('labels', labels, self.cls_name)
        return self.get_loss(self.square(logits - labels))


class L1Loss(LossBase):
    """``|logits - labels|`` with the reduction (``ops.l1_loss``)."""

    def __init__(self, reduction='mean'):
        super().__init__(reduction)
        self.reduction = reduction
        self.abs = P.Abs()

    def construct(self, logits, labels):
        _check_is_tensor('logits', logits, self.cls_name)
        _check_is_tensor('labels', labels, self.cls_name)
        return self.get_loss(self.abs(logits - labels))


class SoftmaxCrossEntropyWithLogits(LossBase):
    """Softmax cross entropy of logits ``[N, C]`` and labels (one-hot/probabilities, or class indices
    when ``sparse``); ``reduction`` defaults to ``'none'`` as in MindSpore."""

    def __init__(self, sparse=False, reduction='none'):
        super().__init__(reduction)
        self.sparse = Validator.check_bool(sparse, "sparse", self.cls_name)
        self.reduction = reduction
        self.softmax_cross_entropy = P.SoftmaxCrossEntropyWithLogits()
        self.one_hot = P.OneHot()
        self.on_value = Tensor(1.0, mstype.float32)
        self.off_value = Tensor(0., mstype.float32)
        self.sparse_softmax_cross_entropy = P.SparseSoftmaxCrossEntropyWithLogits()

    def construct(self, logits, labels):
        _check_is_tensor('logits', logits, self.cls_name)
        _check_is_tensor('labels', labels, self.cls_name)
        if self.sparse:
            if self.reduction == 'mean':
                return self.sparse_softmax_cross_entropy(logits, labels)
            labels = self.one_hot(labels, logits.shape[-1], self.on_value.astype(logits.dtype),
                                  self.off_value.astype(logits.dtype))
        x = self.softmax_cross_entropy(logits, labels)[0]
        return self.get_loss(x)


def _reduce_weighted(loss, weight_sum, reduction):
    if reduction == 'none':
        return loss
    total = P.ReduceSum()(loss, ())
    if reduction == 'sum':
        return total
    return total / weight_sum


class NLLLoss(LossBase):
    """Negative log likelihood of log-probabilities ``[N, C]`` at integer class labels ``[N]``."""

    def __init__(self, weight=None, ignore_index=-100, reduction='mean'):
        super().__init__(reduction)
        Validator.check_value_type('ignore_index', ignore_index, int, self.cls_name)
        if weight is not None:
            Validator.check_value_type("weight", weight, [Tensor], self.cls_name)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction

    def construct(self, logits, labels):
        return _nll(logits, labels, self.weight, self.ignore_index, self.reduction, 0.0)


def _nll(log_probs, labels, weight, ignore_index, reduction, label_smoothing):
    """NLL (with optional label smoothing) of ``[N, C]`` log-probabilities and ``[N]`` class indices."""
    classes = log_probs.shape[1]
    dtype = log_probs.dtype
    on, off = Tensor(1.0, dtype), Tensor(0.0, dtype)
    hot = P.OneHot()(labels, classes, on, off)
    keep = P.Cast()(labels != ignore_index, dtype).reshape((-1, 1))
    hot = hot * keep
    w = weight.astype(dtype) if weight is not None else None
    picked_w = hot * w if w is not None else hot
    per_sample_w = P.ReduceSum()(picked_w, (1,))
    loss = -P.ReduceSum()(log_probs * picked_w, (1,))
    if label_smoothing > 0:
        spread = log_probs * w if w is not None else log_probs
        smooth = -P.ReduceSum()(spread * keep, (1,)) / classes
        loss = loss * (1 - label_smoothing) + smooth * label_smoothing
    return _reduce_weighted(loss, P.ReduceSum()(per_sample_w, ()), reduction)


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits ``[N, C]`` with class indices ``[N]`` or probabilities ``[N, C]``."""

    def __init__(self, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0):
        super().__init__(reduction)
        Validator.check_value_type('ignore_index', ignore_index, int, self.cls_name)
        Validator.check_value_type('label_smoothing', label_smoothing, float, self.cls_name)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'label_smoothing' must be in range [0.0, 1.0], "
                             f"but got {label_smoothing}.")
        if weight is not None:
            Validator.check_value_type("weight", weight, [Tensor], self.cls_name)
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def construct(self, logits, labels):
        _check_is_tensor('logits', logits, self.cls_name)
        _check_is_tensor('labels', labels, self.cls_name)
        log_probs = P.LogSoftmax(1)(logits)
        if labels.ndim == logits.ndim:
            classes = logits.shape[1]
            if self.label_smoothing > 0:
                labels = labels * (1 - self.label_smoothing) + self.label_smoothing / classes
            weighted = log_probs * self.weight.astype(logits.dtype) if self.weight is not None else log_probs
            loss = -P.ReduceSum()(weighted * labels, (1,))
            if self.reduction == 'mean':
                return P.ReduceMean()(loss, ())
            return P.ReduceSum()(loss, ()) if self.reduction == 'sum' else loss
        return _nll(log_probs, labels, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of logits and targets, with optional ``weight`` and ``pos_weight``."""

    def __init__(self, reduction='mean', weight=None, pos_weight=None):
        super().__init__()
        _check_reduction(reduction, self.cls_name)
        self.reduction = reduction
        if isinstance(weight, Parameter):
            raise TypeError(f"For '{self.cls_name}', the 'weight' can not be a Parameter.")
        if isinstance(pos_weight, Parameter):
            raise TypeError(f"For '{self.cls_name}', the 'pos_weight' can not be a Parameter.")
        self.weight = weight
        self.pos_weight = pos_weight

    def construct(self, input, target):  # pylint: disable=redefined-builtin
        _check_is_tensor('input', input, self.cls_name)
        _check_is_tensor('target', target, self.cls_name)
        x, t = input, target
        # log(1 + exp(-x)) computed stably as max(-x, 0) + log(exp(-max) + exp(-x - max)).
        neg = P.Maximum()(-x, 0.0)
        softplus = neg + P.Log()(P.Exp()(-neg) + P.Exp()(-x - neg))
        if self.pos_weight is not None:
            log_weight = (self.pos_weight - 1) * t + 1
            loss = (1 - t) * x + log_weight * softplus
        else:
            loss = (1 - t) * x + softplus
        if self.weight is not None:
            loss = loss * self.weight
        if self.reduction == 'mean':
            return P.ReduceMean()(loss, ())
        return P.ReduceSum()(loss, ()) if self.reduction == 'sum' else loss
