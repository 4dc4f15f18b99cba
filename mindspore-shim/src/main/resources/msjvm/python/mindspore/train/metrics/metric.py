"""Metric base classes (MindSpore's names, checks and messages), computed on plain Python values.

MindSpore's metrics convert inputs to numpy arrays; here they become :class:`_Array` (a shape and
a flat row-major list), so metrics run where numpy is not installed.
"""
import functools
from abc import ABCMeta, abstractmethod

_EVAL_TYPES = {'classification', 'multilabel'}


class _Array:
    """A row-major array of Python numbers: ``shape``, ``ndim``, ``values`` (flat)."""

    __slots__ = ("shape", "values")

    def __init__(self, shape, values):
        self.shape = tuple(shape)
        self.values = values

    @property
    def ndim(self):
        return len(self.shape)

    def rows(self):
        """The array as ``shape[0]`` rows of ``shape[1]`` values (rank 2)."""
        width = self.shape[1]
        return [self.values[r * width:(r + 1) * width] for r in range(self.shape[0])]

    def argmax_rows(self):
        """The first index of each row's maximum (numpy's ``argmax(axis=1)`` on rank 2)."""
        return [max(range(len(row)), key=row.__getitem__) for row in self.rows()]


def _nested_shape(data):
    shape = []
    while isinstance(data, (list, tuple)):
        shape.append(len(data))
        data = data[0] if data else None
    return shape


def _flatten(data, out):
    if isinstance(data, (list, tuple)):
        for d in data:
            _flatten(d, out)
    else:
        out.append(data)
    return out


def rearrange_inputs(func):
    """Reorders ``update``'s inputs by the metric's ``indexes`` (see ``Metric.set_indexes``)."""
    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        inputs = inputs if not indexes else [inputs[i] for i in indexes]
        return func(self, *inputs)
    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of metrics: ``clear``, ``update`` and ``eval``."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        if isinstance(data, Tensor):
            shape = tuple(data.shape)
            values = data.reshape(-1).tolist() if shape else [data.item()]
            return _Array(shape, values)
        if isinstance(data, list):
            return _Array(_nested_shape(data), _flatten(data, []))
        if type(data).__name__ == "ndarray":
            return _Array(data.shape, data.reshape(-1).tolist())
        raise TypeError(f"For 'Metric' and its derived classes, the input data type must be tensor, list or "
                        f"numpy.ndarray, but got {type(data)}.")

    @property
    def indexes(self):
        """The order ``update`` takes its inputs in (None: as given)."""
        return getattr(self, '_indexes', None)

    def set_indexes(self, indexes):
        """Rearranges ``update``'s inputs: ``indexes`` picks them by position."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its elements must "
                             "be int, please check whether it is correct.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self):
        raise NotImplementedError('Must define clear function to use this base class')

    @abstractmethod
    def eval(self):
        raise NotImplementedError('Must define eval function to use this base class')

    @abstractmethod
    def update(self, *inputs):
        raise NotImplementedError('Must define update function to use this base class')


class EvaluationBase(Metric):
    """Base of classification/multilabel metrics."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in _EVAL_TYPES:
            raise TypeError("The argument 'eval_type' must be in {}, but got {}".format(_EVAL_TYPES, eval_type))
        self._type = eval_type

    def _check_shape(self, y_pred, y):
        if self._type == 'classification':
            if y_pred.ndim != y.ndim + 1:
                raise ValueError("In classification case, the dimension of y_pred (predicted value) should equal to "
                                 "the dimension of y (true value) add 1, but got y_pred dimension: {} and y "
                                 "dimension: {}.".format(y_pred.ndim, y.ndim))
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError("In classification case, y_pred (predicted value) shape and y (true value) shape "
                                 "can not match, y shape should be equal to y_pred shape that the value at index 1 "
                                 "is deleted. Such as y_pred shape (1, 2, 3), then y shape should be (1, 3). "
                                 "But got y_pred shape {} and y shape {}".format(y_pred.shape, y.shape))
        else:
            if y_pred.ndim != y.ndim:
                raise ValueError("In {} case, the dimension of y_pred (predicted value) should equal to the dimension"
                                 " of y (true value), but got y_pred dimension: {} and y dimension: {}."
                                 .format(self._type, y_pred.ndim, y.ndim))
            if y_pred.shape != y.shape:
                raise ValueError("In {} case, the shape of y_pred (predicted value) should equal to the shape of y "
                                 "(true value), but got y_pred shape: {} and y shape: {}."
                                 .format(self._type, y_pred.shape, y.shape))

    # Message details that differ between MindSpore's metrics (set by each subclass).
    _NAME = None
    _COUNT_END = "."
    _CLASS_NUM_END = "."

    def _checked_inputs(self, inputs):
        """``(y_pred, y)`` of ``update``'s inputs after MindSpore's checks: one-hot labels become class
        indices (classification), and the first call fixes the number of classes."""
        name = self._NAME
        if len(inputs) != 2:
            raise ValueError(f"For '{name}.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}{self._COUNT_END}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == 'classification' and y_pred.ndim == y.ndim and _check_onehot_data(y):
            y = _Array((y.shape[0],), y.argmax_rows())
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{name}.update', class number not match, last input predicted data contain "
                             f"{self._class_num} classes, but current predicted data contain {y_pred.shape[1]} "
                             f"classes, please check your predicted value(inputs[0]){self._CLASS_NUM_END}")
        return y_pred, y

    def _check_value(self, y_pred, y):
        if self._type != 'classification' and not (all(v * v == v for v in y_pred.values)
                                                   and all(v * v == v for v in y.values)):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y (true value) should "
                             "be 0 or 1.Please check whether your inputs y_pred and y are correct.")

    def clear(self):
        raise NotImplementedError

    def update(self, *inputs):
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError


def _check_onehot_data(data):
    """Whether ``data`` (rank >= 2) is one-hot along axis 1 (rank 2 here)."""
    if data.ndim != 2 or not all(v * v == v for v in data.values):
        return False
    return all(sum(row) == 1 for row in data.rows())
