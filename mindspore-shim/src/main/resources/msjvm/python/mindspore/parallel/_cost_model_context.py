"""The cost-model context (``set_cost_model_context`` and friends); values in the Java Session."""
from mindspore._checkparam import args_type_check
from mindspore._host import session

_COST = session().costModel()
_POSITIVE = ("device_memory_capacity", "costmodel_alpha", "costmodel_beta", "costmodel_communi_threshold",
             "costmodel_communi_const", "costmodel_communi_bias")
_SET_KEYS = ["device_memory_capacity", "costmodel_alpha", "costmodel_beta", "costmodel_gamma",
             "costmodel_communi_threshold", "costmodel_communi_const", "costmodel_communi_bias", "run_phase",
             "costmodel_allreduce_fusion_algorithm", "costmodel_allreduce_fusion_times",
             "costmodel_allreduce_fusion_tail_percent", "costmodel_allreduce_fusion_tail_time",
             "costmodel_allreduce_fusion_allreduce_inherent_time",
             "costmodel_allreduce_fusion_allreduce_bandwidth",
             "costmodel_allreduce_fusion_computation_time_parameter"]


@args_type_check(device_memory_capacity=float, costmodel_alpha=float, costmodel_beta=float,
                 costmodel_gamma=float, costmodel_communi_threshold=float, costmodel_communi_const=float,
                 costmodel_communi_bias=float, run_phase=int, costmodel_allreduce_fusion_algorithm=int,
                 costmodel_allreduce_fusion_times=int, costmodel_allreduce_fusion_tail_percent=float,
                 costmodel_allreduce_fusion_tail_time=float,
                 costmodel_allreduce_fusion_allreduce_inherent_time=float,
                 costmodel_allreduce_fusion_allreduce_bandwidth=float,
                 costmodel_allreduce_fusion_computation_time_parameter=float)
def set_cost_model_context(**kwargs):
    """Sets cost-model parameters in the order given."""
    for key, value in kwargs.items():
        if key not in _SET_KEYS:
            raise ValueError("Set context keyword %s is not recognized!" % key)
        if key in _POSITIVE and value <= 0:
            raise RuntimeError(f"'{key}' must be positive.")
        _COST.set(key, value)


def get_cost_model_context(attr_key):
    """The value of one cost-model parameter."""
    if attr_key not in _SET_KEYS:
        raise ValueError("Get context keyword %s is not recognized!" % attr_key)
    return _COST.get(attr_key)


def reset_cost_model_context():
    """Restores every cost-model parameter."""
    _COST.reset()


def _set_rp_matmul_mem_coef(coef):
    if coef <= 0:
        raise ValueError("rp_matmul_mem_coef must be greater than 0")
    _COST.set("rp_matmul_mem_coef", coef)


def _get_rp_matmul_mem_coef():
    return _COST.get("rp_matmul_mem_coef")


def _set_algo_single_loop(single_loop=True):
    """Whether a for-loop's body gets one suite of operator infos (kept; msjvm traces loops unrolled)."""
    if not isinstance(single_loop, bool):
        raise TypeError(f"set_dp_algo_single_loop(): incompatible function arguments, got {single_loop!r}.")
    _COST.set("dp_algo_single_loop", single_loop)


def _get_algo_single_loop():
    return _COST.get("dp_algo_single_loop")
