# Defaults of every gettable auto-parallel context key: in a fresh process, then after
# reset_auto_parallel_context(). (search_mode / auto_parallel_search_mode are in defaults_search_mode.py.)
import mindspore as ms

KEYS = ["device_num", "global_rank", "gradients_mean", "gradient_fp32_sync", "loss_repeated_mean",
        "pipeline_stages", "auto_pipeline", "pipeline_result_broadcast", "pipeline_interleave",
        "pipeline_scheduler", "parallel_mode", "parameter_broadcast", "strategy_ckpt_load_file",
        "strategy_ckpt_save_file", "full_batch", "dataset_strategy", "enable_parallel_optimizer",
        "force_fp32_communication", "grad_accumulation_step", "all_reduce_fusion_config",
        "communi_parallel_mode", "optimizer_weight_shard_size", "optimizer_weight_shard_aggregated_save",
        "sharding_propagation", "enable_alltoall", "comm_fusion", "strategy_ckpt_config", "full_batch_is_set",
        "dump_local_norm", "dump_local_norm_path", "dump_device_local_norm", "auto_parallel_new_interface",
        "init_param_in_compile"]


def dump(title):
    print(f"-- {title}")
    for k in KEYS:
        v = ms.get_auto_parallel_context(k)
        print(f"{k} = {v!r} ({type(v).__name__})")


dump("fresh process")
ms.reset_auto_parallel_context()
dump("after reset_auto_parallel_context()")
