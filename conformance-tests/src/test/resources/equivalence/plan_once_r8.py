# ranks: 8
# The plan is made once per job: of the 8 ranks sharing this JVM, one traces each semi_auto_parallel
# compile on global shapes and plans it; the other seven lower that plan with their own parameters,
# without tracing. Two compiles (two batch sizes) are traced twice in all, every rank's plan has the
# same digest, no kernel runs while compiling, and the first graph trains with the stand-alone
# losses.
from _equiv import losses_match
import mindspore as ms
from mindspore import nn, ops
from mindspore.common.api import _cell_graph_executor
from mindspore.communication import init
from mindspore._host import host
from _par_common import seeded_net, samples, dataset, train, SEED_STRATEGIES

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
init()
xs, ys = samples(160)
ms.set_auto_parallel_context(parallel_mode="stand_alone")
_, ref16 = train(seeded_net(), dataset(xs, ys, 16))

ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
net = seeded_net(SEED_STRATEGIES)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 1e-2))
step.set_train()
b16 = list(dataset(xs, ys, 16).create_tuple_iterator())
b32 = list(dataset(xs, ys, 32).create_tuple_iterator())
h = host()
k0 = h.kernelCalls()
_cell_graph_executor.compile(step, *b16[0])
first = h.planDigest()
_cell_graph_executor.compile(step, *b32[0])
second = h.planDigest()
print("kernels run by the two compiles:", h.kernelCalls() - k0)
# Every rank's count of compiles it traced, and 24 bits of each plan's digest (exact in float32).
mine = ms.Tensor([[h.tracedCompiles(), int(first[:6], 16), int(second[:6], 16)]], ms.float32)
rows = ops.AllGather()(mine).tolist()
print("compiles traced by all ranks together:", int(sum(r[0] for r in rows)))
print("every rank lowered the same plans:", len({(r[1], r[2]) for r in rows}) == 1)
print("the two compiles have different plans:", first != second)
losses16 = [step(x, y).item() for x, y in b16]
print("batch 16: steps", len(losses16), "losses == stand-alone:", losses_match(losses16, ref16))
