"""``mindspore.runtime`` memory: ``set_memory`` with MindSpore's checks (values in the Java Session),
and the bytes this rank's tensors hold as the engine counts them in each compiled step (parameters,
optimizer states, the step's inputs and the values it computes, each storage once; a dry run counts
what a replay would hold)."""
from mindspore import _checkparam as Validator
from mindspore._checkparam import args_type_check
from mindspore._host import host, session

_MEMORY_PATTERN = r'[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB'
_RESERVE_PATTERN = r'[0-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB'


def _check_memory_conf_valid(memory_size):
    if not Validator.check_str_by_regular(memory_size, _MEMORY_PATTERN):
        raise ValueError("The memory value should be in correct format!"
                         "It must be a string ending with 'GB', in addition to that, it must contain "
                         "only numbers or decimal points, such as \"5GB\" or \"3.5GB\", but got {}."
                         .format(memory_size))
    if memory_size in ["0GB", "0.0GB"]:
        raise ValueError("The memory value should not be \"0GB\".")


@args_type_check(init_size=str, increase_size=str, max_size=str, optimize_level=str,
                 huge_page_reserve_size=str)
def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB"):
    """Sets the device memory pool sizes (strings like "25GB") and the optimize level; once only."""
    run = session().runtimeMemory()
    if run.get("configured"):
        raise RuntimeError("The 'set_memory' can not be set repeatedly.")
    _check_memory_conf_valid(init_size)
    _check_memory_conf_valid(increase_size)
    _check_memory_conf_valid(max_size)
    Validator.check_str_by_regular(huge_page_reserve_size, _RESERVE_PATTERN)
    levels = ["O0", "O1"]
    if optimize_level not in levels:
        raise ValueError(f"The optimize_level must be one of {levels}, but got {optimize_level}.")
    run.set("init_size", float(init_size[:-2]))
    run.set("increase_size", float(increase_size[:-2]))
    run.set("max_size", float(max_size[:-2]))
    run.set("optimize_level", 1 if optimize_level == "O1" else 0)
    run.set("huge_page_reserve_size", float(huge_page_reserve_size[:-2]))
    run.set("configured", True)


def memory_allocated():
    """Bytes this rank's tensors hold after its last compiled step (parameters, optimizer states,
    the step's inputs and results)."""
    return int(host().memoryAllocated())


def max_memory_allocated():
    """The most bytes this rank's tensors held at once during any compiled step since the start or
    the last ``reset_peak_memory_stats``/``reset_max_memory_allocated``."""
    return int(host().maxMemoryAllocated())


def reset_max_memory_allocated():
    """The peak of ``max_memory_allocated`` starts again from what is held now."""
    host().resetPeakMemory()


def reset_peak_memory_stats():
    """Resets the peak counts (``max_memory_allocated``)."""
    host().resetPeakMemory()
