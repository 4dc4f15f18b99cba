# The cost-model context (mindspore.parallel._cost_model_context): defaults, set/get/reset, errors.
from mindspore.parallel._cost_model_context import (set_cost_model_context, get_cost_model_context,
                                                    reset_cost_model_context)
from _case_util import show, attempt


KEYS = ["device_memory_capacity", "costmodel_alpha", "costmodel_beta", "costmodel_gamma",
        "costmodel_communi_threshold", "costmodel_communi_const", "costmodel_communi_bias", "run_phase",
        "costmodel_allreduce_fusion_algorithm", "costmodel_allreduce_fusion_times",
        "costmodel_allreduce_fusion_tail_percent", "costmodel_allreduce_fusion_tail_time",
        "costmodel_allreduce_fusion_allreduce_inherent_time", "costmodel_allreduce_fusion_allreduce_bandwidth",
        "costmodel_allreduce_fusion_computation_time_parameter"]
for k in KEYS:
    print(k, repr(get_cost_model_context(k)))
attempt("set costmodel_alpha=2.0", lambda: set_cost_model_context(costmodel_alpha=2.0))
attempt("get costmodel_alpha", lambda: get_cost_model_context("costmodel_alpha"))
attempt("set costmodel_gamma=0.5", lambda: set_cost_model_context(costmodel_gamma=0.5))
attempt("get costmodel_gamma", lambda: get_cost_model_context("costmodel_gamma"))
attempt("set costmodel_alpha=-1.0", lambda: set_cost_model_context(costmodel_alpha=-1.0))
attempt("set costmodel_beta='x'", lambda: set_cost_model_context(costmodel_beta='x'))
attempt("set device_memory_capacity=0", lambda: set_cost_model_context(device_memory_capacity=0))
attempt("set run_phase=1", lambda: set_cost_model_context(run_phase=1))
attempt("set unknown", lambda: set_cost_model_context(no_such_key=1.0))
attempt("get unknown", lambda: get_cost_model_context("no_such_key"))
reset_cost_model_context()
print("after reset")
for k in ["costmodel_alpha", "costmodel_gamma", "run_phase"]:
    print(k, repr(get_cost_model_context(k)))
