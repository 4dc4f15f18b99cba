"""MindSpore's private strategy-file and checkpoint-slicing helpers
(``mindspore.parallel._parallel_serialization``) that its checkpoint tools, tests and scripts call.

Names, arguments, results and error texts are MindSpore 2.10's. A strategy file is read into
``{parameter name: node_strategy_pb2.ParallelLayouts}`` (protobuf, or JSON by its ``.json``
extension), and a layout is turned into MindSpore's list form ``[dev_matrix, tensor_map,
param_split_shape, field, opt_weight_shard_step, opt_weight_shard_size, [pipeline stages]]``, a
merged pipeline file's ``"<stage>-<name>"`` entries folded into one per parameter. Which source
ranks a destination rank reads is MindSpore's answer: the ranks of its redistribution plan
(``_tensor._get_needed_rank_list_by_layouts``, planned by the engine's port of its tensor
redistribution). The values of a transform are placed by box: each rank's slice of a parameter is a
box of the whole tensor (``checkpoint_transform._Layout``), and a destination slice is copied
together from the source slices it overlaps. numpy is imported only by the functions that need it.
"""
import json
import os

from mindspore import _checkparam as Validator
from mindspore import log as logger
from mindspore._dirs import makedirs
from mindspore.train import node_strategy_pb2
from mindspore.parallel._tensor import (_construct_from_to_tensor_layout, _construct_tensor_layout_for_opt_shard,
                                        _extract_layout_item, _get_needed_rank_list_by_layouts, _get_tensor_strategy,
                                        _product)

MAX_PATH_LENGTH = 1024


def _tensor_map_of(layout):
    """A ParallelLayouts' tensor map: its one TensorMap's dims, or (a Layout splitting a dimension
    over several device axes) the non-empty TensorMaps' dims, one list per dimension."""
    if len(layout.tensor_map) > 1:
        return [list(t.dim) for t in layout.tensor_map if list(t.dim)]
    return list(layout.tensor_map[0].dim)


def _convert_to_list(strategy, rank_id=None):
    """{name: [dev_matrix, tensor_map, param_split_shape, field, opt_weight_shard_step,
    opt_weight_shard_size, [stages]]} of {name: ParallelLayouts}. A merged pipeline file's
    ``"<stage>-<name>"`` entries become one entry listing every stage; its layout is the lowest
    stage's, or, given ``rank_id``, that of stage 0 for a rank of the first stage and of a later
    stage for the others."""
    train_map = {}
    for param_name in strategy.keys():
        try:
            layout = strategy.get(param_name)
            entry = [list(layout.dev_matrix[0].dim), _tensor_map_of(layout),
                     list(layout.param_split_shape[0].dim), int(layout.field),
                     int(layout.opt_weight_shard_step), int(layout.opt_weight_shard_size)]
            stage, name = 0, param_name
            if "-" in param_name:
                stage, name = param_name.split("-")
                stage = int(stage)
            known = train_map.get(name)
            if known is None:
                train_map[name] = entry + [[stage]]
                continue
            stages = known[6] + [stage]
            if rank_id is not None:
                in_first_stage = rank_id // _product(entry[0]) == 0
                take = (in_first_stage and stage == 0) or (not in_first_stage and stage > 0)
            else:
                take = all(stage <= s for s in stages)
            if take:
                train_map[name] = entry + [stages]
            else:
                known[6] = stages
        except BaseException as e:
            raise ValueError(f"{e.__str__()}. Convert layout strategy to list "
                             f"failed, please make sure that strategy matches the node_strategy.proto, you can "
                             f"check whether 'train_strategy_filename' is correct.") from e
    return train_map


def _convert_to_layout(param_name, tensor_layout):
    """{param_name: ParallelLayouts} of a list-form layout (its device matrix, tensor map,
    param_split_shape and field)."""
    try:
        layout = node_strategy_pb2.ParallelLayouts()
        layout.field = tensor_layout[3]
        layout.dev_matrix.add().dim.extend(tensor_layout[0])
        layout.tensor_map.add().dim.extend(tensor_layout[1])
        layout.param_split_shape.add().dim.extend(tensor_layout[2])
    except BaseException as e:
        raise ValueError(f"{e.__str__()}. For 'load_distributed_checkpoint', convert list to layout strategy failed, "
                         f"you can check whether your input list is correct.") from e
    return {param_name: layout}


def _check_strategy_file(strategy_filename):
    if not isinstance(strategy_filename, str):
        raise TypeError(f"For 'build_searched_strategy', the argument 'strategy_filename' should be string, "
                        f"but got {type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy_filename}. "
                         f"Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} should not "
                         f"be empty. Please check whether the 'strategy_filename' is correct.")


def _load_protobuf_strategy(strategy_filename, strategy_set=None):
    """The ParallelStrategyMap of a protobuf strategy file; {} when ``strategy_set`` (the contents
    seen so far) already holds the same bytes."""
    with open(strategy_filename, "rb") as f:
        content = f.read()
    if strategy_set is not None:
        if content in strategy_set:
            return {}
        strategy_set.add(content)
    strategy_map = node_strategy_pb2.ParallelStrategyMap()
    try:
        strategy_map.ParseFromString(content)
    except BaseException as e:
        raise TypeError("The strategy file type should be one of json or protobuf. "
                        "When the file name extension is not '.json', "
                        "the file is considered as a protobuf file.") from e
    return strategy_map


def _build_protobuf_strategy(strategy_filename):
    items = _load_protobuf_strategy(strategy_filename).parallel_layout_item
    return {item.param_name: item.parallel_layouts for item in items}


def _build_json_strategy(strategy_filename):
    with open(strategy_filename, "r", encoding="utf-8") as f:
        content = json.load(f)
    strategy = {}
    for name, item in content.get("parallel_layout_item", {}).items():
        layout = node_strategy_pb2.ParallelLayouts()
        layout.field = item.get("field")
        layout.opt_weight_shard_size = item.get("opt_weight_shard_size")
        layout.opt_weight_shard_step = item.get("opt_weight_shard_step")
        layout.dev_matrix.add().dim.extend(item.get("dev_matrix"))
        layout.tensor_map.add().dim.extend(item.get("tensor_map"))
        layout.param_split_shape.add().dim.extend(item.get("param_split_shape", []))
        layout.indices_offset.add().dim.extend(item.get("indices_offset", []))
        strategy[name] = layout
    return strategy


def _build_searched_strategy(strategy_filename):
    """{name: ParallelLayouts} of a strategy file (JSON by its ``.json`` name, else protobuf);
    None for None."""
    if strategy_filename is None:
        return strategy_filename
    _check_strategy_file(strategy_filename)
    if strategy_filename[-5:] != ".json":
        return _build_protobuf_strategy(strategy_filename)
    return _build_json_strategy(strategy_filename)


def _merge_protobuf_strategy(src_strategy_files, dst_strategy_file):
    """One protobuf strategy file of a pipeline's stage files, in their order: a file with the
    bytes of an earlier one and a stage already merged are skipped, layouts renamed
    ``"<stage>-<name>"`` (the stage of the file's first operator strategy), ``current_stage`` 1."""
    merged = node_strategy_pb2.ParallelStrategyMap()
    stages, seen = [], set()
    for path in src_strategy_files:
        source = _load_protobuf_strategy(path, strategy_set=seen)
        if not source:
            continue
        strategy_items, layout_items = source.parallel_strategy_item, source.parallel_layout_item
        if not strategy_items or not layout_items:
            raise ValueError("The strategy file {} is empty".format(path))
        stage = strategy_items[0].parallel_strategys.stage
        if stage in stages:
            continue
        for item in layout_items:
            item.param_name = "-".join([str(stage), item.param_name])
        merged.parallel_strategy_item.extend(strategy_items)
        merged.parallel_layout_item.extend(layout_items)
        stages.append(stage)
    merged.current_stage = 1
    with open(dst_strategy_file, "wb") as f:
        f.write(merged.SerializeToString())


def _merge_json_strategy(src_strategy_files, dst_strategy_file):
    """``_merge_protobuf_strategy`` for JSON strategy files (no byte-identical check)."""
    merged = {"current_stage": 1, "parallel_strategy_item": {}, "parallel_layout_item": {}}
    stages = []
    for path in src_strategy_files:
        with open(path, "r", encoding="utf-8") as f:
            content = json.load(f)
        layout_items, strategy_items = content.get("parallel_layout_item"), content.get("parallel_strategy_item")
        if not strategy_items or not layout_items:
            raise ValueError("The strategy file {} is empty".format(path))
        stage = strategy_items.get(list(strategy_items.keys())[0]).get("stage")
        if stage in stages:
            continue
        for name, item in layout_items.items():
            merged["parallel_layout_item"]["-".join([str(stage), name])] = item
        merged["parallel_strategy_item"].update(strategy_items)
        stages.append(stage)
    with open(dst_strategy_file, "w", encoding="utf-8") as f:
        json.dump(merged, f)


def _parameter_not_in_local_stage(param_name, origin_strategy_list, strategy_list):
    if origin_strategy_list is None or strategy_list is None:
        return True
    return param_name in origin_strategy_list and param_name not in strategy_list


def _strategy_of(strategy_file):
    return strategy_file if isinstance(strategy_file, dict) else _build_searched_strategy(strategy_file)


def _extract_layout_map(strategy_file, rank_id=None):
    """The list-form layouts of a strategy file (or of its {name: ParallelLayouts}); None for None."""
    if strategy_file is None:
        return None
    return _convert_to_list(_strategy_of(strategy_file), rank_id)


def _extract_pipeline_stage_num(strategy_file):
    if strategy_file is None:
        return 1
    stages = set()
    for layout in _convert_to_list(_strategy_of(strategy_file)).values():
        stages.update(layout[6])
    if list(stages) != list(range(len(stages))):
        raise ValueError("The strategy file for pipeline parallel does not contains all stages.")
    return len(stages)


def _first_stage(strategy_file):
    """The pipeline stage of a strategy file's first operator strategy."""
    if strategy_file[-5:] == ".json":
        with open(strategy_file, "r", encoding="utf-8") as f:
            items = json.load(f).get("parallel_strategy_item")
        if not items:
            raise ValueError("The strategy file {} if empty.".format(strategy_file))
        return items.get(list(items.keys())[0]).get("stage")
    items = _load_protobuf_strategy(strategy_file).parallel_strategy_item
    if not items:
        raise ValueError("The strategy file {} if empty.".format(strategy_file))
    return items[0].parallel_strategys.stage


def _extract_src_dst_layout_map_by_src(src_strategy_file=None, dst_strategy_file=None):
    """(source layouts, destination layouts kept to the source's parameters, the source file's
    stage); (source, None) without a destination."""
    src_layout_map = _extract_layout_map(src_strategy_file)
    dst_layout_map = _extract_layout_map(dst_strategy_file)
    if dst_layout_map is None:
        return src_layout_map, dst_layout_map
    for name in list(dst_layout_map):
        if name not in src_layout_map:
            dst_layout_map.pop(name)
    return src_layout_map, dst_layout_map, _first_stage(src_strategy_file)


def _extract_src_dst_layout_map(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """The source and destination layouts of the parameters of destination rank ``rank_id``'s
    pipeline stage."""
    src_layout_map = _extract_layout_map(src_strategy_file, None)
    dst_layout_map = _extract_layout_map(dst_strategy_file, rank_id)
    if dst_layout_map is None:
        return src_layout_map, dst_layout_map
    dst_stage = rank_id // _product(dst_layout_map.get(list(dst_layout_map.keys())[0])[0])
    for name in list(dst_layout_map):
        if dst_stage in dst_layout_map.get(name)[6]:
            continue
        dst_layout_map.pop(name)
        if src_layout_map is not None and name in src_layout_map:
            src_layout_map.pop(name)
    return src_layout_map, dst_layout_map


def _restore_group_info_list(group_info_file_name):
    """The ranks of a group-info file's ``ckpt_restore_rank_list``."""
    group_map = node_strategy_pb2.ParallelGroupMap()
    with open(group_info_file_name, "rb") as f:
        group_map.ParseFromString(f.read())
    restore_list = group_map.ckpt_restore_rank_list
    if not restore_list:  # as MindSpore tests it: a message, never false (an empty list gives [])
        raise ValueError("For 'restore_group_info_list', the group information file has no restore rank list.")
    return list(restore_list.dim)


def _get_device_num_from_strategy(strategy_file=None):
    if strategy_file is None:
        return 1
    device_mat = list(_convert_to_list(_strategy_of(strategy_file)).values())[0][0]
    if not device_mat:
        raise ValueError("The parallel strategy file only contains pipeline-parallelism, which is not supported for "
                         "parallel strategy conversion now.")
    return _product(device_mat)


def _layout_items(src_entry, dst_entry, dims):
    """(from, to) as (dev_matrix, tensor_map, opt_shard_step, opt_shard_size) of two list-form
    entries; a missing side is whole on one device."""
    to = ([1], [-1] * dims, 0, 0) if dst_entry is None else _extract_layout_item(dst_entry)
    frm = ([1], [-1] * dims, 0, 0) if src_entry is None else _extract_layout_item(src_entry)
    return frm, to


def _unified_layouts(frm, to, slice_shape):
    """MindSpore's planning layouts of a parameter whose source slices have ``slice_shape``: the
    whole shape, each side's optimizer shard made a dimension of its own, both on one device count:
    (from_layout, to_layout) as (dev_matrix, tensor_map, full_shape)."""
    strategy = _get_tensor_strategy(frm[0], frm[1])
    whole = tuple(size * strategy[i] * (frm[3] if i == 0 and frm[3] > 0 else 1)
                  for i, size in enumerate(slice_shape))
    from_dev, from_map, from_shape = _construct_tensor_layout_for_opt_shard(frm[0], frm[1], frm[2], frm[3], whole)
    to_dev, to_map, to_shape = _construct_tensor_layout_for_opt_shard(to[0], to[1], to[2], to[3], whole)
    return _construct_from_to_tensor_layout(from_shape, from_dev, from_map, to_shape, to_dev, to_map)


def _rank_list_for_transform_parallel_checkpoint(rank_id, src_strategy_list, dst_strategy_list):
    """The source ranks (of one stage) whose slices destination rank ``rank_id`` of its stage
    reads: per distinct pair of layouts, the ranks of MindSpore's redistribution plan for a
    tensor every layout divides (``_get_needed_rank_list_by_layouts``), modulo the source's
    device count."""
    needed, handled = set(), []
    for name, entry in src_strategy_list.items():
        if dst_strategy_list is not None and name not in dst_strategy_list:
            continue
        frm, to = _layout_items(entry, dst_strategy_list.get(name) if dst_strategy_list is not None else None,
                                len(entry[1]))
        key = (frm, to)
        if key in handled:
            continue
        handled.append(key)
        from_devices = _product(frm[0])
        probe = [max(from_devices, _product(to[0]))] * len(frm[1])
        from_layout, to_layout = _unified_layouts(frm, to, probe)
        ranks = _get_needed_rank_list_by_layouts(from_layout, to_layout, list(range(_product(from_layout[0]))),
                                                 rank_id)
        needed.update(r % from_devices for r in ranks)
    return list(needed)


def _transform_parallel_checkpoint(rank_id, param_total_dict, param_attr_dict, src_strategy_list,
                                   dst_strategy_list, param_type_dict):
    """[{"name", "data": Parameter}] of destination rank ``rank_id``: ``param_total_dict`` maps a
    parameter to {source rank: its numpy slice}, ``param_attr_dict`` to {source rank:
    (requires_grad, layerwise_parallel)}, ``param_type_dict`` to {source rank: dtype name}. A
    parameter with a layout on the sides given is assembled from the source slices its slice
    overlaps; the others are copied from the source rank ``rank_id`` modulo the device count."""
    import numpy as np  # pylint: disable=import-outside-toplevel
    from mindspore import Parameter, Tensor, bfloat16  # pylint: disable=import-outside-toplevel
    from mindspore.parallel.checkpoint_transform import _Layout  # pylint: disable=import-outside-toplevel
    out = {}
    device_num = -1

    def parameter(value, name, attrs, dtype_name):
        param = Parameter(Tensor(value), name, attrs[0], attrs[1])
        if dtype_name == "BFloat16":
            param.set_dtype(bfloat16)
        return param

    for name, slices in param_total_dict.items():
        piece_shape = list(list(slices.values())[0].shape)
        if src_strategy_list is not None and name not in src_strategy_list:
            logger.info("The parameter {} is not in src_strategy.".format(name))
            continue
        if dst_strategy_list is not None and name not in dst_strategy_list:
            logger.info("The parameter {} is not in dst_strategy.".format(name))
            continue
        src_entry = src_strategy_list.get(name) if src_strategy_list is not None else None
        dst_entry = dst_strategy_list.get(name) if dst_strategy_list is not None else None
        frm, to = _layout_items(src_entry, dst_entry, len(piece_shape))
        src, dst = _Layout(*frm), _Layout(*to)
        device_num = src.devices()
        if rank_id % device_num not in param_attr_dict[name]:
            raise ValueError("The checkpoint of rank {} is missing.".format(rank_id % device_num))
        from_layout, to_layout = _unified_layouts(frm, to, piece_shape)
        for rank in _get_needed_rank_list_by_layouts(from_layout, to_layout,
                                                     list(range(_product(from_layout[0]))), rank_id):
            if rank % device_num not in slices:
                raise ValueError("The checkpoint file of rank {} is missing.".format(rank % device_num))
        shape = src.full_shape(piece_shape)
        want = dst.box(shape, rank_id % dst.devices())
        first = slices[rank_id % device_num]
        value = np.empty([e - b for b, e in want], dtype=first.dtype)
        filled, done = 0, set()
        for rank in [rank_id % device_num] + [r for r in range(device_num) if r != rank_id % device_num]:
            box = tuple(src.box(shape, rank))
            overlap = [(max(b, wb), min(e, we)) for (b, e), (wb, we) in zip(box, want)]
            if box in done or any(b >= e for b, e in overlap):
                continue
            if rank not in slices:
                raise ValueError("The checkpoint file of rank {} is missing.".format(rank))
            done.add(box)
            source = tuple(slice(b - bb, e - bb) for (b, e), (bb, _) in zip(overlap, box))
            target = tuple(slice(b - wb, e - wb) for (b, e), (wb, _) in zip(overlap, want))
            value[target] = slices[rank][source]
            filled += _product(e - b for b, e in overlap)
        if filled != value.size:
            raise ValueError("The checkpoint of rank {} is missing.".format(rank_id % device_num))
        out[name] = parameter(value, name, param_attr_dict[name][rank_id % device_num],
                              param_type_dict[name][rank_id % device_num])
    if device_num < 1:
        raise ValueError("None of the parameters in checkpoint file are in either src strategy or "
                         "dst strategy. Please check correctness of strategy files.")
    for name, slices in param_total_dict.items():
        if name not in out:
            out[name] = parameter(slices[rank_id % device_num], name, param_attr_dict[name][rank_id % device_num],
                                  param_type_dict[name][rank_id % device_num])
    return [{"name": name, "data": data} for name, data in out.items()]


def _make_dir(path, arg_name):
    """``path`` made with mode 700 (its missing parents as ``os.makedirs`` makes them) unless it is a
    directory already; its real path."""
    if not isinstance(path, str):
        logger.critical("The %s is invalid, the type should be string.", arg_name)
        raise TypeError("The {} is invalid, the type should be string.".format(arg_name))
    if path.strip() == "":
        logger.critical("The %s is invalid, it should be non-blank.", arg_name)
        raise ValueError("The {} is invalid, it should be non-blank.".format(arg_name))
    path = os.path.realpath(path)
    if len(path) > MAX_PATH_LENGTH:
        logger.critical("The %s length is too long, it should be limited in %s.", arg_name, MAX_PATH_LENGTH)
        raise ValueError("The {} length is too long, it should be limited in {}.".format(arg_name, MAX_PATH_LENGTH))
    if os.path.exists(path):
        if not os.path.isdir(path):
            logger.critical("The path(%r) is a file path, it should be a directory path.", path)
            raise NotADirectoryError("The path({}) is a file path, it should be a directory path.".format(path))
        return path
    try:
        makedirs(path, 0o700)
    except PermissionError as e:
        logger.critical("No write permission on the directory(%r), error = %r", path, e)
        raise TypeError("No write permission on the directory.") from e
    return path


def _get_param_list_when_first_dim_sharded(device_arrangement, first_dim_sharded_device_index, rank):
    """The ranks among which a parameter whose first dimension is split over device axis
    ``first_dim_sharded_device_index`` is sharded by the optimizer: the ranks of ``rank``'s block
    when that axis is the outermost, else every rank."""
    total = _product(device_arrangement)
    if first_dim_sharded_device_index != len(device_arrangement) - 1:
        return list(range(0, total))
    block = total // device_arrangement[-1 - first_dim_sharded_device_index]
    start = rank - rank % block
    return list(range(start, start + block))


def _gather_tasks_load_dis(unified_safetensors_dir, predict_strategy, network, dst_safetensors_dir, dst_device_num,
                           output_format, name_map, return_param_dict):
    return [(unified_safetensors_dir, predict_strategy, network, dst_safetensors_dir, rank, output_format, name_map,
             return_param_dict) for rank in range(0, dst_device_num)]


def _check_checkpoint_file(checkpoint_filenames):
    for index, filename in enumerate(checkpoint_filenames):
        if not isinstance(filename, str) or not os.path.exists(filename) \
                or filename[-5:] != ".ckpt" or os.path.getsize(filename) == 0:
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and "
                             f"make sure the {filename} at index {index} is a valid checkpoint file, it must "
                             f"be a string ending with '.ckpt', and the checkpoint file it represents must "
                             f"be exist and not empty.")


def _check_predict_strategy(predict_strategy):
    def int_list(arg):
        return isinstance(arg, list) and all(isinstance(item, int) for item in arg)

    if predict_strategy is None:
        return
    predict_strategy = Validator.check_isinstance("predict_strategy", predict_strategy, dict)
    ok = True
    for key, value in predict_strategy.items():
        if not isinstance(key, str) or not isinstance(value, (list, tuple)) or len(value) < 4:
            ok = False
        dev_matrix, tensor_map, param_split_shape, field_size = value[:4]
        if not int_list(dev_matrix) or not int_list(tensor_map) or \
                not (int_list(param_split_shape) or not param_split_shape) or \
                not (isinstance(field_size, int) and field_size == 0):
            ok = False
    if not ok:
        raise ValueError("For 'load_distributed_checkpoint', the argument 'predict_strategy' is dict, "
                         "the key of it must be string, and the value of it must be list or tuple that "
                         "the first four elements must be dev_matrix (list[int]), tensor_map (list[int]), "
                         "param_split_shape (list[int]) and field_size (int, which value is 0)."
                         "Please check whether 'predict_strategy' is correct.")
