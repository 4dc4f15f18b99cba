"""Dataset sources and pipeline operations, with MindSpore 2.10's argument checks and semantics.

A pipeline is a chain of ``Dataset`` nodes; iterating one epoch asks each node for rows (lists of
``mindspore.Tensor``, one per column). ``MnistDataset -> map(built-in transforms) -> batch`` runs
as one Java loop that hands over whole batches (``MnistBatches``); other pipelines move per row
here, with transforms and stacking still in Java. Python callables in ``map`` receive numpy arrays
when numpy is importable, else ``mindspore.Tensor``s.
"""
import itertools
import numbers
import os
import random

from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.common._nested import plain_tensor
from mindspore.common.tensor import Tensor
from mindspore.dataset.core import config
from mindspore.dataset.core.validator_helpers import (INT32_MAX, check_columns, check_dir, check_optional,
                                                      check_pos_int32, check_sampler_shuffle_shard_options,
                                                      check_valid_str, check_value, type_check)
from mindspore.dataset.transforms.transforms import BuiltinTransform, Compose

__all__ = ["Dataset", "MnistDataset", "Cifar10Dataset", "GeneratorDataset", "NumpySlicesDataset", "to_tensor"]


_HOST = {}


def _data():
    """This interpreter's ``DataHost`` (stateless; cached so per-row calls skip re-wrapping)."""
    if "data" not in _HOST:
        _HOST["data"] = host().datasets()
    return _HOST["data"]


def _numpy():
    try:
        import numpy  # pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return numpy


def _scalar_kind(values):
    """float64 if any float, bool if all bools, else int64 (numpy's defaults for Python data)."""
    if any(isinstance(v, float) for v in values):
        return mstype.float64
    if values and all(isinstance(v, bool) for v in values):
        return mstype.bool_
    return mstype.int64


def _leaves(value):
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _leaves(v)]
    return [value]


def to_tensor(value, dtype=None):
    """A pipeline value as a ``mindspore.Tensor`` with numpy's type for Python data."""
    if isinstance(value, Tensor):
        return value
    np = _numpy()
    if np is not None and isinstance(value, (np.ndarray, np.generic)):
        return Tensor(np.asarray(value))
    if isinstance(value, (list, tuple)):
        fast = plain_tensor(value, dtype.engine_name if dtype else None, "FLOAT64")
        if fast is not None:
            return Tensor._wrap(fast)
    if isinstance(value, (bool, numbers.Number, list, tuple)):
        leaves = _leaves(value)
        for leaf in leaves:
            if not isinstance(leaf, (bool, numbers.Number)) or isinstance(leaf, complex):
                raise TypeError(f"Unsupported data type in a dataset column: {type(leaf)}.")
        return Tensor(value, dtype=dtype or _scalar_kind(leaves))
    raise TypeError(f"Unsupported data type in a dataset column: {type(value)}.")


def _wrap_row(java_tensors):
    return [Tensor._wrap(t.java) for t in java_tensors]


def _epoch_seed(epoch):
    return config.get_seed() * 1000003 + epoch


class Dataset:
    """A node of a pipeline; the operations below return new nodes over this one."""

    def __init__(self, children=()):
        self.children = list(children)

    # ---- operations ----
    def map(self, operations=None, input_columns=None, output_columns=None, num_parallel_workers=None,
            **kwargs):  # pylint: disable=unused-argument
        """Applies ``operations`` in order to ``input_columns`` (default: the first column)."""
        return MapDataset(self, operations, input_columns, output_columns)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
              **kwargs):  # pylint: disable=unused-argument
        """Stacks ``batch_size`` consecutive rows; the last smaller batch is kept unless dropped."""
        if not (isinstance(batch_size, int) and not isinstance(batch_size, bool)) and not callable(batch_size):
            raise TypeError("batch_size should either be an int or a callable.")
        if callable(batch_size):
            raise NotImplementedError("A callable batch_size is not supported by msjvm yet.")
        check_pos_int32(batch_size, "batch_size")
        type_check(drop_remainder, (bool,), "drop_remainder")
        return BatchDataset(self, batch_size, drop_remainder)

    def shuffle(self, buffer_size):
        """Shuffles rows through a buffer of ``buffer_size`` rows."""
        type_check(buffer_size, (int,), "buffer_size")
        check_value(buffer_size, [2, INT32_MAX], "buffer_size")
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        """Repeats the data ``count`` times (None or -1: forever)."""
        type_check(count, (int, type(None)), "repeat")
        if isinstance(count, int) and ((count <= 0 and count != -1) or count > INT32_MAX):
            raise ValueError("count should be either -1 or positive integer, range[1, INT32_MAX].")
        return self if count == 1 else RepeatDataset(self, -1 if count is None else count)

    def take(self, count=-1):
        """The first ``count`` rows (-1: all)."""
        type_check(count, (int,), "count")
        if (count <= 0 and count != -1) or count > INT32_MAX:
            raise ValueError(f"count should be either -1 or within the required interval of (0, {INT32_MAX}], "
                             f"got {count}.")
        return TakeDataset(self, count)

    def skip(self, count):
        """All rows but the first ``count``."""
        type_check(count, (int,), "count")
        check_value(count, (0, INT32_MAX), "count")
        return SkipDataset(self, count)

    def project(self, columns):
        """Keeps ``columns``, in that order."""
        check_columns(columns, "columns")
        return ProjectDataset(self, [columns] if isinstance(columns, str) else list(columns))

    def rename(self, input_columns, output_columns):
        """Renames ``input_columns`` to ``output_columns``."""
        check_columns(input_columns, "input_columns")
        check_columns(output_columns, "output_columns")
        inputs = [input_columns] if isinstance(input_columns, str) else list(input_columns)
        outputs = [output_columns] if isinstance(output_columns, str) else list(output_columns)
        if len(inputs) != len(outputs):
            raise ValueError("Number of column in input_columns and output_columns is not equal.")
        return RenameDataset(self, inputs, outputs)

    # ---- iteration and queries ----
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator of lists of column values, epoch after epoch."""
        from mindspore.dataset.engine.iterators import TupleIterator  # pylint: disable=import-outside-toplevel
        return TupleIterator(self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator of dicts from column name to value."""
        from mindspore.dataset.engine.iterators import DictIterator  # pylint: disable=import-outside-toplevel
        return DictIterator(self, None, num_epochs, output_numpy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def get_dataset_size(self):
        """Rows (or batches) in one epoch."""
        return self._size()

    def get_col_names(self):
        """The column names of the rows this node yields."""
        return list(self._names())

    def get_batch_size(self):
        """The batch size of the nearest batch below, else 1."""
        node = self
        while node.children:
            if isinstance(node, BatchDataset):
                return node.batch_size
            node = node.children[0]
        return 1

    # ---- to implement per node ----
    def _names(self):
        return self.children[0]._names()

    def _size(self):
        return self.children[0]._size()

    def _rows(self, epoch):
        """The rows of epoch ``epoch`` (0, 1, ...)."""
        raise NotImplementedError


class _SourceDataset(Dataset):
    """A source reading rows by index through an order from Java (shuffle, shard, num_samples)."""

    def __init__(self, num_samples, shuffle, sampler, num_shards, shard_id):
        super().__init__()
        check_optional([("num_samples", num_samples), ("num_shards", num_shards), ("shard_id", shard_id)], (int,))
        if shuffle is not None:
            type_check(shuffle, (bool,), "shuffle")
        check_sampler_shuffle_shard_options(shuffle, sampler, num_shards, shard_id, num_samples)
        if sampler is not None:
            raise NotImplementedError("Samplers are not supported by msjvm yet; use shuffle/num_shards.")
        self.num_samples = num_samples
        self.shuffle_flag = True if shuffle is None else shuffle
        self.num_shards = num_shards
        self.shard_id = shard_id

    def _count(self):
        raise NotImplementedError

    def _order(self, epoch):
        return _data().order(self._count(), self.shuffle_flag, _epoch_seed(epoch), self.num_shards or 0,
                             self.shard_id or 0, self.num_samples or 0)

    def _size(self):
        n = self._count()
        if self.num_shards:
            n = -(-n // self.num_shards)
        return min(n, self.num_samples) if self.num_samples else n


class _VisionFolderDataset(_SourceDataset):
    """A vision source over the files of ``dataset_dir`` (MnistDataset, Cifar10Dataset): the same
    signature and checks (MindSpore's check_mnist_cifar_dataset)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):  # pylint: disable=unused-argument
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "all"], "usage")
        super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        self.dataset_dir = dataset_dir
        self.usage = usage or "all"


class MnistDataset(_VisionFolderDataset):
    """The MNIST idx files under ``dataset_dir``: columns ``image`` (uint8 [28, 28, 1]) and ``label``."""

    _mnist = None

    def _files_present(self):
        prefixes = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}[self.usage]
        return any(os.path.isfile(os.path.join(self.dataset_dir, p + "-images-idx3-ubyte")) for p in prefixes)

    def _data(self):
        if self._mnist is None:
            self._mnist = _data().mnist(self.dataset_dir, self.usage)
        return self._mnist

    def _count(self):
        return self._data().size() if self._files_present() else 0

    def _names(self):
        return ["image", "label"]

    def _rows(self, epoch):
        data, order = self._data().java, self._order(epoch)
        for k in range(order.size()):
            yield _wrap_row(_data().mnistSample(data, order.java, k))


class Cifar10Dataset(_VisionFolderDataset):
    """The CIFAR-10 binary files under ``dataset_dir``: columns ``image`` (uint8 [32, 32, 3]) and ``label``."""

    _cifar = None
    _n = None

    def _count(self):
        if self._n is None:
            self._n = _data().cifar10Count(self.dataset_dir, self.usage)
        return self._n

    def _names(self):
        return ["image", "label"]

    def _rows(self, epoch):
        order = self._order(epoch)
        if self._cifar is None:
            self._cifar = _data().cifar10(self.dataset_dir, self.usage)
        for k in range(order.size()):
            yield _wrap_row(_data().cifar10Sample(self._cifar.java, order.java, k))


class GeneratorDataset(_SourceDataset):
    """Rows from a Python generator function, an iterable, or a random-access source."""

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None):  # pylint: disable=unused-argument
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not hasattr(source, "__getitem__") and num_shards is not None:
            raise ValueError("num_shards is not supported if source does not have attribute '__getitem__'.")
        if not hasattr(source, "__getitem__") and sampler is not None:
            raise ValueError("sampler is not supported if source does not have attribute '__getitem__'.")
        if column_names is None:
            raise ValueError("Column names are missing, please specify column_names or schema.")
        check_columns(column_names, "column_names")
        super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        self.source = source
        self.column_names = [column_names] if isinstance(column_names, str) else list(column_names)

    def _names(self):
        return self.column_names

    def _count(self):
        if self.random_access:
            return len(self.source)
        return sum(1 for _ in self._iterate())

    def _iterate(self):
        return iter(self.source() if callable(self.source) and not hasattr(self.source, "__iter__")
                    else self.source)

    def _row(self, item):
        values = item if isinstance(item, tuple) else (item,)
        if len(values) != len(self.column_names):
            _data().fail(f"Invalid columns, the size of column_names should be greater than or equal to the size "
                         f"of columns of the data, but got column_names: {len(self.column_names)}, "
                         f"size of columns: {len(values)}.")
        return [to_tensor(v) for v in values]

    def _rows(self, epoch):
        if self.random_access:
            for i in self._order(epoch).toList():
                yield self._row(self.source[i])
        else:
            rows = self._iterate()
            if self.num_samples:
                rows = itertools.islice(rows, self.num_samples)
            for item in rows:
                yield self._row(item)


class NumpySlicesDataset(_SourceDataset):
    """Rows sliced along the first axis of a list, a tuple of columns, or a dict of named columns."""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):  # pylint: disable=unused-argument
        super().__init__(num_samples, shuffle, sampler, num_shards, shard_id)
        if isinstance(data, dict):
            names, columns = list(data.keys()), list(data.values())
        elif isinstance(data, tuple):
            names, columns = [f"column_{i}" for i in range(len(data))], list(data)
            self._check_names(column_names, len(data), "tuple")
        else:
            names, columns = ["column_0"], [data]
            self._check_names(column_names, 1, "list")
        if column_names is not None:
            names = [column_names] if isinstance(column_names, str) else list(column_names)
        lengths = {len(c) for c in columns}
        if len(lengths) > 1:
            raise ValueError("Invalid data, all the columns of the data should have the same length.")
        self.column_names = names
        self.columns = columns

    @staticmethod
    def _check_names(column_names, count, kind):
        if column_names is None:
            return
        given = 1 if isinstance(column_names, str) else len(column_names)
        if given != count:
            suffix = f" as data is {kind}" if kind == "list" else ""
            raise ValueError(f"Num of input column names is {given}, but required is {count}{suffix}.")

    def _names(self):
        return self.column_names

    def _count(self):
        return len(self.columns[0])

    def _rows(self, epoch):
        for i in self._order(epoch).toList():
            yield [to_tensor(c[i]) for c in self.columns]


def _column_list(columns):
    return [columns] if isinstance(columns, str) else list(columns)


def _missing(names, wanted):
    return next((c for c in wanted if c not in names), None)


class MapDataset(Dataset):
    """``map``: the outputs of ``operations`` replace ``input_columns`` in place."""

    def __init__(self, child, operations, input_columns, output_columns):
        super().__init__([child])
        if operations is None:
            raise ValueError("operations is not provided.")
        self.operations = []
        for op in operations if isinstance(operations, list) else [operations]:
            # A Compose's transforms run as the map's own, so random ones draw from the map's generator.
            self.operations.extend(op.transforms if isinstance(op, Compose) else [op])
        for op in self.operations:
            if not callable(op):
                raise TypeError(f"Operations should be a callable Python object, but got: {op}.")
        if input_columns is not None:
            check_columns(input_columns, "input_columns")
        if output_columns is not None:
            check_columns(output_columns, "output_columns")
        self.input_columns = None if input_columns is None else _column_list(input_columns)
        self.output_columns = None if output_columns is None else _column_list(output_columns)

    def _inputs(self, names):
        inputs = self.input_columns or names[:1]
        missing = _missing(names, inputs)
        if missing is not None:
            _data().fail(f"Invalid parameter, input column name: {missing} doesn't exist in the dataset columns.")
        return inputs

    def _names(self):
        """MapOp::CreateFinalColMap: as many outputs as inputs take the inputs' places; otherwise the
        outputs come first, then the other columns in order."""
        names = self.children[0]._names()
        inputs = self._inputs(names)
        outputs = self.output_columns or inputs
        if len(outputs) == len(inputs):
            renamed = dict(zip(inputs, outputs))
            return [renamed.get(n, n) for n in names]
        return outputs + [n for n in names if n not in inputs]

    def builtin_only(self):
        """Whether every operation runs in Java on a single column kept in place."""
        one = len(self.input_columns or [None]) == 1 and len(self.output_columns or [None]) == 1
        return one and all(isinstance(op, BuiltinTransform) for op in self.operations)

    def _rows(self, epoch):
        names = self.children[0]._names()
        inputs = self._inputs(names)
        positions = [names.index(c) for c in inputs]
        out_names = self._names()
        outputs = self.output_columns or inputs
        np = _numpy()
        random_ops = any(isinstance(op, BuiltinTransform) and op._random for op in self.operations)
        rng = _data().random(_epoch_seed(epoch)).java if random_ops else None
        for row in self.children[0]._rows(epoch):
            values = [row[p] for p in positions]
            for op in self.operations:
                if isinstance(op, BuiltinTransform):
                    result = op._apply(values, rng, in_map=True)
                else:
                    args = [v.asnumpy() for v in values] if np is not None else values
                    result = op(*args)
                values = list(result) if isinstance(result, tuple) else [result]
            if len(values) != len(outputs):
                _data().failMapColumns(len(values), len(outputs))
            by_name = dict(zip(names, row))
            by_name.update(zip(outputs, (to_tensor(v) for v in values)))
            yield [by_name[n] for n in out_names]


class BatchDataset(Dataset):
    """``batch``: stacks rows column by column in Java."""

    def __init__(self, child, batch_size, drop_remainder):
        super().__init__([child])
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder

    def _size(self):
        n = self.children[0]._size()
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _java_plan(self):
        """(mnist source, per-column transform lists) when the child chain can run in Java."""
        maps, node = [], self.children[0]
        while isinstance(node, MapDataset) and node.builtin_only():
            maps.append(node)
            node = node.children[0]
        if not isinstance(node, MnistDataset):
            return None
        names = list(node._names())
        transforms = [[], []]
        for m in reversed(maps):
            column = m._inputs(names)[0]
            index = names.index(column)
            transforms[index].extend(op._java for op in m.operations)
            names[index] = (m.output_columns or [column])[0]
        return node, transforms

    def _java_batches(self, epoch):
        """The Java batch source of ``epoch`` (a ``MnistBatches``) when the whole chain runs in Java,
        else None; ``Model``'s sink mode pulls batches from it without Python."""
        plan = self._java_plan()
        if plan is None:
            return None
        source, transforms = plan
        return _data().mnistBatches(source._data().java, source._order(epoch).java, transforms,
                                    self.batch_size, self.drop_remainder, _epoch_seed(epoch))

    def _rows(self, epoch):
        batches = self._java_batches(epoch)
        if batches is not None:
            while True:
                batch = batches.next()
                if batch is None:
                    return
                yield _wrap_row(batch)
        rows = []
        for row in self.children[0]._rows(epoch):
            rows.append(row)
            if len(rows) == self.batch_size:
                yield self._stack(rows)
                rows = []
        if rows and not self.drop_remainder:
            yield self._stack(rows)

    @staticmethod
    def _stack(rows):
        return [Tensor._wrap(_data().stack([r[c]._java for r in rows], c).java) for c in range(len(rows[0]))]


class ShuffleDataset(Dataset):
    """``shuffle``: a seeded reservoir of ``buffer_size`` rows (MindSpore's algorithm, not its order)."""

    def __init__(self, child, buffer_size):
        super().__init__([child])
        self.buffer_size = buffer_size

    def _rows(self, epoch):
        rng = random.Random(_epoch_seed(epoch))
        buffer = []
        for row in self.children[0]._rows(epoch):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            j = rng.randrange(len(buffer))
            yield buffer[j]
            buffer[j] = row
        rng.shuffle(buffer)
        yield from buffer


class RepeatDataset(Dataset):
    """``repeat``: each repetition is a fresh epoch of the child (reshuffled)."""

    def __init__(self, child, count):
        super().__init__([child])
        self.count = count

    def _size(self):
        return self.children[0]._size() * self.count if self.count > 0 else -1

    def _rows(self, epoch):
        repetitions = itertools.count() if self.count < 0 else range(self.count)
        for r in repetitions:
            child_epoch = epoch * self.count + r if self.count > 0 else r
            yield from self.children[0]._rows(child_epoch)


class TakeDataset(Dataset):
    """``take``: the first ``count`` rows."""

    def __init__(self, child, count):
        super().__init__([child])
        self.count = count

    def _size(self):
        n = self.children[0]._size()
        return n if self.count == -1 else min(n, self.count)

    def _rows(self, epoch):
        rows = self.children[0]._rows(epoch)
        return rows if self.count == -1 else itertools.islice(rows, self.count)


class SkipDataset(Dataset):
    """``skip``: all rows after the first ``count``."""

    def __init__(self, child, count):
        super().__init__([child])
        self.count = count

    def _size(self):
        return max(self.children[0]._size() - self.count, 0)

    def _rows(self, epoch):
        return itertools.islice(self.children[0]._rows(epoch), self.count, None)


class ProjectDataset(Dataset):
    """``project``: the listed columns in the listed order."""

    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = columns

    def _names(self):
        missing = _missing(self.children[0]._names(), self.columns)
        if missing is not None:
            _data().fail(f"Invalid column, column name: {missing} does not exist.")
        return list(self.columns)

    def _rows(self, epoch):
        names = self.children[0]._names()
        self._names()
        positions = [names.index(c) for c in self.columns]
        for row in self.children[0]._rows(epoch):
            yield [row[p] for p in positions]


class RenameDataset(Dataset):
    """``rename``: new names for some columns, same values."""

    def __init__(self, child, inputs, outputs):
        super().__init__([child])
        self.inputs = inputs
        self.outputs = outputs

    def _names(self):
        names = self.children[0]._names()
        if _missing(names, self.inputs) is not None:
            _data().fail("Invalid column, column to be renamed does not exist.")
        mapping = dict(zip(self.inputs, self.outputs))
        return [mapping.get(n, n) for n in names]

    def _rows(self, epoch):
        self._names()
        return self.children[0]._rows(epoch)
