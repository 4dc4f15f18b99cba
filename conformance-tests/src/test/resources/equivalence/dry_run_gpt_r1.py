# A dry run of the GPT-style network (equivalence/_gpt.py: Megatron strategies, pipeline_stages=2
# with nn.PipelineCell micro-batches, Adam with optimizer parallel) for a 64-rank cluster
# (dp 4 x mp 8 x pp 2) in this one process: rank 0 (first stage: embedding and two blocks) and rank
# 63 (last stage: two blocks and the head). Each compiles and runs one simulated step (level 1, no
# kernel, no parameter filled); the bytes of weights it stores equal the closed form of ZeRO-style
# optimizer parallel (1/replicas of each slice of at least 64 KB whose rows the replicas divide),
# Adam's two states equal twice that, and the rest is Adam's four scalar parameters.
import json
import os
os.environ["MS_SIMULATION_LEVEL"] = "1"
os.environ["RANK_SIZE"] = "64"
import mindspore as ms
from mindspore.communication.management import init, release
from mindspore._host import host
from _gpt import build, stage_weight_bytes

ms.set_context(mode=ms.GRAPH_MODE)
L, H, S, V, DP, MP, PP, MICRO, HEADS = 4, 256, 32, 1024, 4, 8, 2, 2, 8
for rank in (0, 63):
    os.environ["RANK_ID"] = str(rank)
    init()
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=PP,
                                 dataset_strategy="full_batch", enable_parallel_optimizer=True)
    step, tokens, labels, net = build(L, H, S, V, DP, MP, PP, MICRO, HEADS, DP * MICRO)
    k0 = host().kernelCalls()
    loss = step(tokens, labels)
    memory = json.load(open(f"dryrun_memory/rank_{rank}.json"))
    stage = rank // (DP * MP)
    weights = stage_weight_bytes(L, H, V, DP, MP, PP, stage)
    print(f"rank {rank} (stage {stage}): kernels run {host().kernelCalls() - k0}, loss {loss.shape}")
    print("  weights stored == closed form:", memory["parameter_bytes"] - 16 == weights, weights,
          "+ Adam's scalars:", memory["parameter_bytes"] - weights)
    print("  Adam's moments == 2 x weights:", memory["optimizer_state_bytes"] == 2 * weights)
    print("  activations at the peak counted:", memory["peak_activation_bytes"] > 0)
    release()
