"""Argument checks with MindSpore 2.10's messages (mindspore/dataset/core/validator_helpers.py)."""
import os

INT32_MAX = 2147483647
FLOAT_MAX_INTEGER = 16777216


def _pad(arg_name):
    return arg_name + " " if arg_name else arg_name


def type_check(arg, types, arg_name):
    """TypeError unless ``arg`` is one of ``types`` (a bool is no int unless bool is listed)."""
    shown = '""' if repr(arg) == repr('') else arg
    if int in types and bool not in types and isinstance(arg, bool):
        raise TypeError(f"Argument {arg_name} with value {shown} is not of type {types}, but got {type(arg)}.")
    if not isinstance(arg, types):
        raise TypeError(f"Argument {arg_name} with value {shown} is not of type {list(types)}, "
                        f"but got {type(arg)}.")


def check_value(value, valid_range, arg_name="", left_open=False, right_open=False):
    """ValueError unless ``value`` lies in ``valid_range`` with the given open ends."""
    low, high = valid_range
    below = value <= low if left_open else value < low
    above = value >= high if right_open else value > high
    if below or above:
        left, right = "(" if left_open else "[", ")" if right_open else "]"
        raise ValueError(f"Input {_pad(arg_name)}is not within the required interval of {left}{low}, {high}{right}.")


def check_pos_int32(value, arg_name=""):
    type_check(value, (int,), arg_name)
    check_value(value, [1, INT32_MAX], arg_name)


def check_positive(value, arg_name=""):
    if value <= 0:
        raise ValueError(f"Input {_pad(arg_name)}must be greater than 0.")


def check_valid_str(value, valid_strings, arg_name=""):
    type_check(value, (str,), arg_name)
    if value not in valid_strings:
        raise ValueError(f"Input {arg_name} is not within the valid set of {valid_strings}.")


def check_dir(dataset_dir):
    type_check(dataset_dir, (str,), "dataset_dir")
    if not os.path.isdir(dataset_dir) or not os.access(dataset_dir, os.R_OK):
        raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or permission denied!")


def check_sampler_shuffle_shard_options(shuffle, sampler, num_shards, shard_id, num_samples):
    """MindSpore's rules for combining shuffle, sampler, sharding and num_samples."""
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        if num_shards is not None or shard_id is not None:
            raise RuntimeError("sampler and sharding cannot be specified at the same time.")
        if num_samples is not None:
            raise RuntimeError("sampler and num_samples cannot be specified at the same time.")
    if num_shards is not None:
        check_pos_int32(num_shards, "num_shards")
        if shard_id is None:
            raise RuntimeError("num_shards is specified and currently requires shard_id as well.")
        check_value(shard_id, [0, num_shards - 1], "shard_id")
    if num_shards is None and shard_id is not None:
        raise RuntimeError("shard_id is specified but num_shards is not.")


def check_optional(params, types):
    """type_check for every (name, value) in ``params`` that is not None."""
    for name, value in params:
        if value is not None:
            type_check(value, types, name)
    for name, value in params:
        if value is not None and types == (int,):
            check_value(value, [0, INT32_MAX], name)


def check_columns(columns, param_name):
    """A column name or a non-empty list of unique column names."""
    type_check(columns, (list, str), param_name)
    if isinstance(columns, str):
        if not columns:
            raise ValueError(f"{param_name} is not a non-empty string.")
        return
    if not columns:
        raise ValueError(f"{param_name} should not be empty.")
    for i, column_name in enumerate(columns):
        if not column_name:
            raise ValueError(f"{param_name}[{i}] is not a non-empty string.")
    if len(set(columns)) != len(columns):
        raise ValueError(f"Every column name should not be same with others in column_names, but got {columns}.")
