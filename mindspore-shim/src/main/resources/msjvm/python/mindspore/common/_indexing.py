"""``Tensor.__getitem__``: numpy-style indexing lowered to engine operators.

Basic indices (ints, slices, ``None``, ``...``) become one ``StridedSlice`` with MindSpore's masks
(an int shrinks its dimension, ``None`` adds one); an integer Tensor or list as the only index
gathers along dimension 0 (``Gather``), and a boolean Tensor mask selects whole rows via the
indices of its true elements. Both lowerings differentiate.
"""


def _tensor_cls():
    from mindspore.common.tensor import Tensor  # pylint: disable=import-outside-toplevel
    return Tensor


def _strided_slice(x, index):
    from mindspore.ops.operations import StridedSlice  # pylint: disable=import-outside-toplevel
    begin, end, strides = [], [], []
    masks = {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}
    for pos, item in enumerate(index):
        bit = 1 << pos
        if item is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif item is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(1), strides.append(1)
        elif isinstance(item, slice):
            step = 1 if item.step is None else int(item.step)
            if step == 0:
                raise ValueError("slice step cannot be zero")
            if item.start is None:
                masks["begin_mask"] |= bit
            if item.stop is None:
                masks["end_mask"] |= bit
            begin.append(0 if item.start is None else int(item.start))
            end.append(0 if item.stop is None else int(item.stop))
            strides.append(step)
        else:
            i = int(item)
            masks["shrink_axis_mask"] |= bit
            begin.append(i), end.append(i + 1 if i != -1 else 0), strides.append(1)
    return StridedSlice(**masks)(x, tuple(begin), tuple(end), tuple(strides))


def _check_int_bounds(x, index):
    """IndexError for an int index out of range (numpy's and MindSpore's message)."""
    axis = 0
    for item in index:
        if item is Ellipsis:
            axis = x.ndim - sum(1 for i in index[index.index(Ellipsis) + 1:] if i is not None)
            continue
        if item is None:
            continue
        if isinstance(item, int) and not isinstance(item, bool):
            size = x.shape[axis]
            if not -size <= item < size:
                # MindSpore 2.10's text (tensor_index_py.cc) names no dimension.
                raise IndexError(f"index {item} is out of bounds for dimension with size {size}")
        axis += 1


def getitem(x, index):
    """``x[index]``."""
    from mindspore.common import dtype as mstype  # pylint: disable=import-outside-toplevel
    from mindspore.ops.operations import Gather  # pylint: disable=import-outside-toplevel
    tensor = _tensor_cls()
    if isinstance(index, list):
        index = tensor(index)
    if isinstance(index, tensor):
        if index.dtype == mstype.bool_:
            if index.shape != x.shape[:index.ndim] or index.ndim != 1:
                raise IndexError("msjvm: a boolean index must be 1-D and match the first dimension.")
            picked = [i for i, keep in enumerate(index.tolist()) if keep]
            index = tensor(picked, mstype.int64)
        elif index.dtype not in mstype.int_type + mstype.uint_type:
            raise IndexError(f"Tensor index must be int or bool type, but got {index.dtype}.")
        return Gather()(x, index, 0)
    if not isinstance(index, tuple):
        index = (index,)
    for item in index:
        if not (item is None or item is Ellipsis or isinstance(item, (int, slice)) or
                (isinstance(item, tensor) and item.ndim == 0)):
            raise IndexError("msjvm: only integers, slices, None, ... and a single integer/boolean Tensor or "
                             f"list index are supported, but got {type(item).__name__} in {index}.")
    if sum(1 for i in index if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    index = tuple(int(i) if isinstance(i, tensor) else i for i in index)
    if x.ndim == 0 and any(i is not None and i is not Ellipsis for i in index):
        raise IndexError("too many indices for tensor of dimension 0")
    if sum(1 for i in index if i is not None and i is not Ellipsis) > x.ndim:
        # MindSpore 2.10's text, without a space before the number.
        raise IndexError(f"too many indices for tensor of dimension{x.ndim}")
    _check_int_bounds(x, index)
    return _strided_slice(x, index)
