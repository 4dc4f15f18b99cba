"""Distributed-checkpoint tools of ``mindspore.parallel`` (MindSpore 2.10's
``mindspore/parallel/checkpoint_transform.py``): ``build_searched_strategy`` reads the parameter
layouts of a strategy file (protobuf or JSON, the files ``strategy_ckpt_config`` saves) and
``merge_sliced_parameter`` joins the slices of one parameter, in rank order, into the whole
parameter (along axis 0, or by a strategy's device matrix and tensor map).

``transform_checkpoints``, ``transform_checkpoint_by_rank`` and ``rank_list_for_transform`` move
checkpoints between two strategy files (different device counts, tensor and optimizer sharding,
pipeline stages) for ``.ckpt`` sources. Still missing: safetensors sources,
``load_distributed_checkpoint``, ``merge_pipeline_strategys``, ``load_segmented_checkpoints``
(README, issue 21).
"""
import os

from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.parallel._tensor import (_get_tensor_slice_index, _get_tensor_strategy, _join_slices, _np,
                                        _reshape_param_data, _reshape_param_data_with_weight)

__all__ = ["build_searched_strategy", "merge_sliced_parameter", "rank_list_for_transform",
           "transform_checkpoint_by_rank", "transform_checkpoints"]


class _Dims:
    """A repeated-int protobuf message of node_strategy.proto (DevMatrix, TensorMap, ...): ``.dim``."""

    def __init__(self, dims):
        self.dim = list(dims)

    def __repr__(self):
        return "dim: " + str(self.dim)


class ParallelLayouts:
    """One parameter's layout as MindSpore's ``node_strategy_pb2.ParallelLayouts`` exposes it:
    repeated ``dev_matrix``, ``tensor_map``, ``param_split_shape``, ``indices_offset`` (each with
    ``.dim``), and ``field``, ``opt_weight_shard_step``, ``opt_weight_shard_size``."""

    def __init__(self, dev_matrix, tensor_map, field=0, opt_weight_shard_step=0, opt_weight_shard_size=0,
                 param_split_shape=(), indices_offset=()):
        self.dev_matrix = [_Dims(dev_matrix)]
        self.tensor_map = [_Dims(tensor_map)]
        self.param_split_shape = [_Dims(param_split_shape)]
        self.indices_offset = [_Dims(indices_offset)]
        self.field = field
        self.opt_weight_shard_step = opt_weight_shard_step
        self.opt_weight_shard_size = opt_weight_shard_size


def build_searched_strategy(strategy_filename):
    """{parameter name: ParallelLayouts} of a strategy file; None for None."""
    if strategy_filename is None:
        return strategy_filename
    if not isinstance(strategy_filename, str):
        raise TypeError(f"For 'build_searched_strategy', the argument 'strategy_filename' should be string, "
                        f"but got {type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy_filename}. "
                         f"Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} should not "
                         f"be empty. Please check whether the 'strategy_filename' is correct.")
    try:
        layouts = host().strategyFileLayouts(strategy_filename)
    except ValueError as e:
        if strategy_filename.endswith(".json"):
            raise
        raise TypeError("The strategy file type should be one of json or protobuf. "
                        "When the file name extension is not '.json', "
                        "the file is considered as a protobuf file.") from e
    strategy = {}
    for name, (dev_matrix, tensor_map, _, extra) in layouts.items():
        strategy[name] = ParallelLayouts(dev_matrix, tensor_map, *extra)
    return strategy


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
# the destination's local rank.

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
        count = 1
        for d in self.dm:
            count *= d
        return count

    def _opt_size(self, step, size):
        used = set()
        for t in self.tm:
            for axis in (t if isinstance(t, list) else [t]):
                if axis != -1:
                    used.add(len(self.dm) - 1 - axis)
        self.repeated = [d for d in range(len(self.dm)) if d not in used and self.dm[d] > 1]
        if not self.repeated:
            raise ValueError("The device_matrix {} and tensor_map {} cannot sharding opt_shard".format(self.dm, self.tm))
        if len(self.repeated) == 1:
            inner = 1
            for d in self.dm[self.repeated[0] + 1:]:
                inner *= d
            if inner != step:
                raise ValueError("The optimizer sharding step {} is not equal to the model parallel sharding "
                                 "size {}.".format(step, inner))
        if size == -1:
            split = 1
            for s in self.strategy:
                split *= s
            size = self.devices() // split
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
    """({name: {stage: _Layout}}, devices per stage, stages) of a strategy file; (None, 1, 1) for None."""
    if strategy_file is None:
        return None, 1, 1
    raw = build_searched_strategy(strategy_file)
    if not raw:
        raise IndexError("list index out of range")
    layouts, stages, first = {}, set(), None
    for full_name, pl in raw.items():
        stage, name = 0, full_name
        if "-" in full_name:
            head, name = full_name.split("-", 1)
            stage = int(head)
        layout = _Layout(pl.dev_matrix[0].dim, pl.tensor_map[0].dim, pl.opt_weight_shard_step,
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


def _needed_ranks(rank_id, src, src_devices, dst, dst_devices):
    """The source ranks (global, descending) whose slices overlap rank ``rank_id``'s destination
    slices (one rank per distinct source box, the one with the destination's local rank first),
    and in every source stage the rank with the destination's local rank, which the parameters
    without a layout are copied from (as MindSpore's list always holds it)."""
    if src is None:
        return [0]
    dst_stage, dst_local = divmod(rank_id, dst_devices)
    needed = {stage * src_devices + dst_local % src_devices
              for entries in src.values() for stage in entries}
    probe = {}
    for name, entries in src.items():
        if dst is not None and name not in dst:
            continue
        dst_layout = _layout_for(dst.get(name) if dst is not None else None, dst_stage)
        if dst is not None and dst_stage not in dst[name]:
            continue
        for stage, layout in entries.items():
            # A shape every layout divides: the product of both strategies' splits, per dimension.
            shape = [max(src_devices, dst_devices)] * len(layout.tm)
            key = (stage, layout.key(), dst_layout.key() if dst_layout else None)
            if key in probe:
                needed |= probe[key]
                continue
            shape = layout.full_shape(shape)
            want = dst_layout.box(shape, dst_local) if dst_layout else [(0, s) for s in shape]
            ranks = _covering_ranks(layout, shape, want, dst_local % src_devices, src_devices)
            probe[key] = {stage * src_devices + r for r in ranks}
            needed |= probe[key]
    return sorted(needed, reverse=True)


def _covering_ranks(layout, shape, want, preferred, devices):
    """Source local ranks, one per distinct box overlapping ``want`` (``preferred`` first if it
    holds one)."""
    chosen = {}
    order = [preferred] + [r for r in range(devices) if r != preferred]
    for r in order:
        box = tuple(layout.box(shape, r))
        if box not in chosen and all(b < we and wb < e for (b, e), (wb, we) in zip(box, want)):
            chosen[box] = r
    if not want:
        return [preferred]
    return list(chosen.values())


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """The source ranks whose checkpoints rank ``rank_id`` of the destination strategy needs,
    highest first."""
    if not isinstance(rank_id, int):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    src, src_devices, _ = _stage_layouts(src_strategy_file)
    dst, dst_devices, _ = _stage_layouts(dst_strategy_file)
    return _needed_ranks(rank_id, src, src_devices, dst, dst_devices)


def _transform_rank(rank_id, loaded, src, src_devices, dst, dst_devices):
    """[(name, Tensor)] of destination rank ``rank_id``: ``loaded`` maps a source global rank to its
    checkpoint's {name: Parameter}, in the order the files were loaded."""
    np = _np()
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
        first = loaded[holders[0]][name]
        data = first.asnumpy()
        shape = src_layout.full_shape(list(data.shape)) if src_layout else list(data.shape)
        dst_layout = _layout_for(dst.get(name) if dst is not None else None, dst_stage)
        want = dst_layout.box(shape, dst_local) if dst_layout else [(0, s) for s in shape]
        out = np.empty([e - b for b, e in want], dtype=data.dtype)
        covered = 0
        done = set()
        for r in sorted(holders, key=lambda h: (h % src_devices != dst_local % src_devices, -h)):
            local = r % src_devices
            box = tuple(src_layout.box(shape, local)) if src_layout else tuple((0, s) for s in shape)
            if box in done:
                continue
            overlap = [(max(b, wb), min(e, we)) for (b, e), (wb, we) in zip(box, want)]
            if any(b >= e for b, e in overlap):
                continue
            done.add(box)
            piece = loaded[r][name].asnumpy().reshape([e - b for b, e in box])
            source = tuple(slice(b - bb, e - bb) for (b, e), (bb, _) in zip(overlap, box))
            target = tuple(slice(b - wb, e - wb) for (b, e), (wb, _) in zip(overlap, want))
            out[target] = piece[source]
            size = 1
            for b, e in overlap:
                size *= e - b
            covered += size
        if covered != out.size:
            missing = [r for r in range(src_devices) if r not in {h % src_devices for h in holders}]
            raise ValueError("The checkpoint of rank {} is missing.".format(missing[0] if missing else rank_id))
        if src_layout is not None:
            last_devices = src_layout.devices()
        transformed.append((name, Tensor(out, first.dtype)))
    source_rank = dst_local % last_devices
    done_names = {n for n, _ in transformed}
    for name in names:
        in_src = src is None or name in src
        in_dst = dst is None or name in dst
        if name in done_names or (in_src and in_dst and not (src is None and dst is None)):
            continue
        holder = next((r for r in loaded if r % last_devices == source_rank and name in loaded[r]), None)
        if holder is None:
            holder = next(r for r in loaded if name in loaded[r])
        kept.append((name, Tensor(loaded[holder][name].asnumpy(), loaded[holder][name].dtype)))
    if not transformed:
        raise ValueError("None of the parameters in checkpoint file are in either src strategy or dst strategy. "
                         "Please check correctness of strategy files.")
    return transformed + kept


def _save_read_only(pairs, path):
    from mindspore.train.serialization import save_checkpoint  # pylint: disable=import-outside-toplevel
    save_checkpoint([{"name": n, "data": t} for n, t in pairs], path)  # written atomically
    os.chmod(path, 0o400)


def _load_rank_files(files):
    from mindspore.train.serialization import load_checkpoint  # pylint: disable=import-outside-toplevel
    return {rank: load_checkpoint(path) for rank, path in files}


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
    ``dst_checkpoints_dir/rank_r/{ckpt_prefix}{r}.ckpt``."""
    import glob  # pylint: disable=import-outside-toplevel
    import re  # pylint: disable=import-outside-toplevel
    del process_num  # MindSpore reads it for safetensors sources only
    rank_dirs = glob.glob(os.path.join(src_checkpoints_dir, "rank_[0-9]*"))
    ckpts = [f for d in rank_dirs for f in glob.glob(os.path.join(d, "*.ckpt"))]
    safetensors = [f for d in rank_dirs for f in glob.glob(os.path.join(d, "*.safetensors"))]
    if ckpts and safetensors:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' cannot contain both ckpt file and "
                         "safetensors file simultaneously")
    if safetensors:
        raise NotImplementedError("msjvm: transform_checkpoints of safetensors sources is not supported yet; "
                                  "save the source checkpoints as .ckpt.")
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
    os.makedirs(real_dst, mode=0o700, exist_ok=True)
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    _check_strategy_dir("src_strategy_file", src_strategy_file)
    _check_strategy_dir("dst_strategy_file", dst_strategy_file)
    src, src_devices, _ = _stage_layouts(src_strategy_file)
    dst, dst_devices, dst_stages = _stage_layouts(dst_strategy_file)
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
        needed = _needed_ranks(rank, src, src_devices, dst, dst_devices)
        for n in needed:
            if n not in files:
                raise ValueError("The checkpoint file of rank{} is needed for converting rank{}'s checkpoint, "
                                 "but it is missing.".format(n, rank))
        key = tuple(needed)
        if key not in cache:
            cache.clear()  # one group of source files in memory at a time
            cache[key] = _load_rank_files([(n, files[n]) for n in needed])
        loaded = cache[key]
        if src is None:
            loaded = {0: loaded[needed[0]]}
        out_dir = os.path.join(real_dst, "rank_{}".format(rank))
        os.makedirs(out_dir, mode=0o700, exist_ok=True)
        pairs = _transform_rank(rank, loaded, src, src_devices, dst, dst_devices)
        _save_read_only(pairs, os.path.join(out_dir, "{}{}.ckpt".format(ckpt_prefix, rank)))
