"""``mindspore.dataset.transforms``: TypeCast and OneHot, run in Java.

Arguments are checked as in MindSpore 2.10 (mindspore/dataset/transforms/validators.py); the
work happens in the engine (``dev.msjvm.engine.data.Transform``).
"""
from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.dataset.core.validator_helpers import check_positive, check_value, type_check

__all__ = ["TypeCast", "OneHot", "Compose"]


class BuiltinTransform:
    """A transform that runs in Java; ``_java`` is its ``dev.msjvm.engine.data.Transform``."""

    _name = None

    def _make(self, *args):
        data = host().datasets()
        self._java = data.transform(self._name, list(args)).java
        self._random = data.isRandom(self._java)

    def __call__(self, *columns):
        """Eager use: random transforms draw from a generator seeded with the dataset seed."""
        from mindspore.dataset.core import config  # pylint: disable=import-outside-toplevel
        return self._apply(columns, host().datasets().random(config.get_seed()).java if self._random else None)

    def _apply(self, columns, rng, in_map=False):
        """The column(s) made of ``columns[0]``: one Tensor, or a tuple of them (SlicePatches); ``in_map``
        reports a failure as a map does."""
        from mindspore.dataset.engine.datasets import to_tensor  # pylint: disable=import-outside-toplevel
        from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
        data, x = host().datasets(), to_tensor(columns[0])._java
        made = data.mapColumns(self._java, self._name, x, rng) if in_map else data.columns(self._java, x, rng)
        outs = [Tensor._wrap(t.java) for t in made]
        return outs[0] if len(outs) == 1 else tuple(outs)


def engine_dtype(data_type):
    """The engine DType name of a MindSpore or numpy type."""
    if isinstance(data_type, mstype.Type):
        return data_type.engine_name
    try:
        return mstype.pytype_to_dtype(data_type).engine_name
    except Exception:  # pylint: disable=broad-except
        type_check(data_type, (mstype.Type,), "data_type")
        raise


class TypeCast(BuiltinTransform):
    """Casts a column to ``data_type``."""

    _name = "TypeCast"

    def __init__(self, data_type):
        if data_type is None:
            type_check(data_type, (mstype.Type,), "data_type")
        self.data_type = data_type
        self._make(engine_dtype(data_type))


class OneHot(BuiltinTransform):
    """A class index to a one-hot vector of ``num_classes``."""

    _name = "OneHot"

    def __init__(self, num_classes, smoothing_rate=0.0):
        type_check(smoothing_rate, (int, float), "smoothing_rate")
        type_check(num_classes, (int,), "num_classes")
        check_positive(num_classes)
        check_value(smoothing_rate, [0., 1.], "smoothing_rate")
        if smoothing_rate != 0:
            raise NotImplementedError("OneHot with smoothing_rate > 0 is not supported by msjvm.")
        self.num_classes = num_classes
        self._make(num_classes)


class Compose:
    """Applies ``transforms`` in order (a list of transforms used as one)."""

    def __init__(self, transforms):
        type_check(transforms, (list,), "transforms")
        self.transforms = transforms

    def __call__(self, *columns):
        for t in self.transforms:
            columns = t(*columns)
            if not isinstance(columns, tuple):
                columns = (columns,)
        return columns[0] if len(columns) == 1 else columns
