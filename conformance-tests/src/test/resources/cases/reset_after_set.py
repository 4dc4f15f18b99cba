# Set non-default values for many keys, print them, reset_auto_parallel_context(), print again.
import mindspore as ms

ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(device_num=8, global_rank=3, gradients_mean=True, gradient_fp32_sync=False,
                             loss_repeated_mean=False, parallel_mode="semi_auto_parallel",
                             parameter_broadcast=True, strategy_ckpt_load_file="./a.ckpt",
                             strategy_ckpt_save_file="./b.ckpt", full_batch=True, enable_parallel_optimizer=True,
                             enable_alltoall=True, all_reduce_fusion_config=[2, 4], pipeline_stages=2,
                             pipeline_result_broadcast=True, communi_parallel_mode="no_group_parallel",
                             optimizer_weight_shard_size=4, optimizer_weight_shard_aggregated_save=True,
                             force_fp32_communication=True,
                             pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "gpipe"},
                             strategy_ckpt_config={"load_file": "./c.ckpt", "only_trainable_params": False},
                             comm_fusion={"allreduce": {"mode": "size", "config": 16}})

KEYS = ["device_num", "global_rank", "gradients_mean", "gradient_fp32_sync", "loss_repeated_mean",
        "parallel_mode", "parameter_broadcast", "strategy_ckpt_load_file", "strategy_ckpt_save_file",
        "full_batch", "full_batch_is_set", "dataset_strategy", "enable_parallel_optimizer", "enable_alltoall",
        "all_reduce_fusion_config", "pipeline_stages", "pipeline_result_broadcast", "pipeline_interleave",
        "pipeline_scheduler", "communi_parallel_mode", "optimizer_weight_shard_size",
        "optimizer_weight_shard_aggregated_save", "force_fp32_communication", "strategy_ckpt_config",
        "comm_fusion", "grad_accumulation_step"]


def dump(title):
    print(f"-- {title}")
    for k in KEYS:
        print(f"{k} = {ms.get_auto_parallel_context(k)!r}")


dump("after set")
ms.reset_auto_parallel_context()
dump("after reset")
