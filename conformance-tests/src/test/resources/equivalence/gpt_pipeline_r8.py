# ranks: 8
# The GPT-style network of equivalence/_gpt.py (Gather embedding, LayerNorm, attention with
# BatchMatMul/Softmax, GeLU MLP with residual connections, sparse softmax cross-entropy, Adam) on
# dp 2 x mp 2 x pp 2 with nn.PipelineCell over 4 micro-batches (1F1B) and optimizer parallel trains
# with the losses of its stand-alone run (the same micro-batch sum on one device): the last stage
# reports them, the first stage zeros (MindSpore's GetZeroOutputs).
import mindspore as ms
from mindspore.communication import init, get_rank
from _equiv import losses_match
from _gpt import build

ms.set_context(mode=ms.GRAPH_MODE)
init()
L, H, S, V, PP, MICRO, HEADS = 4, 32, 8, 64, 2, 4, 4


def run(dp, mp, pp):
    ms.set_seed(5)
    step, tokens, labels, _ = build(L, H, S, V, dp, mp, pp, MICRO, HEADS, 2 * MICRO)
    tokens = ms.Tensor([[(i * 7 + j * 3) % V for j in range(S)] for i in range(2 * MICRO)], ms.int32)
    labels = ms.Tensor([[(i * 7 + j * 3 + 1) % V for j in range(S)] for i in range(2 * MICRO)], ms.int32)
    return [step(tokens, labels).item() for _ in range(4)]


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref = run(1, 1, PP)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", pipeline_stages=PP, dataset_strategy="full_batch",
                             enable_parallel_optimizer=True, parallel_optimizer_config={"parallel_optimizer_threshold": 0})
losses = run(2, 2, PP)
if get_rank() >= 4:
    print("last stage: steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref))
else:
    print("first stage: steps", len(losses), "losses are zeros:", all(v == 0 for v in losses))
