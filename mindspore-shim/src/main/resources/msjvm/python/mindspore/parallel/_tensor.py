"""MindSpore's private slicing helpers (``mindspore.parallel._tensor``) that tests and checkpoint
scripts import: a tensor's split strategy from a device matrix and tensor map, which slice a rank
holds, cutting a whole tensor into a rank's slice and joining gathered slices back.

Names, arguments, results and error texts are MindSpore 2.10's, including its quirks: device
coordinates are floats (``_rank_to_coordinate`` fills a float array), so slice indices come back as
floats; ``_get_tensor_strategy`` takes a dimension split over several axes (a list) as the product
of their sizes. numpy is imported when a function needs it, so importing the module does not.
"""
import copy

from mindspore.common.tensor import Tensor
from mindspore.communication.management import get_group_size, get_rank


def _np():
    import numpy  # pylint: disable=import-outside-toplevel
    return numpy


def _get_tensor_strategy(dev_mat, tensor_map):
    """Per dimension the number of slices: the size of the device axis it maps to (counted from the
    right), the product of several, or 1 for -1."""
    strategy = []
    for dim in tensor_map:
        if isinstance(dim, (tuple, list)):
            count = 1
            for axis in dim:
                if axis != -1:
                    count *= dev_mat[len(dev_mat) - axis - 1]
            strategy.append(count)
        else:
            strategy.append(1 if dim == -1 else dev_mat[-dim - 1])
    return strategy


def _rank_to_coordinate(rank_index, device_arrangement):
    """The coordinate of ``rank_index`` in the device matrix, row-major (a float array)."""
    axes = len(device_arrangement)
    coordinate = _np().zeros(axes)
    for k in range(axes - 1, -1, -1):
        size = device_arrangement[k]
        coordinate[k] = rank_index % size
        rank_index = int(rank_index / size)
    return coordinate


def _coordinate_to_rank(device_coordinate, device_arrangement):
    """The row-major index of ``device_coordinate`` in ``device_arrangement``."""
    index, stride = 0, 1
    for k in range(len(device_coordinate) - 1, -1, -1):
        index += stride * device_coordinate[k]
        stride *= device_arrangement[k]
    return index


def _convert_to_new_device_coordinate(device_coordinate, tensor_map):
    """Per tensor dimension the coordinate of the device axis it maps to, 0 where it is not split."""
    axes = len(device_coordinate)
    return [0 if axis == -1 else device_coordinate[axes - 1 - axis] for axis in tensor_map]


def _get_tensor_slice_index(device_arrangement, tensor_strategy, tensor_map, rank_index):
    """The index of ``rank_index``'s slice among the slices ``_chunk_tensor_by_strategy`` makes."""
    coordinate = _rank_to_coordinate(rank_index, device_arrangement)
    return _coordinate_to_rank(_convert_to_new_device_coordinate(coordinate, tensor_map), tensor_strategy)


def _chunk_tensor(np_tensor, strategy, depth):
    axis = len(np_tensor.shape) - depth
    if np_tensor.shape[axis] % strategy[0] != 0:
        raise ValueError("np_tensor can not be split by strategy!")
    parts = list(_np().split(np_tensor, strategy[0], axis))
    if depth == 1:
        return parts
    out = []
    for part in parts:
        out.extend(_chunk_tensor(part, strategy[len(strategy) - depth + 1:], depth - 1))
    return out


def _chunk_tensor_by_strategy(np_tensor, strategy):
    """The slices of ``np_tensor`` cut ``strategy[d]`` ways along each dimension d, in row-major
    order of their block indices."""
    if not isinstance(np_tensor, _np().ndarray):
        raise TypeError("np_tensor should be ndarray!")
    if len(strategy) != len(np_tensor.shape):
        raise ValueError("The length of np_tensor does not match the length of strategy!")
    return _chunk_tensor(np_tensor, strategy, len(strategy))


def _get_slice_index(dev_mat, tensor_map, opt_shard_group):
    """This rank's slice index; past the model-parallel slices by the rank's place in the optimizer
    shard group when there is one."""
    strategy = _get_tensor_strategy(dev_mat, tensor_map)
    index = _get_tensor_slice_index(dev_mat, strategy, tensor_map, get_rank())
    if opt_shard_group:
        index += get_group_size() + get_rank(opt_shard_group)
    return index


def _load_tensor(tensor, dev_mat, tensor_map, full_shape=None, rank_id=-1):
    """Rank ``rank_id``'s slice (this rank's for -1) of the whole ``tensor``, as a numpy array."""
    rank = get_rank() if rank_id == -1 else rank_id
    strategy = _get_tensor_strategy(dev_mat, tensor_map)
    index = _get_tensor_slice_index(dev_mat, strategy, tensor_map, rank)
    whole = tensor.asnumpy()
    if full_shape:
        whole = whole.reshape(full_shape)
    return _chunk_tensor_by_strategy(whole, strategy)[int(index)]


def _check_layout_tuple(layout):
    if not isinstance(layout, tuple):
        raise TypeError("The layout should be tuple! layout is {}".format(layout))
    if len(layout) < 7:
        raise ValueError("The length of layout must be larger than 6! layout is {}".format(layout))


def _load_tensor_by_layout(tensor, layout, rank_id):
    """Rank ``rank_id``'s slice of ``tensor`` under a ``parameter_layout_dict`` entry, optimizer
    sharding included, as a Tensor of the same type."""
    _check_layout_tuple(layout)
    dev_mat, tensor_map, slice_shape = layout[0], layout[1], layout[2]
    if not tensor_map:
        return tensor
    uniform_split, group, full_shape = layout[4], layout[5], layout[6]
    if uniform_split == 0:
        raise RuntimeError("The load tensor only support uniform split now")
    piece = _load_tensor(tensor, dev_mat, tensor_map, full_shape, rank_id)
    if piece.shape != slice_shape and not group:
        piece = piece.reshape(slice_shape)
    if group:
        rank, size = get_rank(group), get_group_size(group)
        if piece.shape != tuple(slice_shape) and slice_shape:
            extended = copy.deepcopy(slice_shape)
            extended[0] = slice_shape[0] * size
            piece = piece.reshape(extended)
        piece = _np().split(piece, size)[rank]
    return Tensor(piece, tensor.dtype)


def _reshape_param_data(param_data, dev_mat, tensor_map):
    """The whole tensor from the slices of every device stacked along axis 0 (an AllGather's
    result), duplicates dropped, joined in the order of their slice indices."""
    np = _np()
    devices = 1
    for size in dev_mat:
        devices *= size
    gathered = np.split(param_data.asnumpy(), devices, axis=0)
    strategy = _get_tensor_strategy(dev_mat, tensor_map)
    count = 1
    for parts in strategy:
        count *= parts
    slices = list(range(count))
    for device in range(devices):
        slices[int(_get_tensor_slice_index(dev_mat, strategy, tensor_map, device))] = np.array(gathered[device])
    return Tensor(_join_slices(slices, strategy))


def _join_slices(slices, strategy):
    """The whole array from its slices in slice-index order (``strategy[d]`` of them along each
    dimension d): joined along the last dimension first, then the one before it, ..."""
    np = _np()
    for axis in range(len(strategy) - 1, -1, -1):
        parts = strategy[axis]
        slices = [np.concatenate(slices[j * parts:(j + 1) * parts], axis=axis) if parts > 1
                  else np.array(slices[j]) for j in range(len(slices) // parts)]
    return slices[0]


def _reshape_param_data_with_weight(param_data, dev_mat, field_size):
    """The whole field-split embedding weight from every device's slices stacked along axis 0."""
    np = _np()
    devices = 1
    for size in dev_mat:
        devices *= size
    gathered = np.split(param_data.asnumpy(), devices, axis=0)
    columns = []
    for i in range(len(gathered[0][0])):
        joined = np.concatenate([np.array(part[:, i]).reshape(field_size, -1) for part in gathered], axis=1)
        columns.append(joined)
    return Tensor(np.concatenate([np.array(c).reshape(-1, 1) for c in columns], axis=1))


def _chunk_shape(ranges, strategy, depth):
    axis = len(ranges) - depth
    left, right = ranges[axis]
    chunk = (right - left) / strategy[0]
    pieces = []
    for i in range(left, right):
        if i % chunk == 0:
            piece = copy.deepcopy(ranges)
            piece[axis] = [i, int(i + chunk)]
            pieces.append(piece)
    if depth == 1:
        return pieces
    out = []
    for piece in pieces:
        out.extend(_chunk_shape(piece, strategy[len(strategy) - depth + 1:], depth - 1))
    return out


def _chunk_shape_by_strategy(full_shape, strategy):
    """Per slice its [begin, end) along each dimension, in the order of ``_chunk_tensor_by_strategy``."""
    return _chunk_shape([[0, size] for size in full_shape], strategy, len(strategy))


def _slice_ranges(dev_mat, tensor_map, full_shape, rank_id):
    rank = get_rank() if rank_id == -1 else rank_id
    strategy = _get_tensor_strategy(dev_mat, tensor_map)
    index = _get_tensor_slice_index(dev_mat, strategy, tensor_map, rank)
    return _chunk_shape_by_strategy(full_shape, strategy)[int(index)]


def _load_tensor_shape(dev_mat, tensor_map, full_shape=None, rank_id=-1):
    """The index (a tuple of slices) of rank ``rank_id``'s slice in the whole tensor."""
    return tuple(slice(begin, end) for begin, end in _slice_ranges(dev_mat, tensor_map, full_shape, rank_id))


def _count_tensor_shape(dev_mat, tensor_map, full_shape=None, rank_id=-1):
    """The shape of rank ``rank_id``'s slice."""
    return [end - begin for begin, end in _slice_ranges(dev_mat, tensor_map, full_shape, rank_id)]


def _load_tensor_shape_by_layout(tensor, layout, rank_id):
    """The shape of rank ``rank_id``'s slice under a ``parameter_layout_dict`` entry."""
    _check_layout_tuple(layout)
    slice_shape = layout[2]
    if slice_shape:
        return slice_shape
    tensor_map = layout[1]
    if not tensor_map:
        return tensor.shape
    dev_mat, uniform_split, group, full_shape = layout[0], layout[4], layout[5], layout[6]
    if not full_shape:
        full_shape = tensor.shape
    if uniform_split == 0:
        raise RuntimeError("The load tensor only support uniform split now")
    shape = _count_tensor_shape(dev_mat, tensor_map, full_shape, rank_id)
    if group:
        shape[0] //= get_group_size(group)
    return shape
