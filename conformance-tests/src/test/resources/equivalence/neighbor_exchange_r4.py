# ranks: 4
# NeighborExchange (ops.NeighborExchange, ops.operations.comm_ops) as a user calls it: each of 4 ranks
# sends a tuple of tensors of different shapes, one to itself and one each to the next two ranks, and
# receives from itself and the previous two; checked against what numpy builds from every rank's
# inputs, in PYNATIVE and GRAPH mode. The gradient (each received tensor's gradient goes back to its
# sender) is checked against numpy's, and a small network that trains through the exchange for three
# steps against the same network trained by numpy. Then the empty sides (a rank that only sends, one
# that only receives) and the tutorial's 2-rank example (communicate_ops: rank 0 sends a [3, 3] tensor
# and receives a [2, 2] one, rank 1 the reverse), whose ranks pick their network by RANK_ID.
import os
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.communication import init, get_rank

init()
rank = get_rank()
N = 4
PREV, PREV2, NEXT, NEXT2 = (rank - 1) % N, (rank - 2) % N, (rank + 1) % N, (rank + 2) % N


def own(r):
    return np.arange(3, dtype=np.float32) + 10 * r


def near(r):
    return np.arange(4, dtype=np.float32).reshape(2, 2) * (r + 1)


def far(r):
    return np.full((1, 3), r - 0.5, np.float32)


# rank r sends (own, near, far) to (r, r + 1, r + 2); it receives (far, near, own) from (r - 2, r - 1, r)
exchange = ops.NeighborExchange(send_rank_ids=[rank, NEXT, NEXT2], recv_rank_ids=[PREV2, PREV, rank],
                                recv_shapes=([1, 3], [2, 2], [3]), send_shapes=([3], [2, 2], [1, 3]),
                                recv_type=ms.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.exchange = exchange

    def construct(self, a, b, c):
        return self.exchange((a, b, c))


inputs = [Tensor(own(rank)), Tensor(near(rank)), Tensor(far(rank))]
want = [far(PREV2), near(PREV), own(rank)]
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    got = Net()(*inputs)
    print("rank", rank, "PYNATIVE" if mode == ms.PYNATIVE_MODE else "GRAPH", "received",
          [tuple(t.shape) for t in got], "== the senders' tensors:",
          all(np.array_equal(g.asnumpy(), w) for g, w in zip(got, want)))
ms.set_context(mode=ms.PYNATIVE_MODE)


# Gradient of sum_j sum(out_j * weight_j(r)) on every rank r: input i's gradient is the weight of the
# rank it went to, for the output it landed in there.
def weights(r):
    return [np.full((1, 3), r + 1, np.float32), np.arange(4, dtype=np.float32).reshape(2, 2) + r,
            np.array([1, 2, 3], np.float32) * (r + 1)]


def loss(a, b, c):
    out = Net()(a, b, c)
    return sum((o * Tensor(w)).sum() for o, w in zip(out, weights(rank)))


grads = ops.GradOperation(get_all=True)(loss)(*inputs)
ref = [weights(rank)[2], weights(NEXT)[1], weights(NEXT2)[0]]
print("rank", rank, "gradients == the receivers' weights:",
      all(np.allclose(g.asnumpy(), w) for g, w in zip(grads, ref)))


# Training through the exchange: y = exchange(x * w) summed with weights; SGD on w, 3 steps.
class Train(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
        self.exchange = ops.NeighborExchange(send_rank_ids=[NEXT], recv_rank_ids=[PREV], recv_shapes=([2, 2],),
                                             send_shapes=([2, 2],), recv_type=ms.float32)

    def construct(self, x):
        y = self.exchange((x * self.w,))[0]
        return (y * y).sum()


ms.set_context(mode=ms.GRAPH_MODE)
net = Train()
step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), learning_rate=0.002))
x = Tensor(near(rank))
losses = [float(step(x).asnumpy()) for _ in range(3)]
# numpy: rank r's loss is sum((x_{r-1} * w_{r-1})^2); d/dw_r comes from rank r + 1's loss
w = {r: np.ones((2, 2), np.float64) for r in range(N)}
ref_losses = []
for _ in range(3):
    ref_losses.append(float(((near(PREV) * w[PREV]) ** 2).sum()))
    w = {r: w[r] - 0.002 * 2 * (near(r) * w[r]) * near(r) for r in range(N)}
print("rank", rank, "losses", [round(v, 4) for v in losses], "== numpy's:", np.allclose(losses, ref_losses, rtol=1e-5),
      "weights == numpy's:", np.allclose(net.w.asnumpy(), w[rank], rtol=1e-5))
ms.set_context(mode=ms.PYNATIVE_MODE)

# Empty sides: rank 0 only sends (to 1), rank 1 only receives (from 0); the others take part in neither.
if rank == 0:
    out = ops.NeighborExchange(send_rank_ids=[1], recv_rank_ids=[], recv_shapes=(), send_shapes=([2],),
                               recv_type=ms.float32)((Tensor(np.array([7, 8], np.float32)),))
    print("rank", rank, "send only returns", out)
elif rank == 1:
    out = ops.NeighborExchange(send_rank_ids=[], recv_rank_ids=[0], recv_shapes=([2],), send_shapes=(),
                               recv_type=ms.float32)()
    print("rank", rank, "receive only:", out[0].asnumpy().tolist())


# The tutorial's example (its ranks 0 and 1; here ranks 2 and 3 pair up the same way), by RANK_ID: the
# even rank sends ones [3, 3] and receives [2, 2], the odd one sends twos [2, 2] and receives [3, 3].
class Swap(nn.Cell):
    def __init__(self, peer, send, recv):
        super().__init__()
        self.swap = ops.NeighborExchange(send_rank_ids=[peer], recv_rank_ids=[peer], recv_shapes=(recv,),
                                         send_shapes=(send,), recv_type=ms.float32)

    def construct(self, x):
        return self.swap((x,))[0]


ms.set_context(mode=ms.GRAPH_MODE)
rank_id = int(os.getenv("RANK_ID"))
if rank_id % 2 == 0:
    output = Swap(rank_id + 1, [3, 3], [2, 2])(Tensor(np.ones([3, 3]), dtype=ms.float32))
else:
    output = Swap(rank_id - 1, [2, 2], [3, 3])(Tensor(np.ones([2, 2]) * 2, dtype=ms.float32))
print("rank", rank, "tutorial example:")
print(output)
