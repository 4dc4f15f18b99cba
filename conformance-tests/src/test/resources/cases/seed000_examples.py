# Seed 000: the Examples block of mindspore.set_auto_parallel_context, run in order.
# Each statement is wrapped so that a failing one is reported and the next still runs
# (doctest semantics); afterwards every key touched is read back.
import mindspore as ms
from _case_util import show


def step(label, fn):
    try:
        fn()
        print(f"{label}: ok")
    except Exception as e:  # pylint: disable=broad-except
        print(f"{label}: ", end="")
        show(e)


step("device_num=8", lambda: ms.set_auto_parallel_context(device_num=8))
step("global_rank=0", lambda: ms.set_auto_parallel_context(global_rank=0))
step("gradients_mean=True", lambda: ms.set_auto_parallel_context(gradients_mean=True))
step("gradient_fp32_sync=False", lambda: ms.set_auto_parallel_context(gradient_fp32_sync=False))
step("parallel_mode=auto_parallel", lambda: ms.set_auto_parallel_context(parallel_mode="auto_parallel"))
step("search_mode=dynamic_programming", lambda: ms.set_auto_parallel_context(search_mode="dynamic_programming"))
step("auto_parallel_search_mode=dynamic_programming",
     lambda: ms.set_auto_parallel_context(auto_parallel_search_mode="dynamic_programming"))
step("parameter_broadcast=False", lambda: ms.set_auto_parallel_context(parameter_broadcast=False))
step("strategy_ckpt_load_file", lambda: ms.set_auto_parallel_context(strategy_ckpt_load_file="./strategy_stage1.ckpt"))
step("strategy_ckpt_save_file", lambda: ms.set_auto_parallel_context(strategy_ckpt_save_file="./strategy_stage1.ckpt"))
step("dataset_strategy=((1, 8), (1, 8))", lambda: ms.set_auto_parallel_context(dataset_strategy=((1, 8), (1, 8))))
step("enable_parallel_optimizer=False", lambda: ms.set_auto_parallel_context(enable_parallel_optimizer=False))
step("enable_alltoall=False", lambda: ms.set_auto_parallel_context(enable_alltoall=False))
step("all_reduce_fusion_config=[8, 160]", lambda: ms.set_auto_parallel_context(all_reduce_fusion_config=[8, 160]))
step("pipeline_stages=2", lambda: ms.set_auto_parallel_context(pipeline_stages=2))
parallel_config = {"gradient_accumulation_shard": True, "parallel_optimizer_threshold": 24}
step("parallel_optimizer_config+enable_parallel_optimizer",
     lambda: ms.set_auto_parallel_context(parallel_optimizer_config=parallel_config, enable_parallel_optimizer=True))
config = {"allreduce": {"mode": "size", "config": 32}, "allgather": {"mode": "size", "config": 32}}
step("comm_fusion", lambda: ms.set_auto_parallel_context(comm_fusion=config))

for key in ["device_num", "global_rank", "gradients_mean", "gradient_fp32_sync", "parallel_mode",
            "search_mode", "auto_parallel_search_mode", "parameter_broadcast", "strategy_ckpt_load_file",
            "strategy_ckpt_save_file", "dataset_strategy", "full_batch", "enable_parallel_optimizer",
            "enable_alltoall", "all_reduce_fusion_config", "pipeline_stages", "comm_fusion",
            "parallel_optimizer_config"]:
    try:
        print(f"{key} = {ms.get_auto_parallel_context(key)!r}")
    except Exception as e:  # pylint: disable=broad-except
        print(f"{key}: ", end="")
        show(e)
print("config dict unchanged:", config)
