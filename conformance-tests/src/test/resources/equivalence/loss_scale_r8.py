# ranks: 8
# Dynamic loss scaling on 8 ranks: nn.TrainOneStepWithLossScaleCell with a DynamicLossScaleUpdateCell
# whose first scale (2**127, on a loss scaled by 1e10) overflows the float32 gradients (then every
# growth after 3 steps does again), in semi_auto_parallel with the seed's
# shard strategies (dataset_strategy full_batch). The step must compile to one graph there, so the
# skipped update and the scale's update run inside the graph; stand-alone they are Python code. The
# two runs must agree step by step: the overflow flags, the loss scales (exactly), the losses within
# 1e-5 relative, and every rank's parameter and momentum slices within float32 tolerance.
from _equiv import losses_match, rank_slice
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor
from mindspore.communication import init, get_rank
from _par_common import seeded_net, samples, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
rank = get_rank()
xs, ys = samples(32 * 8)
batches = [(Tensor(np.array(xs[i:i + 32], np.float32)), Tensor(np.array(ys[i:i + 32], np.int32)))
           for i in range(0, len(xs), 32)]


class BigLoss(nn.Cell):
    """Cross-entropy times 1e10: its gradients times the loss scale reach float32's range (the
    learning rate is divided by as much)."""

    def __init__(self):
        super().__init__()
        self.ce = nn.CrossEntropyLoss()

    def construct(self, logits, labels):
        return self.ce(logits, labels) * 1e10


def run(strategies=None):
    net = seeded_net(strategies)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=1e-11, momentum=0.9)  # 0.1 / 1e10
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 127, scale_factor=2.0 ** 30, scale_window=3)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, BigLoss()), optimizer, manager)
    steps = []
    for x, y in batches:
        loss, overflow, _ = cell(x, y)
        # the scale after the step (the returned one is the Parameter in PYNATIVE_MODE and its value
        # before the update in a graph, in MindSpore as here)
        scale = float(cell.scale_sense.asnumpy())
        steps.append((float(loss.asnumpy()), bool(overflow.asnumpy()), scale))
    return net, optimizer, cell, steps


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref_net, ref_opt, _, ref = run()
print("stand-alone overflows:", [s[1] for s in ref])
print("stand-alone scales (log2):", [round(float(np.log2(s[2])), 3) for s in ref])
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
net, opt, cell, got = run(SEED_STRATEGIES)
print("semi_auto overflows == stand-alone:", [s[1] for s in got] == [s[1] for s in ref])
print("semi_auto scales == stand-alone:", [s[2] for s in got] == [s[2] for s in ref])
finite = [i for i, s in enumerate(ref) if np.isfinite(s[0])]
print("finite losses == stand-alone within 1e-5 relative:",
      losses_match([got[i][0] for i in finite], [ref[i][0] for i in finite]))
def close(a, b):
    """Within float32 tolerance of the tensor's scale (the moments hold gradients of a 1e10 loss)."""
    return a.shape == b.shape and float(np.abs(a - b).max()) <= 1e-5 * max(float(np.abs(b).max()), 1e-3)


layouts = cell.parameter_layout_dict
ok = True
for p, q in zip(net.trainable_params(), ref_net.trainable_params()):
    part = rank_slice(q.asnumpy(), layouts[p.name], rank)
    ok &= close(p.asnumpy(), part)
for p, q in zip(opt.moments, ref_opt.moments):
    layout = layouts.get(p.name)
    whole = q.asnumpy()
    part = rank_slice(whole, layout, rank) if layout is not None else whole
    ok &= close(p.asnumpy(), part)
print("every rank's parameters and moments == stand-alone within float32 tolerance:", ok)
