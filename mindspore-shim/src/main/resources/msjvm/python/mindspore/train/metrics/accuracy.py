"""``Accuracy``, ``Loss`` and the top-k accuracies."""
from mindspore.train.metrics.metric import EvaluationBase, Metric, _Array, _check_onehot_data, rearrange_inputs


class Accuracy(EvaluationBase):
    """The fraction of samples whose highest logit is the label (or, multilabel, all labels match)."""

    _NAME = "Accuracy"
    _COUNT_END = ""

    def __init__(self, eval_type='classification'):
        super().__init__(eval_type)
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._checked_inputs(inputs)
        if y_pred.ndim != 2:
            raise ValueError(f"For 'Accuracy.update', predictions of rank {y_pred.ndim} are not supported on msjvm "
                             "(rank 2 only).")
        if self._type == 'classification':
            hits = [int(p == t) for p, t in zip(y_pred.argmax_rows(), y.values)]
        else:
            hits = [int(a == b) for a, b in zip(y_pred.rows(), y.rows())]
        self._correct_num += sum(hits)
        self._total_num += len(hits)

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Accuracy' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs(predicted value, true value) are empty, "
                               "or has called update method before calling eval method.")
        return self._correct_num / self._total_num


class Loss(Metric):
    """The mean of the losses given to ``update``."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 1:
            raise ValueError("For 'Loss.update', it needs 1 input (loss), but got {}".format(len(inputs)))
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = _Array((1,), loss.values)
        if loss.ndim != 1:
            raise ValueError("For 'Loss.update', the dimension of your input (loss) must be 1, "
                             "but got {}.".format(loss.ndim))
        self._sum_loss += sum(loss.values) / len(loss.values)
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples is 0, please "
                               "check whether has called update method before calling eval method.")
        return self._sum_loss / self._total_num


class TopKCategoricalAccuracy(EvaluationBase):
    """The fraction of samples whose label is among the ``k`` highest logits."""

    def __init__(self, k):
        super().__init__('classification')
        if not isinstance(k, int):
            raise TypeError("For 'TopKCategoricalAccuracy', the type of "
                            "the argument 'k' should be int, but got 'k' type: {}.".format(type(k)))
        if k < 1:
            raise ValueError("For 'TopKCategoricalAccuracy', "
                             "the argument 'k' must be at least 1, but got 'k' value: {}.".format(k))
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'TopKCategoricalAccuracy.update', "
                             "it needs 2 inputs (predicted value, true value), "
                             "but got 'inputs' size: {}.".format(len(inputs)))
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = _Array((y.shape[0],), y.argmax_rows())
        for row, label in zip(y_pred.rows(), y.values):
            # numpy's argsort(-row) is stable: ties keep the lower index first.
            top = sorted(range(len(row)), key=lambda i, r=row: -r[i])[:self.k]
            self._correct_num += int(label in top)
            self._samples_num += 1

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' "
                               "can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs (predicted value, true value) are empty, "
                               "or has called update method before calling eval method.")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self):
        super().__init__(5)
