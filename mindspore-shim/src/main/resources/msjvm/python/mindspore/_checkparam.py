"""Argument checks with MindSpore's exception classes and message texts.

The texts follow ``mindspore/_checkparam.py`` so that scripts and tests that match on them keep
working; the code is ours.
"""
import inspect
import math
import re
from functools import wraps

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
_REL_TEXT = {EQ: "= {}", NE: "!= {}", LT: "< {}", LE: "<= {}", GT: "> {}", GE: ">= {}"}
_REL_TEST = {
    EQ: lambda x, y: x == y,
    NE: lambda x, y: x != y,
    LT: lambda x, y: x < y,
    LE: lambda x, y: x <= y,
    GT: lambda x, y: x > y,
    GE: lambda x, y: x >= y,
}
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 1, 2, 3, 4
_RANGE_TEXT = {INC_NEITHER: "({}, {})", INC_LEFT: "[{}, {})", INC_RIGHT: "({}, {}]", INC_BOTH: "[{}, {}]"}
_RANGE_TEST = {
    INC_NEITHER: lambda x, lo, hi: lo < x < hi,
    INC_LEFT: lambda x, lo, hi: lo <= x < hi,
    INC_RIGHT: lambda x, lo, hi: lo < x <= hi,
    INC_BOTH: lambda x, lo, hi: lo <= x <= hi,
}


def _check_number(arg_value, value, rel, arg_type=int, arg_name=None, prim_name=None):
    prim = f"For '{prim_name}', the " if prim_name else "The "
    name = f"'{arg_name}'" if arg_name else "input value"
    info = prim + name
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{info} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{info} must be a legal value, but got '{arg_value}'.")
    type_mismatch = isinstance(arg_value, bool)
    if type_mismatch or not _REL_TEST[rel](arg_value, value):
        msg = (f"{info} must be {arg_type.__name__} and must {_REL_TEXT[rel].format(value)}, "
               f"but got '{arg_value}' with type '{type(arg_value).__name__}'.")
        raise TypeError(msg) if type_mismatch else ValueError(msg)
    return arg_value


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GT, int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GE, int, arg_name, prim_name)


def check_non_negative_int_sequence(sequence, arg_name=None, prim_name=None):
    """Each element of ``sequence`` a non-negative int (MindSpore's texts, ``name[i]``)."""
    for idx, element in enumerate(sequence):
        _check_number(element, 0, GE, int, f"{arg_name if arg_name else 'arg_name'}[{idx}]", prim_name)
    return sequence


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GT, float, arg_name, prim_name)


def check_bool(arg_value, arg_name=None, prim_name=None):
    prim = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, bool):
        raise TypeError(f"{prim} {name} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_is_number(arg_value, arg_type, arg_name=None, prim_name=None):
    """MindSpore's check that ``arg_value`` is an ``arg_type`` (not a bool) and, for floats, finite."""
    prim = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, arg_type) or isinstance(arg_value, bool):
        raise TypeError(f"{prim} type of {name} must be '{arg_type.__name__}', but got '{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{prim} {name} must be a legal float, but got '{arg_value}'.")
    return arg_value


def check_is_int(arg_value, arg_name=None, prim_name=None):
    return check_is_number(arg_value, int, arg_name, prim_name)


def check_number_range(arg_value, lower, upper, rel, value_type, arg_name=None, prim_name=None):
    prim = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, value_type) or isinstance(arg_value, bool):
        raise TypeError(f"{prim} {name} must be '{value_type.__name__}',  "
                        f"but got '{type(arg_value).__name__}'.")
    if not _RANGE_TEST[rel](arg_value, lower, upper):
        raise ValueError(f"{prim} {name} must be in range of {_RANGE_TEXT[rel].format(lower, upper)}, "
                         f"but got {arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int_range(arg_value, lower, upper, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower, upper, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower, upper, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower, upper, rel, float, arg_name, prim_name)


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    name = arg_name if arg_name else "parameter"
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        raise ValueError(f"{prefix} '{name}' must be str and must be in '{valid_values}',"
                         f" but got '{arg_value}'.")
    return arg_value


def check_str_by_regular(target, reg=None, flag=re.ASCII, prim_name=None):
    if reg is None:
        reg = r"^\w+[0-9a-zA-Z\_\.]*$"
    if re.match(reg, target, flag) is None:
        prim = f"For '{prim_name}', the" if prim_name else "The"
        raise ValueError(f"{prim} '{target}' is illegal, it must be match regular'{reg}' by flags'{flag}.'")
    return True


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    valid_types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)

    def fail():
        names = [t.__name__ if hasattr(t, "__name__") else str(t) for t in valid_types]
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        shown = names if len(names) > 1 else names[0]
        raise TypeError(f"{prefix} type of '{arg_name}' should be {'one of ' if len(names) > 1 else ''}"
                        f"'{shown}', but got type '{type(arg_value).__name__}'.")

    if isinstance(arg_value, bool) and bool not in valid_types:
        fail()
    if not isinstance(arg_value, valid_types):
        fail()
    return arg_value


def check_isinstance(arg_name, arg_value, classes):
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


def args_type_check(*type_args, **type_kwargs):
    """Decorator: every named argument that is not None must be an instance of its type."""

    def decorate(func):
        sig = inspect.signature(func)
        bound_types = sig.bind_partial(*type_args, **type_kwargs).arguments
        types = bound_types.get("kwargs", bound_types)

        @wraps(func)
        def wrapper(*args, **kwargs):
            arguments = sig.bind(*args, **kwargs).arguments
            arguments = arguments.get("kwargs", arguments)
            for name, value in arguments.items():
                if name in types and value is not None and not isinstance(value, types[name]):
                    raise TypeError(f"The parameter '{name}' must be {types[name]}, but got {type(value)}")
            return func(*args, **kwargs)

        return wrapper

    return decorate


def _check_3d_int_or_tuple(arg_name, arg_value, prim_name, allow_five=False, ret_five=False,
                           greater_zero=True, third_one=False, three_input=False, pad_value=1):
    """An int, or a tuple of three (or, with ``allow_five``, five) ints, as (d, h, w) or with
    ``ret_five`` as (pad_value, pad_value, d, h, w); MindSpore's checks and texts."""
    check_value_type(arg_name, arg_value, (int, tuple), prim_name)

    def fail(ret_value, depth=False, three=False):
        if depth:
            raise ValueError(f"For '{prim_name}', the depth of parameter '{arg_name}' must be 1, "
                             f"but got {ret_value[-3]}.")
        if three:
            raise ValueError(f"For '{prim_name}', the parameter '{arg_name}' must be an positive integer "
                             f"or a tuple of three positive integer, but got {ret_value}.")
        raise ValueError(f"For '{prim_name}', the parameter '{arg_name}' must be an positive integer or "
                         f"a tuple of three {'or five ' if allow_five else ''}positive integer, but got {ret_value}")

    if three_input and isinstance(arg_value, tuple) and len(arg_value) != 3:
        fail(arg_value, three=True)
    if isinstance(arg_value, int):
        ret = (pad_value, pad_value) + (arg_value,) * 3 if ret_five else (arg_value,) * 3
    elif len(arg_value) == 3:
        ret = (pad_value, pad_value) + tuple(arg_value) if ret_five else arg_value
    elif len(arg_value) == 5 and allow_five:
        ret = arg_value if ret_five else tuple(arg_value[2:])
    else:
        fail(arg_value)
    for item in ret:
        if not isinstance(item, int) or isinstance(item, bool) or item < 0 or (greater_zero and item == 0):
            fail(ret)
    if third_one and ret[-3] != 1:
        fail(ret, depth=True)
    return ret
