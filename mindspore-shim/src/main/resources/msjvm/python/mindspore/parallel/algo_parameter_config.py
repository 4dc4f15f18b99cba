"""``set_algo_parameters`` / ``get_algo_parameters`` / ``reset_algo_parameters``.

Checks follow MindSpore's ``mindspore/parallel/algo_parameter_config.py`` and the C++ setters it
calls (``costmodel_context.cc``); values live in this rank's Java ``Session``.
"""
from mindspore._checkparam import args_type_check
from mindspore._host import session

_ALGO = session().algoParameters()
_KEYS = ["fully_use_devices", "elementwise_op_strategy_follow", "tensor_slice_align_enable",
         "tensor_slice_align_size", "enable_algo_approxi", "algo_approxi_epsilon"]


def _set(key, value):
    if key == "tensor_slice_align_size" and (value < 1 or value > 1024):
        raise ValueError('Align_size must be in [1, 1024], but got {}'.format(value))
    if key == "algo_approxi_epsilon":
        if value <= 0 or value > 1:
            raise RuntimeError("'epsilon' must be in (0, 1]")
    _ALGO.set(key, value)


@args_type_check(tensor_slice_align_enable=bool, tensor_slice_align_size=int,
                 fully_use_devices=bool, elementwise_op_strategy_follow=bool,
                 enable_algo_approxi=bool, algo_approxi_epsilon=float)
def set_algo_parameters(**kwargs):
    """Sets strategy-search parameters, in the order given."""
    for key, value in kwargs.items():
        if key not in _KEYS:
            raise ValueError("Set context keyword %s is not recognized!" % key)
        _set(key, value)


def get_algo_parameters(attr_key):
    """The value of one strategy-search parameter."""
    if attr_key not in _KEYS:
        raise ValueError("Get context keyword %s is not recognized!" % attr_key)
    return _ALGO.get(attr_key)


def reset_algo_parameters():
    """Restores every strategy-search parameter to its default."""
    _ALGO.reset()
