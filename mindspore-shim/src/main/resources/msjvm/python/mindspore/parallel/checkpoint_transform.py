"""Distributed-checkpoint tools of ``mindspore.parallel`` (MindSpore 2.10's
``mindspore/parallel/checkpoint_transform.py``): ``build_searched_strategy`` reads the parameter
layouts of a strategy file (protobuf or JSON, the files ``strategy_ckpt_config`` saves) and
``merge_sliced_parameter`` joins the slices of one parameter, in rank order, into the whole
parameter (along axis 0, or by a strategy's device matrix and tensor map).

``transform_checkpoints``, ``transform_checkpoint_by_rank`` and ``rank_list_for_transform`` move
checkpoints between two strategy files (different device counts, tensor and optimizer sharding,
pipeline stages) for ``.ckpt`` sources; ``merge_pipeline_strategys`` joins the strategy files of a
pipeline's stages into the one file they take. ``load_distributed_checkpoint`` loads the per-rank
checkpoints of a training run into a network, whole or sliced by a predict layout
(``Model.infer_predict_layout``); ``load_segmented_checkpoints`` loads every ``.ckpt`` of a
directory. Safetensors sources: ``transform_checkpoints`` of ``.safetensors`` files and
``unified_safetensors`` (every rank's slices merged into whole parameters, in parts).
"""
import os

from mindspore._dirs import makedirs
from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.parallel._parallel_serialization import (_build_searched_strategy, _check_checkpoint_file,
                                                        _check_predict_strategy, _extract_src_dst_layout_map,
                                                        _make_dir, _merge_json_strategy, _merge_protobuf_strategy,
                                                        _rank_list_for_transform_parallel_checkpoint,
                                                        _restore_group_info_list, _tensor_map_of)
from mindspore.parallel._tensor import (_get_tensor_slice_index, _get_tensor_strategy, _join_slices, _np, _product,
                                        _repeated_axes, _reshape_param_data, _reshape_param_data_with_weight)

__all__ = ["build_searched_strategy", "load_distributed_checkpoint", "load_segmented_checkpoints",
           "merge_pipeline_strategys", "merge_sliced_parameter", "rank_list_for_transform", "restore_group_info_list",
           "sync_pipeline_shared_parameters", "transform_checkpoint_by_rank", "transform_checkpoints",
           "unified_safetensors"]


def build_searched_strategy(strategy_filename):
    """{parameter name: ``node_strategy_pb2.ParallelLayouts``} of a strategy file (protobuf, or JSON
    by its ``.json`` name); None for None."""
    return _build_searched_strategy(strategy_filename)


def restore_group_info_list(group_info_file_name):
    """The ranks whose checkpoints hold what the rank that saved ``group_info_file_name`` (a
    ``ParallelGroupMap``) holds: its ``ckpt_restore_rank_list``."""
    if not isinstance(group_info_file_name, str):
        raise TypeError(f"For 'restore_group_info_list', the argument 'group_info_file_name' should be str, "
                        f"but got {type(group_info_file_name)}.")
    if not os.path.isfile(group_info_file_name):
        raise ValueError(f"For 'restore_group_info_list', no such group information file: {group_info_file_name}.")
    if os.path.getsize(group_info_file_name) == 0:
        raise ValueError("For 'restore_group_info_list', the group information file should not be empty.")
    return _restore_group_info_list(group_info_file_name)


def _concatenate(parts, axis=0):
    import numpy  # pylint: disable=import-outside-toplevel
    return numpy.concatenate(parts, axis=axis)


def _merge_param_with_strategy(sliced_data, parameter_name, strategy, is_even):
    """The whole tensor from the slices of every device, by the parameter's layout in ``strategy``."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    layout = strategy.get(parameter_name)
    try:
        dev_mat = list(layout.dev_matrix[0].dim)
        tensor_map = list(layout.tensor_map[0].dim)
        param_split_shape = list(layout.param_split_shape[0].dim)
        field_size = int(layout.field)
    except BaseException as e:
        raise ValueError(f"{e.__str__()}. For 'merge_sliced_parameter'"
                         ", please make sure that 'strategy' is correct.") from e
    device_count = 1
    for size in dev_mat:
        device_count *= size
    if len(sliced_data) != device_count:
        raise ValueError("For 'merge_sliced_parameter', the length of 'sliced_parameters' should be equal to "
                         f"device_count. The length of 'sliced_parameters' is {len(sliced_data)}, but "
                         f"device_count is {device_count}.")
    if not param_split_shape:
        if not is_even:
            raise ValueError("For 'merge_sliced_parameter', the shape of every parameter in 'sliced_parameters' "
                             "should be the same when slice manner is even.")
        gathered = Tensor(np.concatenate(sliced_data))
        if field_size > 0:
            return _reshape_param_data_with_weight(gathered, dev_mat, field_size)
        return _reshape_param_data(gathered, dev_mat, tensor_map)
    tensor_strategy = _get_tensor_strategy(dev_mat, tensor_map)
    slice_count = 1
    for parts in tensor_strategy:
        slice_count *= parts
    if len(param_split_shape) != slice_count:
        raise ValueError("For 'merge_sliced_parameter', the param_split_shape length in 'strategy' should be "
                         f"{slice_count}, but got {len(param_split_shape)}.")
    slices = list(range(slice_count))
    for device in range(device_count):
        index = int(_get_tensor_slice_index(dev_mat, tensor_strategy, tensor_map, device))
        if sliced_data[device].shape[0] != param_split_shape[index]:
            raise ValueError(f"For 'merge_sliced_parameter', the slice {index} should be "
                             f"{param_split_shape[index]} in 0 axis, but got {sliced_data[device].shape[0]}.")
        slices[index] = np.array(sliced_data[device])
    return Tensor(_join_slices(slices, tensor_strategy))


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """One Parameter with the whole data of ``sliced_parameters`` (slices in rank order)."""
    if not isinstance(sliced_parameters, list):
        raise TypeError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should be list, "
                        f"but got {type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError("For 'merge_sliced_parameter', the argument 'strategy' should be dict, "
                        f"but got {type(strategy)}.")
    try:
        name = sliced_parameters[0].name
        shape = sliced_parameters[0].data.shape
        rank = len(shape)
    except BaseException as e:
        raise TypeError(e.__str__() + " For 'merge_sliced_parameter', the element in 'sliced_parameters' should be "
                                      f"'Parameter', but got {type(sliced_parameters[0])} at index 0.") from e
    is_even = True
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                            f"but got {type(parameter)} at index {index}.")
        if parameter.name != name or len(parameter.data.shape) != rank or parameter.data.shape[1:] != shape[1:]:
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in 'slice_parameters'"
                             " have the same name, dimension length and shape except 0 axis. The name, dimension "
                             f"length, shape except 0 axis should be {name}, {rank}, "
                             f"{shape[1:]}, but got name: {parameter.name}, dimension length: "
                             f"{len(parameter.data.shape)}, shape except 0 axis: {parameter.data.shape[1:]} "
                             f"at index {index}.")
        if parameter.data.shape != shape:
            is_even = False
    layerwise_parallel = sliced_parameters[0].layerwise_parallel
    requires_grad = sliced_parameters[0].requires_grad
    sliced_data = []
    for parameter in sliced_parameters:
        data = parameter.data
        if data.dtype == mstype.bfloat16:
            data = data.astype(mstype.float32)
        sliced_data.append(data.asnumpy())
    if not strategy:
        merged = Tensor(_concatenate(sliced_data))
    else:
        if name not in strategy.keys():
            raise KeyError(f"For 'merge_sliced_parameter', the parameter name {name} should be a key in "
                           "the 'strategy'. Please check 'sliced_parameter' and 'strategy'.")
        merged = _merge_param_with_strategy(sliced_data, name, strategy, is_even)
    return Parameter(merged, name, requires_grad, layerwise_parallel)


# ---- transform_checkpoints / transform_checkpoint_by_rank / rank_list_for_transform ----
#
# MindSpore 2.10's semantics (its parallel/checkpoint_transform.py and _parallel_serialization.py):
# a layout is (dev_matrix, tensor_map, opt_weight_shard_step, opt_weight_shard_size); a strategy
# entry named "<k>-<name>" belongs to pipeline stage k; a stage's device count is the product of
# the first entry's device matrix and a global rank r is local rank r % D of stage r // D. Each
# rank's slice is a box of the whole tensor (contiguous along every dimension), so a destination
# slice is assembled by copying its overlap with each distinct source box: no whole tensor is
# built. Parameters without a layout on either side are copied unchanged from the source rank with
# the destination's local rank. Which source files a destination rank needs is MindSpore's rank list
# (``_needed_ranks``: the ranks its redistribution plan reads, a superset of the boxes used).

class _Layout:
    """One parameter's layout: the box each local rank holds of a tensor of a given shape."""

    def __init__(self, dev_matrix, tensor_map, opt_step=0, opt_size=0):
        self.dm = [int(d) for d in dev_matrix]
        self.tm = [list(t) if isinstance(t, (list, tuple)) else int(t) for t in tensor_map]
        self.strategy = _get_tensor_strategy(self.dm, self.tm)
        self.opt_size = 0
        if opt_step and opt_size:
            self.opt_size = self._opt_size(int(opt_step), int(opt_size))

    def key(self):
        return (tuple(self.dm), tuple(tuple(t) if isinstance(t, list) else t for t in self.tm), self.opt_size)

    def devices(self):
        return _product(self.dm)

    def _opt_size(self, step, size):
        self.repeated = _repeated_axes(self.dm, self.tm)
        if not self.repeated:
            raise ValueError("The device_matrix {} and tensor_map {} cannot sharding opt_shard".format(self.dm, self.tm))
        if len(self.repeated) == 1:
            inner = _product(self.dm[self.repeated[0] + 1:])
            if inner != step:
                raise ValueError("The optimizer sharding step {} is not equal to the model parallel sharding "
                                 "size {}.".format(step, inner))
        if size == -1:
            size = self.devices() // _product(self.strategy)
        return size

    def _coordinate(self, rank):
        coordinate = [0] * len(self.dm)
        for k in range(len(self.dm) - 1, -1, -1):
            coordinate[k] = rank % self.dm[k]
            rank //= self.dm[k]
        return coordinate

    def full_shape(self, slice_shape):
        shape = [s * k for s, k in zip(slice_shape, self.strategy)]
        if self.opt_size and shape:
            shape[0] *= self.opt_size
        return shape

    def box(self, shape, rank):
        """[(begin, end)] per dimension of local rank ``rank``'s slice of a tensor of ``shape``."""
        if len(self.tm) != len(shape):
            raise ValueError("For param, the tensor map dimensions must match the tensor shape dimensions.\n"
                             "tensor map: {}, tensor shape: {}".format(self.tm, list(shape)))
        n = len(self.dm)
        coordinate = self._coordinate(rank)
        box = []
        for size, t in zip(shape, self.tm):
            parts, index = 1, 0
            for axis in (t if isinstance(t, list) else [t]):
                if axis != -1:
                    parts *= self.dm[n - 1 - axis]
                    index = index * self.dm[n - 1 - axis] + coordinate[n - 1 - axis]
            if size % parts:
                raise RuntimeError("Infer tensor redistribution failed. The shape {} can not be split by the "
                                   "strategy {}.".format(list(shape), self.strategy))
            step = size // parts
            box.append((index * step, (index + 1) * step))
        if self.opt_size and box:
            begin, end = box[0]
            step = (end - begin) // self.opt_size
            piece = self._opt_piece(coordinate)
            box[0] = (begin + piece * step, begin + (piece + 1) * step)
        return box

    def _opt_piece(self, coordinate):
        """The rank's piece of dimension 0 among the optimizer shard group's ``opt_size`` pieces: the
        repeated device axes from the innermost outward, until their sizes reach ``opt_size``."""
        digits, left = [], self.opt_size
        for d in reversed(self.repeated):
            if left <= 1:
                break
            size = min(self.dm[d], left)
            digits.append((coordinate[d] % size, size))
            left //= size
        index = 0
        for value, size in reversed(digits):
            index = index * size + value
        return index


def _stage_layouts(strategy_file):
    """({name: {stage: _Layout}}, devices per stage, stages) of a strategy file (or its built
    {name: ParallelLayouts}); (None, 1, 1) for None."""
    if strategy_file is None:
        return None, 1, 1
    raw = strategy_file if isinstance(strategy_file, dict) else build_searched_strategy(strategy_file)
    if not raw:
        raise IndexError("list index out of range")
    layouts, stages, first = {}, set(), None
    for full_name, pl in raw.items():
        stage, name = 0, full_name
        if "-" in full_name:
            head, name = full_name.split("-", 1)
            stage = int(head)
        layout = _Layout(pl.dev_matrix[0].dim, _tensor_map_of(pl), pl.opt_weight_shard_step,
                         pl.opt_weight_shard_size)
        if first is None:
            first = layout
        layouts.setdefault(name, {})[stage] = layout
        stages.add(stage)
    if sorted(stages) != list(range(len(stages))):
        raise ValueError("The strategy file for pipeline parallel does not contains all stages.")
    return layouts, first.devices(), len(stages)


def _layout_for(entries, stage):
    """A parameter's layout for ``stage``: its own, else (shared parameters) the lowest stage's."""
    if entries is None:
        return None
    return entries.get(stage, entries[min(entries)])


def _check_strategy_dir(name, path):
    if path is not None:
        directory = os.path.dirname(path)
        if directory and not os.path.exists(directory):
            raise ValueError("The director of {}: {} is not exists.".format(name, directory))


def _needed_ranks(rank_id, src_strategy, dst_strategy):
    """MindSpore's ``rank_list_for_transform`` on built strategies ({name: ParallelLayouts}, or
    None): the source ranks (global, descending) whose slices destination rank ``rank_id``'s
    redistribution reads, in every source stage that holds a parameter of its stage."""
    if src_strategy is None:
        return [0]
    src_list, dst_list = _extract_src_dst_layout_map(rank_id, src_strategy, dst_strategy)
    src_devices = _product(src_list.get(list(src_list.keys())[0])[0]) if src_list is not None else 1
    dst_devices = _product(dst_list.get(list(dst_list.keys())[0])[0]) if dst_list is not None else 1
    if not src_list:
        raise ValueError("The src_strategy_file is empty.")
    local_rank = rank_id % dst_devices if dst_devices > 1 else rank_id
    local = _rank_list_for_transform_parallel_checkpoint(local_rank, src_list, dst_list)
    result, stages = set(), set()
    for layout in src_list.values():
        for stage in layout[6]:
            if stage not in stages:
                stages.add(stage)
                result.update(stage * src_devices + r for r in local)
    return sorted(result, reverse=True)


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """The source ranks whose checkpoints rank ``rank_id`` of the destination strategy needs,
    highest first."""
    if not isinstance(rank_id, int):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    return _needed_ranks(rank_id, build_searched_strategy(src_strategy_file),
                         build_searched_strategy(dst_strategy_file))


class _Source:
    """One checkpoint file (.ckpt or .safetensors), indexed when opened (``Host``'s
    ``CheckpointReader``): its entries' names in file order, shapes and types, each entry read
    from the file only when asked, so the tools hold the slices of one parameter at a time."""

    def __init__(self, path):
        self.path = path
        self._reader = host().checkpoints().open(path)
        self._names = list(self._reader.names())

    def __iter__(self):
        return iter(self._names)

    def __contains__(self, name):
        return self._reader.has(name)

    def shape(self, name):
        return [int(d) for d in self._reader.shape(name)]

    def dtype(self, name):
        """The entry's mstype; None for a text entry."""
        engine = self._reader.engineType(name)
        return None if engine is None else mstype._by_engine_name(engine)  # pylint: disable=protected-access

    def engine_type(self, name):
        """The engine's name of the entry's dtype (``FLOAT32``...); None for a text entry."""
        return self._reader.engineType(name)

    def read(self, name):
        """The entry's value: a Tensor, or the str of a text entry."""
        entry = self._reader.read(name)
        if self._reader.engineType(name) is None:
            return entry.text()
        return Tensor._wrap(entry.tensor().java)  # pylint: disable=protected-access

    def read_box(self, name, box):
        """The box [(begin, end)] per dimension of tensor entry ``name``, only its bytes read."""
        return Tensor._wrap(self._reader.readBox(name, [b for b, _ in box], [e for _, e in box]).java)  # pylint: disable=protected-access

    def itemsize(self, name):
        """The bytes of one element of entry ``name``."""
        return self._reader.itemSize(name)

    def metadata(self):
        return dict(self._reader.metadata())


class _Out:
    """One entry of a checkpoint being written: its name, shape and type, and ``make()`` giving its
    value (a Tensor, or a str) when the writer gets to it."""

    __slots__ = ("name", "shape", "dtype", "make")

    def __init__(self, name, shape, dtype, make):
        self.name, self.shape, self.dtype, self.make = name, shape, dtype, make


def _java_of(value):
    return value if isinstance(value, str) else host().valueOf(value._java).java  # pylint: disable=protected-access


def _value_of(outs):
    """What the streaming writers call for an entry's value: its ``make()``, as the engine takes it."""
    by_name = {o.name: o for o in outs}
    return lambda name: _java_of(by_name[name].make())


def _write_ckpt(path, outs):
    """A .ckpt of ``outs`` in order, each value made as it is written (one held at a time)."""
    host().checkpoints().saveStreaming(path, [o.name for o in outs], _value_of(outs))


def _transform_rank(rank_id, loaded, src, src_devices, dst, dst_devices, strict=True):
    """[_Out] of destination rank ``rank_id``: ``loaded`` maps a source global rank to its
    ``_Source``, in the order the files were opened. Nothing is read here: each entry's ``make()``
    reads the source slices that overlap its destination slice, one at a time, into that slice.
    ``strict``: no parameter with a layout is MindSpore's ValueError (its .ckpt transform; its
    safetensors one allows it)."""
    dst_stage, dst_local = divmod(rank_id, dst_devices)
    transformed, kept, seen = [], [], set()
    last_devices = src_devices
    names = []
    for src_rank in loaded:
        for name in loaded[src_rank]:
            if name not in seen:
                seen.add(name)
                names.append(name)
    for name in names:
        in_src = src is None or name in src
        in_dst = dst is None or name in dst
        holders = [r for r in loaded if name in loaded[r]]
        if not (in_src and in_dst) or (src is None and dst is None):
            continue
        if dst is not None and dst_stage not in dst[name]:
            continue
        stage_of = {r: r // src_devices for r in holders}
        src_layout = None
        if src is not None:
            stages = sorted(src[name])
            holders = [r for r in holders if stage_of[r] in stages] or holders
            src_layout = src[name][stages[0]]
            holders = [r for r in holders if stage_of[r] == min(stage_of[h] for h in holders)]
        first = loaded[holders[0]]
        piece_shape = first.shape(name)
        shape = src_layout.full_shape(piece_shape) if src_layout else piece_shape
        dst_layout = _layout_for(dst.get(name) if dst is not None else None, dst_stage)
        want = dst_layout.box(shape, dst_local) if dst_layout else [(0, s) for s in shape]
        plan, covered, done = [], 0, set()
        for r in sorted(holders, key=lambda h: (h % src_devices != dst_local % src_devices, -h)):
            box = tuple(src_layout.box(shape, r % src_devices)) if src_layout else tuple((0, s) for s in shape)
            if box in done:
                continue
            overlap = [(max(b, wb), min(e, we)) for (b, e), (wb, we) in zip(box, want)]
            if any(b >= e for b, e in overlap):
                continue
            done.add(box)
            plan.append((loaded[r], box, overlap))
            covered += _product(e - b for b, e in overlap)
        if covered != _product(e - b for b, e in want):
            missing = [r for r in range(src_devices) if r not in {h % src_devices for h in holders}]
            raise ValueError("The checkpoint of rank {} is missing.".format(missing[0] if missing else rank_id))
        if src_layout is not None:
            last_devices = src_layout.devices()
        transformed.append(_Out(name, [e - b for b, e in want], first.dtype(name),
                                _assembler(name, want, plan, first.engine_type(name))))
    source_rank = dst_local % last_devices
    done_names = {o.name for o in transformed}
    for name in names:
        in_src = src is None or name in src
        in_dst = dst is None or name in dst
        if name in done_names or (in_src and in_dst and not (src is None and dst is None)):
            continue
        holder = next((r for r in loaded if r % last_devices == source_rank and name in loaded[r]), None)
        if holder is None:
            holder = next(r for r in loaded if name in loaded[r])
        source = loaded[holder]
        kept.append(_Out(name, source.shape(name), source.dtype(name),
                         lambda source=source, name=name: source.read(name)))
    if strict and not transformed:
        raise ValueError("None of the parameters in checkpoint file are in either src strategy or dst strategy. "
                         "Please check correctness of strategy files.")
    return transformed + kept


def _assembler(name, want, plan, engine_type):
    """``make()`` of a destination slice: the box ``want`` of the whole tensor, each (source, source
    box, overlap) of ``plan`` read straight from its file into the slice (``CheckpointHost.assemble``):
    the slice and one read chunk are held, never a whole source entry nor a second copy."""

    def make():
        readers, begins, ends, ats = [], [], [], []
        for source, box, overlap in plan:
            readers.append(source._reader.java)  # pylint: disable=protected-access
            begins.append([b - bb for (b, _), (bb, _) in zip(overlap, box)])
            ends.append([e - bb for (_, e), (bb, _) in zip(overlap, box)])
            ats.append([b - wb for (b, _), (wb, _) in zip(overlap, want)])
        java = host().checkpoints().assemble(engine_type, [e - b for b, e in want], name, readers, begins, ends, ats)
        return Tensor._wrap(java.java)  # pylint: disable=protected-access

    return make


def _save_read_only(outs, path):
    _write_ckpt(path, outs)  # written atomically
    os.chmod(path, 0o400)


def _load_rank_files(files):
    return {rank: _Source(path) for rank, path in files}


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file=None, dst_strategy_file=None):
    """Writes destination rank ``rank_id``'s checkpoint from the source ranks' files
    (``checkpoint_files_map``: {source rank: file})."""
    if not isinstance(checkpoint_files_map, dict):
        raise TypeError("The checkpoint_files_map should be a dict.")
    if not isinstance(rank_id, int):
        raise TypeError("The rank_id should be a int.")
    if not isinstance(save_checkpoint_file_name, str):
        raise TypeError("The save_checkpoint_file_name should be a str.")
    if save_checkpoint_file_name[-5:] != ".ckpt":
        raise ValueError("The save_checkpoint_file_name {} should end with .ckpt".format(save_checkpoint_file_name))
    _check_strategy_dir("dst_strategy_file", dst_strategy_file)
    for rank, path in checkpoint_files_map.items():
        if not os.path.isfile(path):
            raise ValueError("Checkpoint file {} in rank {} not exits: ".format(path, rank))
    src, src_devices, _ = _stage_layouts(src_strategy_file)
    dst, dst_devices, _ = _stage_layouts(dst_strategy_file)
    loaded = _load_rank_files(list(checkpoint_files_map.items()))
    if src is None:
        loaded = {0: next(iter(loaded.values()))} if loaded else {}
    _save_read_only(_transform_rank(rank_id, loaded, src, src_devices, dst, dst_devices), save_checkpoint_file_name)


_UNSAFE = [("..", r"\.\."), ("//", "//+"), ("~", "~"), ("./.", r"\./\.")]


def _check_path_safe(arg, value):
    import re  # pylint: disable=import-outside-toplevel
    for shown, pattern in _UNSAFE:
        if re.search(pattern, value):
            raise ValueError("{} contains '{}' is not safe, please use a safe one.".format(arg, shown))
    if re.search(r"^\s*$", value):
        raise ValueError("{} contains '^\\s*$' is not safe, please use a safe one.".format(arg))


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file=None,
                          dst_strategy_file=None, process_num=1, output_format="ckpt"):
    """Rewrites the checkpoints of every rank of ``src_strategy_file`` (``src_checkpoints_dir/
    rank_k/*.ckpt``, the last name in sort order per rank) for every rank of ``dst_strategy_file``:
    ``dst_checkpoints_dir/rank_r/{ckpt_prefix}{r}.ckpt``; safetensors sources as
    ``_transform_safetensors`` says."""
    import glob  # pylint: disable=import-outside-toplevel
    import re  # pylint: disable=import-outside-toplevel
    rank_dirs = glob.glob(os.path.join(src_checkpoints_dir, "rank_[0-9]*"))
    ckpts = [f for d in rank_dirs for f in glob.glob(os.path.join(d, "*.ckpt"))]
    safetensors = [f for d in rank_dirs for f in glob.glob(os.path.join(d, "*.safetensors"))]
    if ckpts and safetensors:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' cannot contain both ckpt file and "
                         "safetensors file simultaneously")
    if safetensors:
        _transform_safetensors(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file,
                               dst_strategy_file, process_num, output_format)
        return
    if not ckpts:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' can not be empty.")
    if output_format == "safetensors":
        raise ValueError("For 'transform_checkpoints', 'output_format' can not be 'safetensors' when "
                         "'src_checkpoints_dir' only contains ckpt file.")
    if not isinstance(dst_checkpoints_dir, str):
        raise TypeError("The path is invalid, the type should be string.")
    if not dst_checkpoints_dir.strip():
        raise ValueError("The path is invalid, it should be non-blank.")
    real_dst = os.path.realpath(dst_checkpoints_dir)
    if os.path.isfile(real_dst):
        raise NotADirectoryError("The path({}) is a file path, it should be a directory path.".format(real_dst))
    makedirs(real_dst, 0o700)
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    _check_strategy_dir("src_strategy_file", src_strategy_file)
    _check_strategy_dir("dst_strategy_file", dst_strategy_file)
    src_built, dst_built = build_searched_strategy(src_strategy_file), build_searched_strategy(dst_strategy_file)
    src, src_devices, _ = _stage_layouts(src_built)
    dst, dst_devices, dst_stages = _stage_layouts(dst_built)
    _check_path_safe("dst_checkpoints_dir", dst_checkpoints_dir)
    _check_path_safe("ckpt_prefix", ckpt_prefix)
    files = {}
    for d in rank_dirs:
        match = re.search(r"rank_([0-9]+)$", os.path.basename(d.rstrip("/")))
        if match is None:
            continue
        names = sorted(glob.glob(os.path.join(d, "*.ckpt")))
        if names:
            files[int(match.group(1))] = names[-1]
    cache = {}
    for rank in range(dst_devices * dst_stages):
        needed = _needed_ranks(rank, src_built, dst_built)
        for n in needed:
            if n not in files:
                raise ValueError("The checkpoint file of rank{} is needed for converting rank{}'s checkpoint, "
                                 "but it is missing.".format(n, rank))
        key = tuple(needed)
        if key not in cache:
            cache.clear()
            cache[key] = _load_rank_files([(n, files[n]) for n in needed])
        loaded = cache[key]
        if src is None:
            loaded = {0: loaded[needed[0]]}
        out_dir = os.path.join(real_dst, "rank_{}".format(rank))
        makedirs(out_dir, 0o700)
        outs = _transform_rank(rank, loaded, src, src_devices, dst, dst_devices)
        _save_read_only(outs, os.path.join(out_dir, "{}{}.ckpt".format(ckpt_prefix, rank)))


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file):
    """Joins the strategy files of every pipeline stage in ``src_strategy_dirs`` (all ``.ckpt``
    protobuf or all ``.json``) into ``dst_strategy_file``, each layout named ``<stage>-<name>``."""
    import glob  # pylint: disable=import-outside-toplevel
    dst_strategy_file = os.path.abspath(os.path.normpath(dst_strategy_file))
    dst_strategy_dir = os.path.dirname(dst_strategy_file)
    if not os.path.exists(dst_strategy_dir):
        _make_dir(dst_strategy_dir, "path")
    if not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError("src_strategy_dirs {} is not a directory.".format(src_strategy_dirs))
    protobuf = glob.glob(os.path.join(src_strategy_dirs, "*.ckpt"))
    json_files = glob.glob(os.path.join(src_strategy_dirs, "*.json"))
    if protobuf and json_files:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    if protobuf:
        _merge_protobuf_strategy(protobuf, dst_strategy_file)
    else:
        _merge_json_strategy(json_files, dst_strategy_file)


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None,
                               dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """{name: Parameter} of every ``.ckpt`` file in ``ckpt_file_dir`` (each loaded into ``net`` when
    one is given), later files winning."""
    import glob  # pylint: disable=import-outside-toplevel
    from mindspore.train.serialization import load_checkpoint  # pylint: disable=import-outside-toplevel
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError("The dst_strategy_file: {} doesn't exist. Or it's not a directory".format(ckpt_file_dir))
    parameter_dict = {}
    for checkpoint_file in glob.glob(os.path.join(ckpt_file_dir, "*.ckpt")):
        parameter_dict.update(load_checkpoint(checkpoint_file, net, strict_load, filter_prefix, dec_key,
                                              dec_mode, specify_prefix, choice_func))
    return parameter_dict


def _train_strategy_file(network):
    from mindspore import context  # pylint: disable=import-outside-toplevel
    for _, cell in network.cells_and_names():
        if type(cell).__name__ == "AutoParallel":
            return cell._save_strategy_file_path  # pylint: disable=protected-access
    return context.get_auto_parallel_context("strategy_ckpt_load_file")


def _predict_layouts(predict_strategy):
    """({name: {0: _Layout}}, devices) of a predict layout dict, the layouts of this rank's
    stage; (None, 1) for None."""
    if not predict_strategy:
        return None, 1
    layouts = {name: {0: _Layout(value[0], value[1])} for name, value in predict_strategy.items()}
    first = next(iter(layouts.values()))[0]
    return layouts, first.devices()


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode='AES-GCM',
                                format='ckpt', unified_safetensors_dir=None, dst_safetensors_dir=None, rank_id=None,
                                output_format='safetensors', name_map=None, max_process_num=64,
                                return_param_dict=False):
    """Loads the checkpoints of a training run's ranks (``checkpoint_filenames``, in rank order,
    sliced by ``train_strategy_filename``) into ``network``: each parameter whole, or this rank's
    slice of it under ``predict_strategy`` (``Model.infer_predict_layout``). With
    ``format="safetensors"``: the output of ``unified_safetensors`` (``unified_safetensors_dir``)
    sliced by the strategy file ``predict_strategy``, into ``network`` or, without one, saved per
    rank under ``dst_safetensors_dir``."""
    # pylint: disable=redefined-builtin,too-many-locals
    from mindspore.nn import Cell  # pylint: disable=import-outside-toplevel
    from mindspore.train.serialization import load_checkpoint, load_param_into_net  # pylint: disable=import-outside-toplevel
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    del max_process_num
    if format not in ['safetensors', 'ckpt'] or output_format not in ['safetensors', 'ckpt']:
        raise ValueError(f"For 'load_distributed_checkpoint', 'format' and 'output_format' "
                         f"must be 'ckpt' or 'safetensors', but got {format}.")
    if format == 'safetensors':
        return _load_distributed_safetensors(network, checkpoint_filenames, predict_strategy, train_strategy_filename,
                                             strict_load, dec_key, dec_mode, unified_safetensors_dir,
                                             dst_safetensors_dir, rank_id, output_format, name_map,
                                             return_param_dict)
    if not isinstance(network, Cell):
        raise ValueError(f"The parameter 'network' must be isinstance of {Cell}, but got {network}.")
    _check_checkpoint_file(checkpoint_filenames)
    _check_predict_strategy(predict_strategy)
    if not isinstance(dec_key, (type(None), bytes)):
        raise ValueError(f"The parameter 'dec_key' must be isinstance of {(type(None), bytes)}, but got {dec_key}.")
    if not isinstance(dec_mode, str):
        raise ValueError(f"The parameter 'dec_mode' must be isinstance of {str}, but got {dec_mode}.")
    if train_strategy_filename is None:
        train_strategy_filename = _train_strategy_file(network)
    train_strategy = build_searched_strategy(train_strategy_filename)
    if not train_strategy:
        return True
    train_dev_count = 1
    for dim in train_strategy[list(train_strategy.keys())[0]].dev_matrix[0].dim:
        train_dev_count *= dim
    if train_dev_count != len(checkpoint_filenames):
        raise ValueError(f"For 'Load_distributed_checkpoint', the length of 'checkpoint_filenames' should be "
                         f"equal to the device count of training process. "
                         f"But got the length of 'checkpoint_filenames'"
                         f" is {len(checkpoint_filenames)} and the device count is {train_dev_count}.")
    src, src_devices, _ = _stage_layouts(train_strategy_filename)
    dst, dst_devices = _predict_layouts(predict_strategy)
    local_rank = 0
    if dst is not None:
        from mindspore.communication.management import get_rank  # pylint: disable=import-outside-toplevel
        local_rank = get_rank() % dst_devices
    if dec_key is not None:
        load_checkpoint(checkpoint_filenames[0], dec_key=dec_key, dec_mode=dec_mode)  # its error
    loaded = {rank: _Source(checkpoint_filenames[rank]) for rank in reversed(range(len(checkpoint_filenames)))}
    transformed = {o.name: o for o in _transform_rank(local_rank, loaded, src, src_devices, dst, dst_devices)}
    param_dict, not_in_strategy, not_in_ckpt = {}, [], []
    for _, param in network.parameters_and_names():
        if param.name not in src:
            not_in_strategy.append(param.name)
            continue
        if param.name not in transformed:
            not_in_ckpt.append(param.name)
            continue
        data = transformed[param.name].make()
        group = predict_strategy[param.name][5] if predict_strategy and len(predict_strategy[param.name]) > 5 \
            else None
        if group:
            data = _opt_shard_piece(param.name, data, group)
        param_dict[param.name] = Parameter(data, param.name)
    if not_in_strategy:
        logger.warning("For 'load_distributed_checkpoint', {} parameters in network are not in the slice strategy, "
                       "you can check whether 'predict_strategy' or 'train_strategy_filename' is correct."
                       .format(not_in_strategy))
    if not_in_ckpt:
        logger.warning("For 'load_distributed_checkpoint', {} parameters in network and slice strategy but not in "
                       "the checkpoint file, please check whether 'checkpoint_filenames' is correct."
                       .format(not_in_ckpt))
    load_param_into_net(network, param_dict, strict_load=strict_load)
    return True


def _opt_shard_piece(name, data, group):
    """This rank's piece of ``data`` in optimizer shard group ``group`` (dimension 0 split evenly)."""
    from mindspore.communication.management import get_group_size, get_rank  # pylint: disable=import-outside-toplevel
    array = data.asnumpy()
    size, rank = get_group_size(group), get_rank(group)
    if array.shape[0] % size:
        raise RuntimeError(f"array split does not result in an equal division\nFor 'load_distributed_checkpoint', "
                           f"failed to load opt shard slice in load distributed checkpoint for {name}. Data shape is "
                           f"{tuple(array.shape)} and group is {group}.")
    step = array.shape[0] // size
    return Tensor(array[rank * step:(rank + 1) * step], data.dtype)


# ---- safetensors sources: transform_checkpoints of .safetensors files, unified_safetensors ----

def _file_numbers(path):
    """MindSpore's sort key for a rank's files: the last two numbers in the name."""
    import re  # pylint: disable=import-outside-toplevel
    return [int(n) for n in re.findall(r"\d+", path)][-2:]


def _collect_files(src_dir, file_format="safetensors", file_suffix=None):
    """{rank: file} of ``src_dir/rank_<n>/*{file_suffix}.{file_format}`` (the last by its numbers);
    {0: src_dir} when ``src_dir`` is itself a safetensors file."""
    import glob  # pylint: disable=import-outside-toplevel
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    if os.path.isfile(src_dir) and file_format == "safetensors" and src_dir.endswith("safetensors"):
        return {0: src_dir}
    files = {}
    for rank_dir in glob.glob(os.path.join(src_dir, "rank_[0-9]*")):
        if not os.path.isdir(rank_dir):
            logger.warning("{} is not a directory.".format(rank_dir))
            continue
        rank = rank_dir.split("rank_")[-1]
        if not rank.isdigit():
            logger.warning("{} is not a expected directory, the directory should end with rank_0/rank_1.....".
                           format(rank_dir))
            continue
        pattern = "*.{}".format(file_format) if file_suffix is None else "*{}.{}".format(file_suffix, file_format)
        names = sorted(glob.glob(os.path.join(rank_dir, pattern)), key=_file_numbers)
        if names:
            files[int(rank)] = names[-1]
    return files


def _write_safetensors(path, outs, meta):
    """A safetensors file of ``outs`` with metadata ``meta``, each value made as it is written,
    atomically and left read-only as MindSpore's ``_save_file_atomically`` does."""
    import stat  # pylint: disable=import-outside-toplevel
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR)
        os.remove(path)
    keys = list(meta)
    host().checkpoints().saveSafetensorsStreaming(
        path, [o.name for o in outs], [o.dtype.engine_name for o in outs], [list(o.shape) for o in outs],
        _value_of(outs), keys, [meta[k] for k in keys])
    os.chmod(path, stat.S_IRUSR)


def _check_transform_safetensors(ckpt_prefix, src_strategy_file, dst_strategy_file):
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    _check_strategy_dir("src_strategy_file", src_strategy_file)
    _check_strategy_dir("dst_strategy_file", dst_strategy_file)


def _needed_groups(src_built, dst_built, dst_ranks, files):
    """{needed source ranks: [destination ranks]} of destination ranks 0..``dst_ranks``-1, every
    needed file present."""
    groups = {}
    for rank in range(dst_ranks):
        groups.setdefault(tuple(_needed_ranks(rank, src_built, dst_built)), []).append(rank)
    for needed, ranks in groups.items():
        for n in needed:
            if n not in files:
                raise ValueError("The safetensor file of rank{} is needed for converting rank{}'s safetensor, "
                                 "but it is missing.".format(n, ranks))
    return groups


def _transform_safetensors(src_dir, dst_dir, ckpt_prefix, src_strategy_file=None, dst_strategy_file=None,
                           process_num=1, output_format="safetensors"):
    """transform_checkpoints of safetensors sources: ``dst_dir/rank_r/{ckpt_prefix}{r}.{output_format}``
    for every destination rank (metadata {"format": "ms"}, read-only; a .ckpt output is a plain
    checkpoint). One group of source files (the ranks some destination ranks need) is in memory at a
    time."""
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    _check_transform_safetensors(ckpt_prefix, src_strategy_file, dst_strategy_file)
    if output_format not in ["safetensors", "ckpt"]:
        raise ValueError(f"For 'transform_safetensors', the output_format must be "
                         f"'safetensors' or 'ckpt', but got {output_format}.")
    real_dst = _make_dir(dst_dir, "path")
    files = _collect_files(src_dir)
    src_built, dst_built = build_searched_strategy(src_strategy_file), build_searched_strategy(dst_strategy_file)
    src, src_devices, _ = _stage_layouts(src_built)
    dst, dst_devices, dst_stages = _stage_layouts(dst_built)
    groups = _needed_groups(src_built, dst_built, dst_devices * dst_stages, files)
    if process_num > len(groups):
        logger.warning("The value of process_num cannot be greater than that of needed_rank_list_map.")
    for needed, ranks in groups.items():
        loaded = {n: _Source(files[n]) for n in needed}
        if src is None:
            loaded = {0: loaded[needed[0]]}
        for rank in ranks:
            outs = _transform_rank(rank, loaded, src, src_devices, dst, dst_devices, strict=False)
            if not outs:
                continue
            out_dir = os.path.join(real_dst, "rank_{}".format(rank))
            _make_dir(out_dir, "path")
            path = os.path.join(out_dir, "{}{}.{}".format(ckpt_prefix, rank, output_format))
            if output_format == "safetensors":
                _write_safetensors(path, outs, {"format": "ms"})
            else:
                _write_ckpt(path, outs)


def _byte_size(shape, itemsize):
    size = itemsize
    for d in shape:
        size *= int(d)
    return size


def unified_safetensors(src_dir, src_strategy_file, dst_dir, merge_with_redundancy=True, file_suffix=None,
                        max_process_num=64, choice_func=None, split_dst_file=()):
    """Merges the per-rank safetensors of ``src_dir`` (``rank_<n>/*{file_suffix}.safetensors``, sliced by
    ``src_strategy_file``) into whole parameters: ``dst_dir/part<i>.safetensors`` (parts of at most
    about 3 GiB, balanced by size), ``hyper_param.safetensors`` (rank 0's entries without a layout)
    and ``param_name_map.json``. ``choice_func`` drops (False) or renames (a str) parameters;
    ``split_dst_file=(i, n)`` writes only the i-th of n shares of the parts. One source file and the
    slices of one part are in memory at a time."""
    # pylint: disable=too-many-locals,too-many-branches
    import json  # pylint: disable=import-outside-toplevel
    import math  # pylint: disable=import-outside-toplevel
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    del max_process_num
    _check_transform_safetensors("", src_strategy_file, None)
    real_dst = _make_dir(dst_dir, "path")
    if os.path.isfile(src_dir):
        raise ValueError("For 'unified_safetensors', the 'src_dir' can not be a file.")
    files = _collect_files(src_dir, "safetensors", file_suffix)
    if files and _collect_files(src_dir, "ckpt"):
        raise ValueError("For 'unified_safetensors', the 'src_dir' cannot contain "
                         "both ckpt file and safetensors file simultaneously")
    src_built = build_searched_strategy(src_strategy_file)
    src, src_devices, _ = _stage_layouts(src_built)
    _needed_groups(src_built, None, 1, files)
    shapes, sources = {}, {rank: _Source(path) for rank, path in files.items()}
    for rank, source in sources.items():
        shapes[rank] = {n: (source.shape(n), source.itemsize(n)) for n in source}
        redundancy = source.metadata().get("remove_redundancy")
        if redundancy == "True" and merge_with_redundancy:
            logger.warning("For 'unified_safetensors', the safetensors file is deduplicated, "
                           "but merge_with_redundancy is set to True.")
            merge_with_redundancy = False
        elif redundancy == "False" and not merge_with_redundancy:
            logger.warning("For 'unified_safetensors', the safetensors file is non-deduplicated, "
                           "but merge_with_redundancy is set to False.")
            merge_with_redundancy = True
    actual = set()
    for names in shapes.values():
        actual.update(names)
    name_list = [n for n in actual & set(src) if not n.startswith("accu_grads")]
    sizes = {}
    for rank in files:
        for name, (shape, itemsize) in shapes[rank].items():
            if name not in name_list:
                continue
            if choice_func is not None:
                choice = choice_func(name)
                if isinstance(choice, bool) and not choice:
                    name_list.remove(name)
                    continue
            if name not in sizes:
                layout = _layout_for(src[name], min(src[name]))
                sizes[name] = _byte_size(layout.full_shape(shape), itemsize)
    total = sum(sizes.values())
    split_num = min(math.ceil(sum(sizes.values()) / 1024 / 1024 / 1024 / 3), len(name_list))
    parts = [[] for _ in range(split_num)]
    part_bytes = [0] * split_num
    for name, size in sorted(sizes.items(), key=lambda item: -item[1]):
        k = part_bytes.index(min(part_bytes))
        parts[k].append(name)
        part_bytes[k] += size
    if split_dst_file:
        current, machines = split_dst_file
        share, rest = divmod(len(parts), machines)
        begin = share * (current - 1) + min(current - 1, rest)
        mine = list(range(begin, begin + share + (1 if current <= rest else 0)))
    else:
        mine = list(range(split_num))
    first = not split_dst_file or split_dst_file[0] == 1
    if first:
        hyper = []
        if 0 in sources:
            hyper = [_Out(n, sources[0].shape(n), sources[0].dtype(n), lambda n=n: sources[0].read(n))
                     for n in sources[0] if n not in name_list]
        if hyper:
            _write_safetensors(os.path.join(real_dst, "hyper_param.safetensors"), hyper, {"format": "ms"})
        weight_map = {}
        for index, part in enumerate(parts):
            for name in part:
                choice = choice_func(name) if choice_func is not None else None
                weight_map[choice if isinstance(choice, str) else name] = "part{}.safetensors".format(index)
        with open(os.path.join(real_dst, "param_name_map.json"), "w") as f:
            f.write(json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}, indent=4))
    for index in mine:
        wanted = set(parts[index])
        loaded = {rank: sources[rank] for rank in sorted(files, reverse=True)}
        whole = {o.name: o for o in _transform_rank(0, loaded, {n: src[n] for n in wanted}, src_devices, None, 1,
                                                     strict=False)}
        outs = []
        for name in parts[index]:
            choice = choice_func(name) if choice_func is not None else None
            o = whole[name]
            outs.append(_Out(choice if isinstance(choice, str) else name, o.shape, o.dtype, o.make))
        _write_safetensors(os.path.join(real_dst, "part{}.safetensors".format(index)), outs, {"format": "ms"})


def _load_distributed_safetensors(network, checkpoint_filenames, predict_strategy, train_strategy_filename,
                                  strict_load, dec_key, dec_mode, unified_dir, dst_dir, rank_id, output_format,
                                  name_map, return_param_dict):
    """load_distributed_checkpoint(format="safetensors"): the whole parameters of ``unified_dir``
    (``unified_safetensors``' output) sliced for a rank by the strategy file ``predict_strategy``,
    loaded into ``network`` (this rank's), or saved as ``dst_dir/rank_r/net.{output_format}`` for
    ``rank_id`` (every rank of the strategy when None)."""
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    from mindspore.train.serialization import load_param_into_net, save_checkpoint  # pylint: disable=import-outside-toplevel
    if unified_dir is None:
        raise ValueError("For 'load_distributed_checkpoint', 'unified_safetensors_dir' can not be None "
                         "when format is 'safetensors'.")
    for value in (checkpoint_filenames, train_strategy_filename, dec_key):
        if value is not None:
            raise ValueError(f"For 'load_distributed_checkpoint', {value} must be None "
                             f"when format is 'safetensors'.")
    if strict_load or dec_mode != 'AES-GCM':
        raise ValueError("For 'load_distributed_checkpoint', strict_load and dec_mode must be default "
                         "when format is 'safetensors'.")
    if network is not None:
        from mindspore.communication.management import get_rank  # pylint: disable=import-outside-toplevel
        try:
            rank_id = get_rank()
        except RuntimeError:
            rank_id = 0
            logger.warning("Get rank failed, default loading weight for rank 0.")
        params = _load_unified(unified_dir, predict_strategy, rank_id, name_map)
        if return_param_dict:
            return params
        return load_param_into_net(network, params)
    if dst_dir is None:
        raise ValueError("For 'load_distributed_checkpoint', 'dst_safetensors_dir' can not be None "
                         "when network is None.")
    if rank_id is not None:
        ranks = [rank_id]
    else:
        _, devices, stages = _stage_layouts(predict_strategy)
        ranks = range(devices * stages)
    for rank in ranks:
        params = _load_unified(unified_dir, predict_strategy, rank, name_map)
        _make_dir(os.path.join(dst_dir, f"rank_{rank}"), "path")
        save_checkpoint(params, os.path.join(dst_dir, f"rank_{rank}", f"net.{output_format}"), format=output_format)
    return True


def _progress_bar(items):
    """MindSpore's progress line while loading unified safetensors: after each item, on stdout,
    ``\\r<percent>%|<bar of 40>|[<elapsed><<left>]``, and a newline after the last."""
    import sys  # pylint: disable=import-outside-toplevel
    import time  # pylint: disable=import-outside-toplevel
    total = len(items)
    start = time.time()
    for i, item in enumerate(items, start=1):
        yield item
        if hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(encoding="utf-8")
        filled = int(40 * i // total)
        elapsed = time.time() - start
        left = elapsed / i * total - elapsed
        print(f"\r{100 * (i / float(total)):.1f}%|{'█' * filled}{'-' * (40 - filled)}|"
              f"[{time.strftime('%H:%M:%S', time.gmtime(elapsed))}<{time.strftime('%H:%M:%S', time.gmtime(left))}]",
              end='')
        if i == total:
            print()
        sys.stdout.flush()


def _load_unified(unified_dir, strategy_file, rank_id, name_map):
    """{name: Parameter} of rank ``rank_id`` from ``unified_safetensors``' output in ``unified_dir``:
    each parameter of the strategy's stage for that rank sliced by its layout (all of them, whole,
    without a strategy file), then the hyper parameters. Each part file is indexed, and only the
    rank's slice of each parameter is read from it."""
    import json  # pylint: disable=import-outside-toplevel
    listing = os.listdir(unified_dir)
    parts = [f for f in listing if f.endswith(".safetensors")]
    if len(parts) == 1:
        path = os.path.join(unified_dir, parts[0])
        if not os.path.isfile(path):
            raise ValueError("For 'load_parallel_checkpoint', weight files must be included "
                             "in the `unified_safetensors_dir`.")
        flipped = {v: k for k, v in (name_map or {}).items()}
        name_to_file = {flipped.get(k, k): parts[0] for k in _Source(path)}
    else:
        if "param_name_map.json" not in listing:
            raise ValueError("For 'load_parallel_checkpoint', there must be a JSON file named 'param_name_map.json' "
                             "in the 'total_safetensors_dir'.")
        with open(os.path.join(unified_dir, "param_name_map.json"), "r") as f:
            name_to_file = json.load(f)
        name_to_file = name_to_file.get("weight_map", name_to_file)
    layouts, devices = None, 1
    if strategy_file is not None:
        src, devices, _ = _stage_layouts(strategy_file)
        stage = rank_id // devices
        layouts = {n: entries[stage] for n, entries in src.items() if stage in entries}
        names = list(layouts)
    else:
        names = list(name_to_file)
    cache, sliced = {}, {}
    for name in _progress_bar(names):
        if name not in name_to_file:
            continue
        file_name = name_to_file[name]
        if file_name not in cache:
            cache.clear()  # the parts hold their parameters together: one index at a time
            cache[file_name] = _Source(os.path.join(unified_dir, file_name))
        stored = (name_map or {}).get(name, name)
        if stored not in cache[file_name]:
            continue
        source = cache[file_name]
        if layouts is None:
            sliced[name] = Parameter(source.read(stored))
            continue
        # Only the rank's slice of the whole parameter is read.
        sliced[name] = Parameter(source.read_box(stored, layouts[name].box(source.shape(stored), rank_id % devices)))
    params = {name: sliced[name] for name in names if name in sliced}
    if "hyper_param.safetensors" in listing:
        hyper = _Source(os.path.join(unified_dir, "hyper_param.safetensors"))
        params.update({n: Parameter(hyper.read(n)) for n in hyper})
    return params


def _sync_params(name, param, layout):
    """Sends or receives one parameter by its layout's pipeline-shared fields (MindSpore's order:
    shared, is_send, peer rank, tag at positions 8 to 11)."""
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    from mindspore import ops  # pylint: disable=import-outside-toplevel
    if len(layout) < 10:
        logger.warning("The layout dict does not contain the pipeline_shared_param info %s", name)
        return
    if not layout[8]:
        return
    if layout[9]:
        ops.Send(sr_tag=layout[11], dest_rank=layout[10])(param)
    else:
        param.assign_value(ops.Receive(sr_tag=layout[11], src_rank=layout[10], shape=param.shape,
                                       dtype=param.dtype)(param))


def sync_pipeline_shared_parameters(net):
    """Copies each parameter several pipeline stages hold (a tied embedding read by the first
    stage's lookup and the last stage's head) from the lowest of those stages to the others, rank to
    rank by position in the stage, as MindSpore does for pipeline inference; the network must have
    been compiled (its ``parameter_layout_dict`` names the shared parameters and their peers)."""
    import mindspore as ms  # pylint: disable=import-outside-toplevel
    from mindspore import log as logger  # pylint: disable=import-outside-toplevel
    from mindspore.parallel.parameter_broadcast import _parallel_settings  # pylint: disable=import-outside-toplevel
    if not isinstance(net, ms.nn.Cell):
        logger.critical("Failed to synchronize pipeline shared parameters.")
        raise TypeError("For 'sync_pipeline_shared_parameters', the argument 'net' should be a Cell, "
                        "but got {}.".format(type(net)))
    _, pipeline_stages = _parallel_settings(net)
    if pipeline_stages < 2:
        return
    # An uncompiled network has no layouts, so nothing is synchronized (MindSpore falls back to the
    # last compiled graph's layouts, which name other parameters).
    layout_dict = net.parameter_layout_dict
    for name, param in net.parameters_and_names():
        if name in layout_dict:
            _sync_params(name, param, layout_dict[name])
