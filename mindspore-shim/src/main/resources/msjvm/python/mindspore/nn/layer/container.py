"""``nn.SequentialCell`` and ``nn.CellList``: sub-cells named ``0``, ``1``... (parameters ``0.weight``)."""
from collections import OrderedDict

from mindspore.nn.cell import Cell

__all__ = ["SequentialCell", "CellList"]


def _check_cell(cell, cls_name):
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{cls_name}', each cell must be subclass of Cell, but got {type(cell).__name__}.")
    return cell


def _valid_index(length, index, cls_name):
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"For '{cls_name}', the type of 'index' must be int or slice, but got "
                        f"{type(index).__name__}.")
    if not -length <= index < length:
        raise IndexError(f"For '{cls_name}', the value of 'index' must be a number in range [{-length}, {length}), "
                         f"but got {index}.")
    return index % length


class SequentialCell(Cell):
    """Runs its cells in order, each on the previous one's output."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, _check_cell(cell, self.cls_name))
                cell.update_parameters_name(name + ".")
            return
        if len(args) == 1 and isinstance(args[0], list):
            cells = args[0]
        elif len(args) == 1 and not isinstance(args[0], Cell):
            raise TypeError(f"For '{self.cls_name}', the 'args[0]' must be Cell, list or orderedDict, "
                            f"but got {type(args[0]).__name__}")
        else:
            cells = args
        for index, cell in enumerate(cells):
            self.insert_child_to_cell(str(index), _check_cell(cell, self.cls_name))
            cell.update_parameters_name(str(index) + ".")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.__class__(OrderedDict(list(self._cells.items())[index]))
        return list(self._cells.values())[_valid_index(len(self), index, self.cls_name)]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, module):
        """Adds a cell at the end."""
        name = str(len(self._cells))
        self.insert_child_to_cell(name, _check_cell(module, self.cls_name))
        module.update_parameters_name(name + ".")
        return self

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(Cell):
    """A list of cells registered as sub-cells ``0``, ``1``..."""

    def __init__(self, *args, **kwargs):
        auto_prefix, _ = (kwargs.pop("auto_prefix"), None) if "auto_prefix" in kwargs else (True, None)
        super().__init__(auto_prefix)
        if len(args) == 1:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.__class__(list(self._cells.values())[index])
        return list(self._cells.values())[_valid_index(len(self), index, self.cls_name)]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell):
        """Adds a cell at the end."""
        name = str(len(self._cells))
        self.insert_child_to_cell(name, _check_cell(cell, self.cls_name))
        if self._auto_prefix:
            cell.update_parameters_name(name + ".")
        return self

    def extend(self, cells):
        """Adds each of ``cells`` at the end."""
        if not isinstance(cells, (list, tuple, CellList)):
            raise TypeError(f"For '{self.cls_name}', the new cells wanted to append should be instance of list, "
                            f"but got {type(cells).__name__}.")
        for cell in cells:
            self.append(cell)
        return self

    def construct(self, *inputs):
        raise NotImplementedError(f"For '{self.cls_name}', the method 'construct' is not defined.")
