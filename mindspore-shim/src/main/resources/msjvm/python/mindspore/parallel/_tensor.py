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


def _product(values):
    """The product of ``values`` (1 for none), as an int."""
    count = 1
    for v in values:
        count *= int(v)
    return count


def _extract_layout_item(layout_item):
    """(dev_matrix, tensor_map, opt_weight_shard_step, opt_weight_shard_size) of a list-form layout
    (``_parallel_serialization._convert_to_list``); a shard size of -1 is the devices the tensor's
    split leaves over."""
    dev_matrix, tensor_map, opt_shard_step, opt_shard_size = layout_item[0], layout_item[1], layout_item[4], \
        layout_item[5]
    if opt_shard_size == -1:
        opt_shard_size = _product(dev_matrix) // _product(_get_tensor_strategy(dev_matrix, tensor_map))
    return dev_matrix, tensor_map, opt_shard_step, opt_shard_size


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


# -- MindSpore's checkpoint-transform planning: layouts brought to one device count (and the
# optimizer shard made a tensor dimension of its own), the ops a rank runs between two layouts
# (the engine's port of its tensor redistribution, TensorRedistribution.transformTensorByLayout),
# and the ranks whose slices those ops read.

def _transform_tensor_by_layout(from_layout, to_layout, device_list, rank_id, enable_redist_opt=False):
    """The ops rank ``rank_id`` runs to turn its slice under ``from_layout`` into its slice under
    ``to_layout`` (each ``(dev_matrix, tensor_map, full_shape)``): ``('Reshape', shape)``,
    ``('StridedSlice', begin + end + strides)``, ``('AllConcat', ranks + [axis])``."""
    del enable_redist_opt  # MindSpore's checkpoint transform plans without AllToAll either way
    if not isinstance(from_layout, tuple) or not isinstance(to_layout, tuple):
        raise TypeError("The layout should be tuple! layout is {} and {}".format(from_layout, to_layout))
    from mindspore._host import host  # pylint: disable=import-outside-toplevel

    def ints(layout):
        return [[int(v) for v in part] for part in layout]

    ops = host().transformTensorByLayout(ints(from_layout), ints(to_layout), [int(d) for d in device_list],
                                         int(rank_id))
    return [(str(op[0]), [int(v) for v in op[1]]) for op in ops]


def _construct_from_to_tensor_layout(from_full_tensor_shape, from_dev_matrix, from_tensor_map, to_full_tensor_shape,
                                     to_dev_matrix, to_tensor_map, param_name=''):
    """(from_layout, to_layout) on one device count: the smaller device matrix gets a leading axis
    of the ratio."""
    from_full_tensor_shape, to_full_tensor_shape = list(from_full_tensor_shape), list(to_full_tensor_shape)
    from_dev_matrix, from_tensor_map = list(from_dev_matrix), list(from_tensor_map)
    to_dev_matrix, to_tensor_map = list(to_dev_matrix), list(to_tensor_map)
    if len(from_full_tensor_shape) != len(from_tensor_map) or len(to_full_tensor_shape) != len(to_tensor_map):
        raise ValueError(
            f"For param '{param_name}', the tensor map dimensions must match the tensor shape dimensions.\n"
            f"Should be:\n"
            f"  - len(tensor_map) == len(tensor_shape)\n"
            f"But got:\n"
            f"  from_full_tensor_shape = {from_full_tensor_shape}\n"
            f"  from_dev_matrix        = {from_dev_matrix}\n"
            f"  from_tensor_map        = {from_tensor_map}\n"
            f"  to_full_tensor_shape   = {to_full_tensor_shape}\n"
            f"  to_dev_matrix          = {to_dev_matrix}\n"
            f"  to_tensor_map          = {to_tensor_map}\n"
            f"Please check your strategy file.")
    from_devices, to_devices = _product(from_dev_matrix), _product(to_dev_matrix)
    if from_devices != to_devices:
        small, large = min(from_devices, to_devices), max(from_devices, to_devices)
        if large % small != 0:
            raise ValueError("Cannot transform device_num from {} to {}".format(from_devices, to_devices))
        (to_dev_matrix if from_devices > to_devices else from_dev_matrix).insert(0, large // small)
    return (from_dev_matrix, from_tensor_map, from_full_tensor_shape), \
        (to_dev_matrix, to_tensor_map, to_full_tensor_shape)


def _expand_layout(dev_matrix, tensor_map, tensor_shape):
    """A tensor map with dimensions split over several axes made flat: each such dimension becomes
    one dimension per axis (the outer ones sized by their axis)."""
    new_map, new_shape = [], []
    for index, dim in enumerate(tensor_map):
        if not isinstance(dim, (tuple, list)):
            new_map.append(dim)
            new_shape.append(tensor_shape[index])
            continue
        outer = 1
        for axis in dim[:-1]:
            size = dev_matrix[len(dev_matrix) - 1 - axis]
            new_map.append(axis)
            new_shape.append(size)
            outer *= size
        new_map.append(dim[-1])
        new_shape.append(tensor_shape[index] // outer)
    return dev_matrix, new_map, new_shape


def _repeated_axes(dev_matrix, tensor_map):
    """The device-matrix indices of size > 1 that no dimension of ``tensor_map`` (an axis, or a
    list of axes) is split over."""
    used = {len(dev_matrix) - 1 - axis for dim in tensor_map
            for axis in (dim if isinstance(dim, (list, tuple)) else [dim]) if axis != -1}
    return [index for index, size in enumerate(dev_matrix) if index not in used and size > 1]


def _construct_tensor_layout_for_opt_shard_by_layout(dev_matrix, tensor_map, opt_shard_step, opt_shard_size,
                                                     origin_full_tensor_shape):
    """The optimizer shard of a Layout-strategy parameter as a tensor dimension of its own."""
    if opt_shard_step == 0 or opt_shard_size == 0:
        return dev_matrix, tensor_map, list(origin_full_tensor_shape)
    strategy = _get_tensor_strategy(dev_matrix, tensor_map)
    _, flat_map, _ = _expand_layout(dev_matrix, tensor_map, origin_full_tensor_shape)
    repeated = _repeated_axes(dev_matrix, flat_map)
    if not repeated:
        raise ValueError("The device_matrix {} and tensor_map {} cannot sharding opt_shard".format(dev_matrix,
                                                                                                  tensor_map))
    return _construct_tensor_layout_helper(dev_matrix, tensor_map, opt_shard_size, origin_full_tensor_shape,
                                           strategy, repeated)


def _construct_tensor_layout_helper(dev_matrix, tensor_map, opt_shard_size, origin_full_tensor_shape,
                                    tensor_strategy, repeated_dim):
    """Takes the optimizer shard from the repeated device axes, innermost first (an axis larger
    than what is left is split in two), and makes dimension 0 of the tensor [its model-parallel
    split, one dimension per shard axis, the rest]."""
    new_dev = list(dev_matrix)
    axis_map = list(range(len(dev_matrix)))
    shard_axes = []
    left = opt_shard_size if opt_shard_size != -1 else _product(dev_matrix[i] for i in repeated_dim)
    for dim in reversed(repeated_dim):
        size = dev_matrix[dim]
        if left // size == 0:
            if size % left != 0:
                raise ValueError("dev_matrix value {} at dim {} cannot be divided by needed opt sharding "
                                 "size {}".format(dev_matrix[dim], len(dev_matrix) - dim - 1, left))
            size = left
            new_dev[dim] = dev_matrix[dim] // size
            new_dev.insert(dim + 1, size)
            for i in range(len(dev_matrix) - dim - 1, len(dev_matrix)):
                axis_map[i] += 1
        if left % size != 0:
            raise ValueError("Remained opt_shard_size {} cannot be divided by current sharding size {}, "
                             "the repeat dim is {} with dev_matrix value {}".format(left, size,
                                                                                   len(dev_matrix) - dim - 1,
                                                                                   dev_matrix[dim]))
        left //= size
        shard_axes.insert(0, dim)
        if left == 1:
            break
    new_map = copy.deepcopy(list(tensor_map))
    if len(new_dev) != len(dev_matrix):
        shard_axes = [d + 1 for d in shard_axes]
        for index, item in enumerate(new_map):
            if isinstance(item, (tuple, list)):
                new_map[index] = [axis_map[x] if x >= 0 else x for x in item]
            elif item >= 0:
                new_map[index] = axis_map[item]
    new_shape = list(origin_full_tensor_shape)
    new_shape[0] = tensor_strategy[0]
    unsplit = origin_full_tensor_shape[0] // tensor_strategy[0]
    outer = 1
    for i in range(len(shard_axes) - 1):
        new_shape.insert(i + 1, new_dev[shard_axes[i]])
        outer *= new_dev[shard_axes[i]]
    new_shape.insert(len(shard_axes), unsplit // outer)
    for index, axis in enumerate(shard_axes):
        new_map.insert(index + 1, len(new_dev) - axis - 1)
    return list(new_dev), new_map, new_shape


def _construct_tensor_layout_for_opt_shard(dev_matrix, tensor_map, opt_shard_step, opt_shard_size,
                                           origin_full_tensor_shape):
    """(dev_matrix, tensor_map, full_shape) with the optimizer shard of dimension 0 as a tensor
    dimension of its own (and Layout tensor maps made flat); unchanged without optimizer shard."""
    if any(isinstance(dim, (list, tuple)) for dim in tensor_map):
        return _expand_layout(*_construct_tensor_layout_for_opt_shard_by_layout(
            dev_matrix, tensor_map, opt_shard_step, opt_shard_size, origin_full_tensor_shape))
    if opt_shard_step == 0 or opt_shard_size == 0:
        return dev_matrix, tensor_map, list(origin_full_tensor_shape)
    strategy = _get_tensor_strategy(dev_matrix, tensor_map)
    repeated = _repeated_axes(dev_matrix, tensor_map)
    if not repeated:
        raise ValueError("The device_matrix {} and tensor_map {} cannot sharding opt_shard".format(dev_matrix,
                                                                                                  tensor_map))
    inner = _product(dev_matrix[repeated[0] + 1:])
    if len(repeated) == 1 and inner != opt_shard_step:
        raise ValueError("The optimizer sharding step {} is not equal to the model parallel sharding size {}."
                         .format(opt_shard_step, inner))
    unsplit = origin_full_tensor_shape[0] // strategy[0]
    if 1 < len(repeated) < len(dev_matrix) or repeated[0] > 0:
        return _construct_tensor_layout_helper(dev_matrix, tensor_map, opt_shard_size, origin_full_tensor_shape,
                                               strategy, repeated)
    full_shape = list(origin_full_tensor_shape)
    full_shape[0] = strategy[0]
    full_shape.insert(1, unsplit)
    new_map = [-1 if count == 1 else len(strategy) - 1 - index for index, count in enumerate(strategy)]
    new_map.insert(1, len(strategy))
    new_dev = list(strategy)
    new_dev.insert(0, opt_shard_size)
    repeat = _product(dev_matrix) // (opt_shard_step * opt_shard_size)
    if repeat > 1:
        new_dev.insert(0, repeat)
    return new_dev, new_map, full_shape


def _get_needed_rank_list_by_layouts(from_tensor_layout, to_tensor_layout, device_list, self_rank):
    """The ranks (sorted) whose slices rank ``self_rank``'s redistribution reads."""
    return sorted(_get_needed_rank_transform_operator_map_by_layouts(from_tensor_layout, to_tensor_layout,
                                                                     device_list, self_rank))


def _get_needed_rank_transform_operator_map_by_layouts(from_tensor_layout, to_tensor_layout, device_list, self_rank,
                                                       enable_redist_opt=False):
    """{rank: its ops} of ``self_rank`` and every rank it reads from: the members of each of its
    AllConcats, then, for each member, the members of its AllConcats of earlier levels."""
    def plan(rank):
        return _transform_tensor_by_layout(from_tensor_layout, to_tensor_layout, device_list, rank,
                                           enable_redist_opt)

    def concat_groups(ops, below=None):
        groups = [op[1][:-1] for op in ops if op[0] == "AllConcat"]
        return list(enumerate(groups if below is None else groups[:below]))

    result = {self_rank: plan(self_rank)}
    pending = concat_groups(result[self_rank])
    while pending:
        level, group = pending.pop()
        for rank in group:
            if rank not in result:
                result[rank] = plan(rank)
                for entry in concat_groups(result[rank], level):
                    pending.insert(0, entry)
    return result
