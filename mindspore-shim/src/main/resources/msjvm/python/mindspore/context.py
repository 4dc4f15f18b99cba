"""``mindspore.context``: run settings and the auto-parallel context of this interpreter.

Checks and messages follow MindSpore's ``mindspore/context.py``; values are stored in the rank's
Java ``Session``.
"""
from mindspore import _checkparam as Validator
from mindspore import log as logger
from mindspore._checkparam import args_type_check
from mindspore._host import host, session
from mindspore.parallel._auto_parallel_context import (_get_auto_parallel_context,
                                                       _reset_auto_parallel_context,
                                                       _set_auto_parallel_context)

__all__ = ['GRAPH_MODE', 'PYNATIVE_MODE', 'STRICT', 'COMPATIBLE', 'LAX', 'set_context', 'get_context',
           'set_auto_parallel_context', 'get_auto_parallel_context', 'reset_auto_parallel_context',
           'ParallelMode', 'set_ps_context', 'get_ps_context', 'reset_ps_context']

GRAPH_MODE = 0
PYNATIVE_MODE = 1
STRICT = 0
COMPATIBLE = 1
LAX = 2
RELEASE = 0
DEBUG = 1
_RE_PATTERN = r'[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB'
_VALID_TARGETS = ["CPU", "GPU", "Ascend", "Davinci"]

# Keys that only some devices accept; others log a warning and ignore the value.
_DEVICE_SPECIFIC = {
    'enable_reduce_precision': ['Ascend'],
    'print_file_path': ['Ascend'],
    'variable_memory_max_size': ['Ascend'],
    'max_device_memory': ['Ascend', 'GPU'],
    'mempool_block_size': ['GPU', 'Ascend'],
    'disable_format_transform': ['GPU'],
    'ascend_config': ['Ascend'],
    'gpu_config': ['GPU'],
}
_DEPRECATED_NOOP = ('enable_sparse', 'auto_tune_mode', 'enable_auto_mixed_precision')
_RUN = session().runContext()
_WARNED_FALLBACK = []


class ParallelMode:
    """The five parallel modes of ``set_auto_parallel_context(parallel_mode=...)``."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


def _set_mode(mode):
    if mode not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError(f"For 'context.set_context', the argument 'mode' should be context.GRAPH_MODE (0) "
                         f"or context.PYNATIVE_MODE (1), but got {mode}.")
    _RUN.set("mode", mode)


def _set_device_target(target):
    if target not in _VALID_TARGETS:
        raise ValueError(f"For 'context.set_context', the argument 'device_target' must be one of "
                         f"{_VALID_TARGETS}, but got {target}.")
    if target == "Davinci":
        target = "Ascend"
        logger.warning("The device 'Davinci' is deprecated and will be removed in the next version. "
                       "For 'context.set_context', please set the argument 'device_target' "
                       "to 'CPU', 'GPU' or 'Ascend',if you set it to 'Davinci', it will be automatically "
                       "changed to 'Ascend'.")
    _RUN.set("device_target", target)
    if not host().deviceAvailable(target) and target not in _WARNED_FALLBACK:
        _WARNED_FALLBACK.append(target)
        logger.warning(f"device_target '{target}' was requested but no {target} device was found on this "
                       "machine: msjvm runs this job on the CPU backend with the same numerics.")


def _set_device_id(device_id):
    if device_id < 0 or device_id > 4095:
        raise ValueError(f"For 'context.set_context', the argument 'device_id' must be in range [0, 4095], "
                         f"but got {device_id}.")
    _RUN.set("device_id", device_id)


def _set_max_device_memory(value):
    Validator.check_str_by_regular(value, _RE_PATTERN)
    if float(value[:-2]) == 0:
        raise ValueError("For 'context.set_context', the argument 'max_device_memory' should not be \"0GB\".")
    _RUN.set("max_device_memory", float(value[:-2]))


def _set_memory_string(key):
    def setter(value):
        Validator.check_str_by_regular(value, _RE_PATTERN)
        _RUN.set(key, value if key == "variable_memory_max_size" else float(value[:-2]))
    return setter


def _set_max_call_depth(value):
    if value <= 0:
        raise ValueError(f"For 'context.set_context', the argument 'max_call_depth' must be greater than 0, "
                         f"but got {value}.")
    _RUN.set("max_call_depth", value)


def _set_save_graphs(value):
    if value is True:
        value = 2
    if value is False:
        value = 0
    if value > 3:
        raise ValueError(f"value for save_graphs should be 0-3 but got '{value}'")
    _RUN.set("save_graphs", value)


def _set_jit_syntax_level(value):
    if value not in (STRICT, COMPATIBLE, LAX):
        raise ValueError(f"For 'jit_syntax_level', the value should be context.STRICT"
                         f" or context.LAX, but got {value}.")
    _RUN.set("jit_syntax_level", value)


def _set_debug_level(value):
    if value not in (RELEASE, DEBUG):
        raise ValueError(f"For 'debug_level', the value should be context.DEBUG"
                         f" or context.RELEASE, but got {value}.")
    _RUN.set("debug_level", value)


def _set_deterministic(value):
    if value not in ("ON", "OFF"):
        raise ValueError(f"For 'context.set_context', the argument 'deterministic' must be one of ['ON', 'OFF'], "
                         f"but got {value}.")
    _RUN.set("deterministic", value)


def _set_runtime_num_threads(value):
    if value < 0:
        raise ValueError("The num of thread must bigger than or equal to 0.")
    _RUN.set("runtime_num_threads", value)


_SETTERS = {
    "mode": _set_mode,
    "device_target": _set_device_target,
    "device_id": _set_device_id,
    "max_device_memory": _set_max_device_memory,
    "mempool_block_size": _set_memory_string("mempool_block_size"),
    "variable_memory_max_size": _set_memory_string("variable_memory_max_size"),
    "max_call_depth": _set_max_call_depth,
    "save_graphs": _set_save_graphs,
    "jit_syntax_level": _set_jit_syntax_level,
    "debug_level": _set_debug_level,
    "deterministic": _set_deterministic,
    "runtime_num_threads": _set_runtime_num_threads,
}


@args_type_check(mode=int, device_target=str, device_id=int, save_graphs=(bool, int),
                 save_graphs_path=str, aoe_tune_mode=str, aoe_config=dict,
                 enable_reduce_precision=bool, variable_memory_max_size=str,
                 enable_auto_mixed_precision=bool, inter_op_parallel_num=int,
                 enable_graph_kernel=bool, reserve_class_name_in_scope=bool, check_bprop=bool,
                 max_device_memory=str, print_file_path=str, max_call_depth=int, env_config_path=str,
                 graph_kernel_flags=str, save_compile_cache=bool, runtime_num_threads=int, load_compile_cache=bool,
                 pynative_synchronize=bool, mempool_block_size=str, disable_format_transform=bool,
                 op_timeout=int, deterministic=str, ascend_config=dict, jit_syntax_level=int, debug_level=int,
                 jit_enable_inplace_ops=bool, gpu_config=dict, jit_config=dict, enable_compile_cache=bool)
def set_context(**kwargs):
    """Sets run settings (``mode``, ``device_target``, ``device_id``, ``max_device_memory``...)."""
    if 'device_target' in kwargs:
        _set_device_target(kwargs['device_target'])
    device = _RUN.get("device_target")
    for key, value in kwargs.items():
        if key in _DEPRECATED_NOOP:
            logger.warning(f"For 'context.set_context', '{key}' parameter is deprecated, "
                           "and will be removed in the next version.")
            continue
        if key == 'device_target':
            continue
        if key in _DEVICE_SPECIFIC and device not in _DEVICE_SPECIFIC[key]:
            logger.warning(f"For 'context.set_context', when set the argument '{key}', "
                           f"the argument 'device_target' only supports devices in '{_DEVICE_SPECIFIC[key]}', "
                           f"but got '{device}', ignore it.")
            continue
        if key in _SETTERS:
            _SETTERS[key](value)
            continue
        if _RUN.has(key):
            _RUN.set(key, value)
            continue
        raise ValueError(f"For 'context.set_context', the keyword argument {key} is not recognized! For detailed "
                         f"usage of 'set_context', please refer to the Mindspore official website.")


def get_context(attr_key):
    """The value of one run setting."""
    if isinstance(attr_key, str) and _RUN.has(attr_key):
        return _RUN.get(attr_key)
    raise ValueError(f"For 'context.get_context', the argument {attr_key} is not recognized! For detailed "
                     f"usage of 'get_context', please refer to the Mindspore official website.")


@args_type_check(device_num=int, global_rank=int, gradients_mean=bool, gradient_fp32_sync=bool, parallel_mode=str,
                 auto_parallel_search_mode=str, search_mode=str, parameter_broadcast=bool, strategy_ckpt_load_file=str,
                 strategy_ckpt_save_file=str, full_batch=bool, enable_parallel_optimizer=bool, enable_alltoall=bool,
                 all_reduce_fusion_config=list, pipeline_stages=int, pipeline_segments=int,
                 pipeline_result_broadcast=bool, parallel_optimizer_config=dict,
                 pipeline_config=dict,
                 comm_fusion=dict, strategy_ckpt_config=dict, force_fp32_communication=bool)
def set_auto_parallel_context(**kwargs):
    """Sets auto-parallel keys in the order given (see MindSpore's documentation for each key)."""
    _set_auto_parallel_context(**kwargs)


def get_auto_parallel_context(attr_key):
    """The value of one auto-parallel key."""
    return _get_auto_parallel_context(attr_key)


def reset_auto_parallel_context():
    """Restores every auto-parallel key to its default."""
    _reset_auto_parallel_context()


_PS_CONTEXT = {"enable_ps": False}


@args_type_check(enable_ps=bool)
def set_ps_context(**kwargs):
    """Parameter-server settings: accepted and stored; msjvm has no parameter-server mode."""
    for key, value in kwargs.items():
        if key not in _PS_CONTEXT:
            raise ValueError("Set PS context keyword %s is not recognized!" % key)
        _PS_CONTEXT[key] = value


def get_ps_context(attr_key):
    if attr_key not in _PS_CONTEXT:
        raise ValueError("Get PS context keyword %s is not recognized!" % attr_key)
    return _PS_CONTEXT[attr_key]


def reset_ps_context():
    _PS_CONTEXT["enable_ps"] = False
