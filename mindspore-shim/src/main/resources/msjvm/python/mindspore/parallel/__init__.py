"""``mindspore.parallel``: algorithm parameters, ``Layout``, ``shard``, ``parameter_broadcast`` and the
pipeline/gradient-accumulation wrappers of ``mindspore.parallel.nn``, the distributed-checkpoint tools
(``build_searched_strategy``, ``merge_sliced_parameter``, ``merge_pipeline_strategys``,
``restore_group_info_list``, the checkpoint
transforms, ``load_distributed_checkpoint``, ``load_segmented_checkpoints``, ``unified_safetensors``).

As in MindSpore 2.10 the attribute ``mindspore.parallel.shard`` is the function (it shadows the
module of the same name); ``from mindspore.parallel.shard import Layout`` still reaches the module.
"""
from mindspore.parallel.algo_parameter_config import (get_algo_parameters, reset_algo_parameters,
                                                      set_algo_parameters)
from mindspore.parallel.parameter_broadcast import parameter_broadcast
from mindspore.parallel.shard import Layout, shard
from mindspore.parallel.nn import (GradAccumulation, MicroBatchInterleaved, Pipeline, PipelineCell,
                                   PipelineGradReducer)
from mindspore.parallel.checkpoint_transform import (build_searched_strategy, load_distributed_checkpoint,
                                                     load_segmented_checkpoints, merge_pipeline_strategys,
                                                     merge_sliced_parameter, rank_list_for_transform,
                                                     restore_group_info_list, sync_pipeline_shared_parameters,
                                                     transform_checkpoint_by_rank, transform_checkpoints,
                                                     unified_safetensors)

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "Layout", "shard",
           "parameter_broadcast", "PipelineCell", "Pipeline", "MicroBatchInterleaved", "GradAccumulation",
           "PipelineGradReducer", "build_searched_strategy", "merge_sliced_parameter", "rank_list_for_transform",
           "transform_checkpoint_by_rank", "transform_checkpoints", "merge_pipeline_strategys",
           "load_distributed_checkpoint", "load_segmented_checkpoints", "unified_safetensors",
           "sync_pipeline_shared_parameters", "restore_group_info_list"]
