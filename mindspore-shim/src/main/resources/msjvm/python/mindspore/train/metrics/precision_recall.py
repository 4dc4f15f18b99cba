"""``Precision`` and ``Recall`` (MindSpore's accumulation, including its multilabel per-sample sums).

Per-class results are numpy arrays where numpy is installed, as in MindSpore, else lists.
"""
import sys

from mindspore import _checkparam as validator
from mindspore.train.metrics.metric import EvaluationBase, rearrange_inputs


def _vector(values):
    try:
        import numpy  # pylint: disable=import-outside-toplevel
    except ImportError:
        return list(values)
    return numpy.array(values, dtype=numpy.float64)


class _PrecisionRecall(EvaluationBase):
    """Counts true positives over predicted (precision) or actual (recall) positives."""

    _CLASSES_TEXT = None

    def __init__(self, eval_type='classification'):
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self):
        self._class_num = 0
        self._true_positives = []
        self._positives = []
        self._true_positives_average = 0
        self._positives_average = 0

    @staticmethod
    def _denominator(y_pred_row, y_row):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._checked_inputs(inputs)
        class_num = self._class_num
        if self._type == "classification":
            if max(y.values) + 1 > class_num:
                raise ValueError(self._CLASSES_TEXT.format(class_num, max(y.values) + 1))
            # One-hot rows of the labels and of the predicted classes; sums over samples, per class.
            pred_class = y_pred.argmax_rows()
            denominators = [0.0] * class_num
            hits = [0.0] * class_num
            for p, t in zip(pred_class, y.values):
                denominators[p if self._NAME == "Precision" else int(t)] += 1.0
                if p == int(t):
                    hits[p] += 1.0
            if not self._true_positives:
                self._true_positives, self._positives = [0.0] * class_num, [0.0] * class_num
            self._true_positives = [a + b for a, b in zip(self._true_positives, hits)]
            self._positives = [a + b for a, b in zip(self._positives, denominators)]
        else:
            # As MindSpore: the (N, C) arrays are transposed to (C, N) and summed over axis 0, i.e. per
            # sample over its classes.
            hits, denominators = [], []
            for p_row, t_row in zip(y_pred.rows(), y.rows()):
                hits.append(float(sum(a * b for a, b in zip(p_row, t_row))))
                denominators.append(float(sum(p_row if self._NAME == "Precision" else t_row)))
            self._true_positives_average += sum(h / (d + self.eps) for h, d in zip(hits, denominators))
            self._positives_average += len(denominators)
            self._true_positives += hits
            self._positives += denominators

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError(f"The '{self._NAME}' can not be calculated, because the number of samples is 0, "
                               "please check whether your inputs (predicted value, true value) are empty, or "
                               "has called update method before calling eval method.")
        validator.check_value_type("average", average, [bool], self.__class__.__name__)
        result = [h / (d + self.eps) for h, d in zip(self._true_positives, self._positives)]
        if average:
            if self._type == "multilabel":
                return self._true_positives_average / (self._positives_average + self.eps)
            return sum(result) / len(result)
        return _vector(result)


class Precision(_PrecisionRecall):
    """True positives over predicted positives, per class (or averaged)."""

    _NAME = "Precision"
    _CLASS_NUM_END = ""
    _CLASSES_TEXT = ("For 'Precision.update', predicted value (input[0]) should have the same classes "
                     "number as true value (input[1]), but got predicted value classes {}, true value "
                     "classes {}.")


class Recall(_PrecisionRecall):
    """True positives over actual positives, per class (or averaged)."""

    _NAME = "Recall"
    _CLASSES_TEXT = ("For 'Recall.update', predicted value (input[0]) should have the same classes number "
                     "as true value (input[1]), but got predicted value classes {}, true value classes {}.")
