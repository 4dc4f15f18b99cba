"""Dry run of a GPT-style network for a cluster that is not there (issue 20's planning target).

    MS_SIMULATION_LEVEL=1 RANK_SIZE=1024 RANK_ID=0 bin/mspython bench/dryrun/gpt.py \
        LAYERS HIDDEN SEQ VOCAB DP MP PP MICRO [HEADS] [BATCH_PER_DP]
or  bin/msrun --worker_num=1024 --local_worker_num=1 --sim_level=1 --sim_rank_id=R bench/dryrun/gpt.py ...

The network is conformance-tests' equivalence/_gpt.py (GPT-style, Megatron strategies on DP x MP,
PP pipeline stages with MICRO micro-batches, Adam) with optimizer parallel. The rank compiles its
plan (no kernel runs, no parameter is filled) and runs one simulated step; the shim prints its
memory (MindSpore's "Used peak memory usage" line) and writes dryrun_memory/rank_<r>.json. Prints
`RESULT ... params=<the whole network's parameter count> first_step_s=<compile and the simulated
step> script_s=<from the first import>`."""
import os
import sys
import time

t_start = time.perf_counter()
import mindspore as ms
from mindspore.communication import init, get_rank

L, H, S, V, DP, MP, PP, MICRO = (int(a) for a in sys.argv[1:9])
NH = int(sys.argv[9]) if len(sys.argv) > 9 else max(1, H // 128)
BPD = int(sys.argv[10]) if len(sys.argv) > 10 else 1
B = BPD * DP * MICRO  # global batch: BPD sequences per data-parallel rank per micro-batch

ms.set_context(mode=ms.GRAPH_MODE)
init()
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=PP, dataset_strategy="full_batch",
                             enable_parallel_optimizer=True)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "conformance-tests", "src",
                                "test", "resources", "equivalence"))
from _gpt import build  # pylint: disable=wrong-import-position
step, tokens, labels, net = build(L, H, S, V, DP, MP, PP, MICRO, NH, B)
t0 = time.perf_counter()
loss = step(tokens, labels)
t1 = time.perf_counter()
block_params = 4 * H * H + 8 * H * H + 4 * H  # qkv, proj, fc1, fc2; two LayerNorms' gamma and beta
total = L * block_params + 2 * V * H + 2 * H
print(f"RESULT rank={get_rank()} layers={L} hidden={H} seq={S} vocab={V} dp={DP} mp={MP} pp={PP} micro={MICRO} "
      f"params={total} first_step_s={t1 - t0:.1f} script_s={t1 - t_start:.1f}", flush=True)
