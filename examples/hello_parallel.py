"""An 8-rank job as a cluster script would write it: context, init, groups for 2 stages x 4 replicas.

Run: bin/msrun --worker_num=8 --local_worker_num=8 --join=True examples/hello_parallel.py
"""
import mindspore as ms
from mindspore.communication import (create_group, get_group_rank_from_world_rank, get_group_size,
                                     get_local_rank, get_rank, init)

# Written for an Ascend cluster: msjvm runs it on the CPU (one warning) with the in-JVM communicator.
ms.set_context(mode=ms.GRAPH_MODE, device_target="Ascend")
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8,
                             pipeline_stages=2, gradients_mean=True, enable_parallel_optimizer=True,
                             dataset_strategy="data_parallel",
                             comm_fusion={"allreduce": {"mode": "size", "config": 32}})
ms.set_seed(1)
init()

rank, size = get_rank(), get_group_size()
stages = ms.get_auto_parallel_context("pipeline_stages")
per_stage = size // stages
stage = rank // per_stage
stage_ranks = list(range(stage * per_stage, (stage + 1) * per_stage))
dp_ranks = [r for r in range(size) if r % per_stage == rank % per_stage]
create_group(f"stage{stage}", stage_ranks)
create_group(f"dp{rank % per_stage}", dp_ranks)
print(f"rank {rank}/{size} (local {get_local_rank()}): stage {stage} ranks {stage_ranks} "
      f"-> position {get_group_rank_from_world_rank(rank, f'stage{stage}')}; "
      f"data-parallel peers {dp_ranks}; mode {ms.get_auto_parallel_context('parallel_mode')}")
