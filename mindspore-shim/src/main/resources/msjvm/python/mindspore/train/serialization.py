"""``save_checkpoint``, ``load_checkpoint`` and ``load_param_into_net`` over MindSpore's ``.ckpt`` files.

Argument checks, exception classes and messages follow MindSpore 2.10's
``mindspore/train/serialization.py``; the file itself is written and read by the Java engine
(``dev.msjvm.engine.checkpoint.CheckpointFile``, through ``host().checkpoints()``) in MindSpore's
protobuf layout, so files go both ways between this product and MindSpore.

``format='safetensors'`` writes and reads the safetensors layout MindSpore writes through the
safetensors library (``dev.msjvm.engine.checkpoint.SafetensorsFile``), metadata and CRC included.

Not supported (a ``NotImplementedError`` says so): encryption (``enc_key``/``dec_key``), map
parameters and ``remove_redundancy=True``.
``async_save`` is accepted and saves synchronously (the file is complete when the call returns).
"""
import os

from mindspore import _checkparam as Validator
from mindspore import log as logger
from mindspore._host import host
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]

_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


def _check_isinstance(arg_name, arg_value, classes):
    """MindSpore's ``Validator.check_isinstance`` (a ValueError, with the classes as a tuple)."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


def _not_supported(what):
    return NotImplementedError(f"{what} is not supported by msjvm's checkpoint files yet.")


# ---- save_checkpoint ----

def _check_save_obj_and_ckpt_file_name(save_obj, ckpt_file_name, file_format):
    if file_format not in ["safetensors", "ckpt"]:
        raise ValueError(f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got {file_format}.")
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, "
                        f"but got {type(save_obj)}.")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'save_checkpoint', the parameter {ckpt_file_name} for checkpoint file name is invalid,"
                        f"'ckpt_file_name' must be string, but got {type(ckpt_file_name)}.")
    ckpt_file_name = os.path.realpath(ckpt_file_name)
    if os.path.isdir(ckpt_file_name):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {ckpt_file_name} is a "
                                f"directory, it must be a file name.")
    if not ckpt_file_name.endswith(file_format):
        ckpt_file_name += f".{file_format}"
    return ckpt_file_name


def _check_async_save(async_save):
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, "
                        f"but got {type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError(f"For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread',"
                         f"but got {async_save}.")
    return async_save


def _check_append_dict(append_dict):
    if append_dict is None:
        return append_dict
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                        f"{type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Parameter, Tensor)):
            raise TypeError(f"For 'save_checkpoint', the type of dict 'append_info' must be key: string, "
                            f"value: int, float, bool or Generator, but got key: {type(key)}, value: {type(value)}")
    return append_dict


def _check_save_unsupported_param(file_format, enc_key, enc_mode, map_param_inc, global_step_num):
    if file_format != "safetensors":
        return
    defaults = {"enc_key": (enc_key, None), "enc_mode": (enc_mode, "AES-GCM"),
                "map_param_inc": (map_param_inc, False), "global_step_num": (global_step_num, None)}
    for name, (value, default) in defaults.items():
        if value != default:
            raise ValueError(f"For 'save_checkpoint', when format is 'safetensors', the parameter '{name}' must "
                             f"be set to default value '{default}', but got '{value}'.")


def _list_to_params(save_obj, choice_func):
    """(name, data) pairs of a list of {"name", "data"} dicts or of Parameters."""
    params = []
    if not save_obj:
        return params
    if isinstance(save_obj[0], dict):
        for param in save_obj:
            if not (isinstance(param, dict) and "name" in param and "data" in param):
                raise TypeError(f"For save_checkpoint, save_obj should be a list of dict items, and the dict should "
                                f"have key values 'name' and 'value', but got {type(param)} and {param}.")
            if not isinstance(param["name"], str):
                raise TypeError(f"For save_checkpoint, when save_obj is a list of dict items, the name in dict "
                                f"should be string, but got {type(param['name'])}.")
            if not isinstance(param["data"], Tensor):
                raise TypeError(f"For save_checkpoint, when save_obj is a list of dict items, the data in dict "
                                f"should be parameter, but got {type(param['data'])}.")
            if choice_func is None or choice_func(param["name"]):
                params.append((param["name"], param["data"]))
        return params
    for param in save_obj:
        if not isinstance(param, Parameter):
            raise TypeError(f"For save_checkpoint, when save_obj is made up by list of Parameter,"
                            f"the param should be parameter, but got {type(param)}")
        if choice_func is None or choice_func(param.name):
            params.append((param.name, param))
    return params


def _dict_to_params(save_obj, choice_func):
    """(name, data) pairs of a dict name -> Parameter, Tensor or str."""
    params = []
    for key, value in save_obj.items():
        # MindSpore 2.10 only keeps Parameter, str, buffer tensors and numpy arrays here (a plain
        # Tensor hits an unbound local); a Tensor is saved as a Parameter would be (DEVIATIONS.md).
        if not isinstance(key, str) or not isinstance(value, (Tensor, str)):
            raise TypeError(f"For save_checkpoint, when save_obj is made up by dict, the key should be str and"
                            f"value should be Parameter, but got the type of key is {type(key)} and"
                            f"the type of value is {type(value)}")
        if choice_func is None or choice_func(key):
            params.append((key, value))
    return params


def _cell_to_params(save_obj, choice_func):
    """(parameter name, copy of its data) for a Cell's parameters, first of each name only."""
    save_obj.init_parameters_data()
    params = {}
    for _, param in save_obj.parameters_and_names():
        if choice_func is not None and not choice_func(param.name):
            continue
        params[param.name] = Tensor(param)
    return list(params.items())


def _java_value(data):
    """What the Java writer takes: a str, or the engine tensor of a Tensor/Parameter."""
    if isinstance(data, str):
        return data
    if isinstance(data, Parameter):
        data.init_data()
    return host().valueOf(data._java).java  # pylint: disable=protected-access


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt",
                    **kwargs):  # pylint: disable=redefined-builtin
    """Saves ``save_obj`` (a Cell, a list of {"name", "data"} dicts or Parameters, or a dict
    name -> Parameter/Tensor/str) and ``append_dict`` to ``ckpt_file_name`` (``.ckpt`` appended)."""
    ckpt_file_name = _check_save_obj_and_ckpt_file_name(save_obj, ckpt_file_name, format)
    Validator.check_bool(integrated_save)
    async_save = _check_async_save(async_save)
    append_dict = _check_append_dict(append_dict)
    enc_key = _check_isinstance('enc_key', enc_key, (type(None), bytes))
    enc_mode = _check_isinstance('enc_mode', enc_mode, str)
    crc_check = _check_isinstance('crc_check', crc_check, bool)
    map_param_inc = kwargs.get('incremental', False)
    global_step_num = kwargs.get('global_step_num', None)
    _check_isinstance("remove_redundancy", kwargs.get('remove_redundancy', None), (type(None), bool))
    remove_redundancy = kwargs.get('remove_redundancy', None)
    _check_save_unsupported_param(format, enc_key, enc_mode, map_param_inc, global_step_num)
    if enc_key is not None:
        raise _not_supported("Encryption (enc_key)")

    if isinstance(save_obj, Cell):
        params = _cell_to_params(save_obj, choice_func)
    elif isinstance(save_obj, list):
        params = _list_to_params(save_obj, choice_func)
    else:
        params = _dict_to_params(save_obj, choice_func)
    for key, value in (append_dict or {}).items():
        params.append((key, value if isinstance(value, str) else Tensor(value)))
    # A name given twice keeps its first position and its last value (MindSpore's OrderedDict).
    data = {}
    for name, value in params:
        data[name] = _java_value(value)
    if format == "safetensors":
        _save_safetensors(ckpt_file_name, data, crc_check, remove_redundancy)
        return
    host().checkpoints().save(ckpt_file_name, list(data.keys()), list(data.values()), crc_check)


def _save_safetensors(ckpt_file_name, data, crc_check, remove_redundancy):
    """MindSpore's safetensors save: metadata {"format": "ms"}, "remove_redundancy" when it was given
    as a bool, "crc_num" with crc_check; an empty checkpoint gets no metadata at all."""
    for name, value in data.items():
        if isinstance(value, str):
            raise AttributeError("'str' object has no attribute 'dtype'")
    meta = {"format": "ms"}
    if isinstance(remove_redundancy, bool):
        meta["remove_redundancy"] = str(remove_redundancy)
    names = sorted(data)
    keys = list(meta) if data else None
    host().checkpoints().saveSafetensors(ckpt_file_name, names, [data[n] for n in names], keys,
                                         [meta[k] for k in keys] if keys else None, crc_check and bool(data))


# ---- load_checkpoint ----

def _check_prefix(prefix):
    if prefix is None:
        return prefix
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError(f"For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {str(type(prefix))}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when"
                         " 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError(f"For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, "
                            f"the element in it must be string, but got {str(type(pre))} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' "
                             "can't include ''.")
    return prefix


def _check_file(file, file_format):
    if file_format not in ('ckpt', 'safetensors'):
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', please "
                         "input the correct 'format'.")
    if not isinstance(file, str):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but got {type(file)}.")
    if not file.endswith(file_format):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file format must same with 'format', but got "
                         f"file_name:'{file}', format:'{file_format}'")
    file = os.path.realpath(file)
    if not os.path.exists(file):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {file} does not exist, please check "
                         f"whether the 'ckpt_file_name' is correct.")
    return file


def _whether_load_param(specify_prefix, filter_prefix, name):
    if specify_prefix and not any(name.startswith(p) for p in specify_prefix):
        return False
    return not (filter_prefix and any(name.startswith(p) for p in filter_prefix))


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):  # pylint: disable=redefined-builtin
    """The checkpoint's values as {name: Parameter (or str)}, also loaded into ``net`` when given."""
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    dec_key = _check_isinstance('dec_key', dec_key, (type(None), bytes))
    dec_mode = _check_isinstance('dec_mode', dec_mode, str)
    crc_check = _check_isinstance('crc_check', crc_check, bool)
    remove_redundancy = _check_isinstance('remove_redundancy', remove_redundancy, bool)
    if format == "safetensors":
        for name, value, default in (("dec_key", dec_key, None), ("dec_mode", dec_mode, "AES-GCM")):
            if value != default:
                raise ValueError(f"For 'load_checkpoint', when format is 'safetensors', the parameter '{name}' must "
                                 f"be set to default value '{default}', but got '{value}'.")
    ckpt_file_name = _check_file(ckpt_file_name, format)
    if format == "safetensors":
        parameter_dict, remove_redundancy = _load_safetensors(ckpt_file_name, choice_func, crc_check,
                                                              remove_redundancy)
    else:
        parameter_dict = _load_ckpt(ckpt_file_name, specify_prefix, filter_prefix, dec_key, choice_func, crc_check)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def _load_ckpt(ckpt_file_name, specify_prefix, filter_prefix, dec_key, choice_func, crc_check):
    """A ``.ckpt`` file's values by name, filtered by the prefixes or ``choice_func``."""
    if dec_key is not None:
        raise _not_supported("Decryption (dec_key)")
    checkpoints = host().checkpoints()
    if crc_check and not checkpoints.hasCrc(ckpt_file_name):
        logger.warning("For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file.")
    if specify_prefix:
        logger.warning("For load_checkpoint, this parameter `specity_prefix` will be deprecated, "
                       "please use `choice_func` instead.")
    if filter_prefix:
        logger.warning("For load_checkpoint, this parameter `filter_prefix` will be deprecated, "
                       "please use `choice_func` instead.")
    use_choice_func = specify_prefix is None and filter_prefix is None and choice_func is not None
    parameter_dict = {}
    for name, value in checkpoints.load(ckpt_file_name, crc_check):
        if not _whether_load_param(specify_prefix, filter_prefix, name):
            continue
        if use_choice_func and not choice_func(name):
            continue
        if isinstance(value, str):
            parameter_dict[name] = value
        else:
            parameter_dict[name] = Parameter(Tensor._wrap(value.java), name=name)  # pylint: disable=protected-access
    return parameter_dict


def _load_safetensors(ckpt_file_name, choice_func, crc_check, remove_redundancy):
    """MindSpore's safetensors load: names in sorted order, ``choice_func`` (the prefixes do not apply
    to safetensors), its CRC check and its remove_redundancy warnings; Parameters without names."""
    pairs, meta, crc = host().checkpoints().loadSafetensors(ckpt_file_name, crc_check)
    parameter_dict = {}
    for name, value in pairs:
        if choice_func is not None and not choice_func(name):
            continue
        parameter_dict[name] = Parameter(Tensor._wrap(value.java))  # pylint: disable=protected-access
    if meta.get("remove_redundancy") == "True" and not remove_redundancy:
        logger.warning("For 'load_checkpoint', the safetensors file is deduplicated, "
                       "but remove_redundancy is set to False.")
        remove_redundancy = True
    elif meta.get("remove_redundancy") == "False" and remove_redundancy:
        logger.warning("For 'load_checkpoint', the safetensors file is non-deduplicated, "
                       "but remove_redundancy is set to True.")
        remove_redundancy = False
    if crc_check:
        if meta.get("crc_num") is None:
            logger.warning("For 'load_checkpoint', the safetensors file do not contain the crc code, "
                           "please check the file.")
        elif int(meta["crc_num"]) != crc:
            raise ValueError("For 'load_checkpoint', the crc check has failed. "
                             "Please check whether the ckpt file is damaged.")
    return parameter_dict, remove_redundancy


# ---- load_param_into_net ----

def _check_load_param_into_net(net, parameter_dict):
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                        f"but got {type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError(f"For 'parameter_dict', the element in the argument 'parameter_dict' should be a "
                            f"'str' and 'Parameter' , but got {type(key)} and {type(value)}.")


def _special_process_par(param, new_param):
    """A checkpoint value with extra trailing 1-dims, e.g. (12, 2048, 1, 1) -> (12, 2048)."""
    old, new = param.shape, new_param.shape
    if len(new) <= len(old) or any(d != 1 for d in new[len(old):]):
        return False
    param.set_data(new_param.reshape(old).astype(param.dtype))
    return True


def _type_convert(param, new_param, strict_load):
    """Whether a float->float or int->int conversion of ``new_param`` into ``param`` is allowed."""
    pair = {param.dtype, new_param.dtype}
    if not strict_load and (pair.issubset(_FLOAT_TYPES) or pair.issubset(_INT_TYPES)):
        logger.warning(f"The type of {new_param.name}:{new_param.dtype} in 'parameter_dict' is different from "
                       f"the type of it in 'net':{param.dtype}, then the type convert from "
                       f"{new_param.dtype} to {param.dtype} in the network. May consume additional memory "
                       f"and time")
        return True
    return False


def _update_param(param, new_param, strict_load):
    """Copies ``new_param``'s values into ``param`` (MindSpore's checks and messages)."""
    if param.shape != new_param.shape:
        if not _special_process_par(param, new_param):
            logger.critical("Failed to combine the net and the parameters for param %s.", param.name)
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape "
                f"as {param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in"
                f" the argument 'net' and shape {new_param.shape} in the argument 'parameter_dict'."
                f"May you need to check whether the checkpoint you loaded is correct or the batch size and "
                f"so on in the 'net' and 'parameter_dict' are same.")
        return
    if param.dtype != new_param.dtype:
        if _type_convert(param, new_param, strict_load):
            param.set_data(new_param.astype(param.dtype))
            return
        logger.critical("Failed to combine the net and the parameters for param %s.", param.name)
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
            f"{param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the "
            f"argument 'net' and type {new_param.dtype} in the argument 'parameter_dict'."
            f"May you need to check whether the checkpoint you loaded is correct.")
    param.set_data(new_param)


def _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load):
    """Retries the parameters not loaded with a name prefix found in the checkpoint."""
    prefix_name = ""
    longest_name = param_not_load[0]
    while prefix_name != longest_name and param_not_load:
        prefix_name = longest_name
        for net_param_name in param_not_load:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_param_name):
                    prefix_name = dict_name[:-len(net_param_name)]
                    break
            if prefix_name != longest_name:
                break
        if prefix_name != longest_name:
            logger.warning(f"For 'load_param_into_net', remove parameter prefix name: {prefix_name},"
                           f" continue to load.")
            for _, param in net.parameters_and_names():
                new_param_name = prefix_name + param.name
                if param.name in param_not_load and new_param_name in parameter_dict:
                    _update_param(param, parameter_dict[new_param_name], strict_load)
                    param_not_load.remove(param.name)


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Loads ``parameter_dict`` into ``net``; returns (param_not_load, ckpt_not_load) name lists."""
    _check_load_param_into_net(net, parameter_dict)
    strict_load = Validator.check_bool(strict_load)
    remove_redundancy = _check_isinstance('remove_redundancy', remove_redundancy, bool)
    param_not_load = []
    ckpt_not_load = list(parameter_dict.keys())
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if not isinstance(new_param, Parameter):  # a string (or map) entry has no data
                continue
            _update_param(param, new_param, strict_load)
            ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_dismatch_prefix_params(net, parameter_dict, param_not_load, strict_load)
    if remove_redundancy:
        raise _not_supported("remove_redundancy=True")
    if param_not_load:
        logger.warning(f"For 'load_param_into_net', {len(param_not_load)} parameters in the 'net' are not loaded, "
                       f"because they are not in the 'parameter_dict', please check whether the network structure "
                       f"is consistent when training and loading checkpoint.")
        logger.warning(f"{param_not_load} are not loaded.")
    return param_not_load, ckpt_not_load


def build_searched_strategy(strategy_filename):
    """``mindspore.parallel.build_searched_strategy`` under its old name."""
    from mindspore.parallel import checkpoint_transform  # pylint: disable=import-outside-toplevel
    return checkpoint_transform.build_searched_strategy(strategy_filename)


def restore_group_info_list(group_info_file_name):
    """``mindspore.parallel.restore_group_info_list`` under its old name."""
    from mindspore.parallel import checkpoint_transform  # pylint: disable=import-outside-toplevel
    return checkpoint_transform.restore_group_info_list(group_info_file_name)


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """``mindspore.parallel.merge_sliced_parameter`` under its old name."""
    from mindspore.parallel import checkpoint_transform  # pylint: disable=import-outside-toplevel
    return checkpoint_transform.merge_sliced_parameter(sliced_parameters, strategy)


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode='AES-GCM',
                                format='ckpt', unified_safetensors_dir=None, dst_safetensors_dir=None, rank_id=None,
                                output_format='safetensors', name_map=None, max_process_num=64,
                                return_param_dict=False):
    """``mindspore.parallel.load_distributed_checkpoint`` under its old name; as in MindSpore 2.10 this
    form returns None."""
    # pylint: disable=redefined-builtin
    from mindspore.parallel import checkpoint_transform  # pylint: disable=import-outside-toplevel
    checkpoint_transform.load_distributed_checkpoint(
        network, checkpoint_filenames, predict_strategy, train_strategy_filename, strict_load, dec_key, dec_mode,
        format, unified_safetensors_dir, dst_safetensors_dir, rank_id, output_format, name_map, max_process_num,
        return_param_dict)
