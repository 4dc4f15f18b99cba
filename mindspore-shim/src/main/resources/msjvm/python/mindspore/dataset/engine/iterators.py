"""Dataset iterators: one epoch per pass of a ``for`` loop, up to ``num_epochs`` passes."""

__all__ = ["TupleIterator", "DictIterator"]


class _Iterator:
    def __init__(self, dataset, columns, num_epochs, output_numpy):
        self._dataset = dataset
        self._names = dataset.get_col_names()
        self._positions = None
        if columns is not None:
            wanted = [columns] if isinstance(columns, str) else list(columns)
            self._positions = [self._names.index(c) for c in wanted]
        self._num_epochs = num_epochs
        self._output_numpy = output_numpy
        self._epoch = 0
        self._rows = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._rows is None:
            if 0 < self._num_epochs <= self._epoch:
                raise StopIteration
            self._rows = self._dataset._rows(self._epoch)  # pylint: disable=protected-access
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            self._epoch += 1
            raise
        if self._output_numpy:
            row = [t.asnumpy() for t in row]
        return self._shape(row)

    def _shape(self, row):
        raise NotImplementedError

    def get_next(self):
        """The next row."""
        return next(self)


class TupleIterator(_Iterator):
    """Rows as lists of column values."""

    def _shape(self, row):
        return row if self._positions is None else [row[p] for p in self._positions]


class DictIterator(_Iterator):
    """Rows as dicts from column name to value."""

    def _shape(self, row):
        return dict(zip(self._names, row))
