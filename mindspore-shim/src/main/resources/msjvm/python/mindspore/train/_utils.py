"""``mindspore.train._utils``: which ranks hold the same data of a parameter, and who owns it.

Follows MindSpore 2.10's ``get_parameter_redundancy`` and ``remove_param_redundancy``:

* ``get_parameter_redundancy(layout, initial_rank=None)`` takes a ``parameter_layout_dict`` (name ->
  ``(device_matrix, tensor_map, ..., opt_shard_group, ...)``) or a Cell, and answers name -> tuple
  of rank tuples, the ranks of one tuple holding identical data. The devices of the matrix are
  numbered row-major from ``initial_rank`` (default: the first rank of this rank's stage); devices
  whose coordinates agree on every device axis the tensor map uses hold the same slice; groups are
  ordered by those coordinates. A parameter with an optimizer-shard group of k ranks has each
  group whose size k divides replaced by its k strided sub-groups ``g[j::k]`` (other groups drop
  out). Names come out sorted.
* ``remove_param_redundancy(redundancy, keep_redundancy=1)`` deals the parameters of each rank
  group round-robin over its ranks (the group rotated left by i for the i-th copy kept) and
  answers rank -> set of the parameter names that rank owns.

Example: device matrix ``[2, 4]`` (rank = 4a + b), tensor map ``[1, -1]`` -> ``((0, 1, 2, 3), (4,
5, 6, 7))``; tensor map ``[0, -1]`` -> ``((0, 4), (1, 5), (2, 6), (3, 7))``.
"""
import itertools
import math

from mindspore.communication.management import get_group_size, get_rank

__all__ = ["get_parameter_redundancy", "remove_param_redundancy"]


def _redundancy_without_opt_shard(device_matrix, tensor_map, initial_rank):
    """Rank tuples of identical slices for one parameter (before optimizer sharding)."""
    n = len(device_matrix)
    _ = device_matrix + [n]  # as MindSpore's matrix shape: a tuple device matrix is a TypeError
    used = []
    for axis in tensor_map:
        _ = device_matrix[-axis - 1]  # IndexError for a tensor-map value past the matrix
        if axis != -1:
            used.append(axis)
    groups = {}
    for index, coords in enumerate(itertools.product(*(range(d) for d in device_matrix))):
        key = [0] * n
        for axis in used:
            key[axis] = coords[n - 1 - axis]
        groups.setdefault(tuple(key), []).append(index + initial_rank)
    return tuple(tuple(ranks) for _, ranks in sorted(groups.items()))


def _split_by_opt_shard(groups, shard_size):
    """Each group whose size ``shard_size`` divides, as its ``shard_size`` strided sub-groups."""
    return tuple(group[j::shard_size] for group in groups if len(group) % shard_size == 0
                 for j in range(shard_size))


def _initial_rank(parameter_layout):
    """The first rank of this rank's stage: devices of the first parameter's matrix per stage."""
    device_matrix = next(iter(parameter_layout.values()))[0]
    device_num = math.prod(device_matrix) if device_matrix else 1
    return (get_rank() // device_num) * device_num


def get_parameter_redundancy(layout_obj, initial_rank=None):
    """Parameter name -> tuple of rank tuples holding identical data (sorted by name)."""
    from mindspore.nn.cell import Cell  # pylint: disable=import-outside-toplevel
    if isinstance(layout_obj, str):
        raise NotImplementedError("get_parameter_redundancy: reading a strategy checkpoint file is not "
                                  "supported by msjvm yet; pass a parameter layout dict.")
    if isinstance(layout_obj, Cell):
        from mindspore.communication.management import \
            get_process_group_ranks  # pylint: disable=import-outside-toplevel
        all_ranks = (tuple(get_process_group_ranks()),)
        names = [param.name for _, param in layout_obj.parameters_and_names()]
        return {name: all_ranks for name in sorted(names)}
    parameter_layout = {key: value[:2] for key, value in layout_obj.items()}
    if initial_rank is None:
        initial_rank = _initial_rank(parameter_layout)
    redundancy = {key: _redundancy_without_opt_shard(device_matrix, tensor_map, initial_rank)
                  for key, (device_matrix, tensor_map, *_) in parameter_layout.items()}
    for key, value in layout_obj.items():
        if value[5]:
            redundancy[key] = _split_by_opt_shard(redundancy[key], get_group_size(value[5]))
    return {key: redundancy[key] for key in sorted(redundancy)}


def remove_param_redundancy(param_redundancy_dict, keep_redundancy=1):
    """Rank -> set of the parameter names it owns (one copy of each, or ``keep_redundancy``)."""
    names_by_group = {}
    for name, groups in param_redundancy_dict.items():
        for group in groups:
            names_by_group.setdefault(group, []).append(name)
    owned = {}
    for shift in range(keep_redundancy):
        dealt = {}
        for group, names in names_by_group.items():
            start = shift % len(group)
            rotated = group[start:] + group[:start]
            for index, name in enumerate(names):
                dealt.setdefault(rotated[index % len(rotated)], []).append(name)
        for rank, names in dealt.items():
            owned.setdefault(rank, set()).update(names)
    return owned
