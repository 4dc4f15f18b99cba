"""Issue 20's memory truth: the GPT-style network of conformance-tests' equivalence/_gpt.py on
dp 2 x mp 2 x pp 2 (nn.PipelineCell over 4 micro-batches, 1F1B, Adam with optimizer parallel),
three training steps. Each rank prints `MEMORY <rank> <parameters> <optimizer states> <inputs>
<values at the peak> <peak>` in bytes, as the engine counted its last step storage by storage, and
how mindspore.runtime's memory_allocated/max_memory_allocated/reset_peak_memory_stats agree. Real: `bin/msrun --worker_num=8 --local_worker_num=8 tests/memory_truth.py`;
the dry run of the same cluster: `bin/msrun --sim_level=1 --worker_num=8 --local_worker_num=8
tests/memory_truth.py` also writes dryrun_memory/rank_<r>.json. tests/launchers.sh holds each
rank's prediction to within 10% of its count, and parameters and states to their closed forms."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance-tests",
                                "src", "test", "resources", "equivalence"))
import mindspore as ms  # pylint: disable=wrong-import-position
from mindspore.communication import init, get_rank  # pylint: disable=wrong-import-position
from mindspore._host import host  # pylint: disable=wrong-import-position
from _gpt import build, stage_weight_bytes  # pylint: disable=wrong-import-position

L, H, S, V, DP, MP, PP, MICRO, HEADS = 4, 128, 32, 512, 2, 2, 2, 4, 4
ms.set_context(mode=ms.GRAPH_MODE)
init()
ms.set_seed(7)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=PP, dataset_strategy="full_batch",
                             enable_parallel_optimizer=True)
step, _, _, net = build(L, H, S, V, DP, MP, PP, MICRO, HEADS, DP * MICRO)
tokens = ms.Tensor([[(i * 7 + j * 3) % V for j in range(S)] for i in range(DP * MICRO)], ms.int32)
labels = ms.Tensor([[(i * 7 + j * 3 + 1) % V for j in range(S)] for i in range(DP * MICRO)], ms.int32)
for _ in range(3):
    loss = step(tokens, labels)
rank = get_rank()
_, _, _, params, states, inputs, values, peak = host().lastStepMemory()
stage = rank // (DP * MP)
weights = stage_weight_bytes(L, H, V, DP, MP, PP, stage)
print(f"MEMORY {rank} {params} {states} {inputs} {values} {peak}")
held, most = ms.runtime.memory_allocated(), ms.runtime.max_memory_allocated()
ms.runtime.reset_peak_memory_stats()
print(f"runtime: max_memory_allocated == peak {most == peak}, memory_allocated {held} < peak {0 < held < peak}, "
      f"after reset_peak_memory_stats {ms.runtime.max_memory_allocated() == held}")
print(f"closed forms: weights {params - 16 == weights} ({weights} + 16 B of Adam's scalars), "
      f"Adam's moments {states == 2 * weights}", flush=True)
