# ranks: 4
# NeighborExchangeV2 (ops.operations.comm_ops) as a user calls it: 4 ranks in a 2 x 2 grid of an NCHW
# image, each exchanging one row/column with every neighbour (sides and corners), MindSpore's
# direction order (top, top-right, right, bottom-right, bottom, bottom-left, left, top-left); the
# output is the input framed by what it receives, on the sides that have a neighbour only. Checked
# against the frame numpy builds from every rank's input, in PYNATIVE and GRAPH mode, and the
# gradient (the received blocks' gradients go back to their senders) against numpy's adjoint. Then
# the docs' 2-rank example (ranks 0 and 1 swap one row).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.communication import init, get_rank
from mindspore.ops.operations.comm_ops import NeighborExchangeV2

init()
rank = get_rank()
H, W = 3, 4
ROW, COL = rank // 2, rank % 2
STEPS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def neighbour(r, step):
    i, j = r // 2 + step[0], r % 2 + step[1]
    return i * 2 + j if 0 <= i < 2 and 0 <= j < 2 else -1


def image(r):
    return (np.arange(H * W, dtype=np.float32).reshape(1, 1, H, W) + 100 * r)


def frame(r):
    """What rank r's exchange returns, from every rank's image."""
    ids = [neighbour(r, s) for s in STEPS]
    top, bottom, left, right = (ids[d] != -1 for d in (0, 4, 6, 2))
    out = np.zeros((1, 1, H + top + bottom, W + left + right), np.float32)
    out[:, :, top:top + H, left:left + W] = image(r)
    for d, src in enumerate(ids):
        if src == -1:
            continue
        di, dj = STEPS[d]
        block = image(src)
        rows = slice(H - 1, H) if di < 0 else slice(0, 1) if di > 0 else slice(0, H)
        cols = slice(W - 1, W) if dj < 0 else slice(0, 1) if dj > 0 else slice(0, W)
        at_r = slice(0, 1) if di < 0 else slice(top + H, top + H + 1) if di > 0 else slice(top, top + H)
        at_c = slice(0, 1) if dj < 0 else slice(left + W, left + W + 1) if dj > 0 else slice(left, left + W)
        out[:, :, at_r, at_c] = block[:, :, rows, cols]
    return out


ids = [neighbour(rank, s) for s in STEPS]
exchange = NeighborExchangeV2(send_rank_ids=ids, send_lens=[1, 1, 1, 1], recv_rank_ids=ids, recv_lens=[1, 1, 1, 1],
                              data_format="NCHW")


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.exchange = exchange

    def construct(self, x):
        return self.exchange(x)


want = frame(rank)
for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
    ms.set_context(mode=mode)
    got = Net()(Tensor(image(rank))).asnumpy()
    print("rank", rank, "PYNATIVE" if mode == ms.PYNATIVE_MODE else "GRAPH", "output", got.shape,
          "== the frame of the neighbours' blocks:", np.array_equal(got, want))
ms.set_context(mode=ms.PYNATIVE_MODE)

# Gradient of sum(out * weight_r) on every rank r: this rank's own weights over its centre plus, for
# each neighbour it sent a block to, that neighbour's weights where the block landed there.
def weight(r):
    return np.arange(frame(r).size, dtype=np.float32).reshape(frame(r).shape) / 10 + r


grad = ops.GradOperation()(lambda x: (Net()(x) * Tensor(weight(rank))).sum())(Tensor(image(rank))).asnumpy()
ref = np.zeros((1, 1, H, W), np.float64)
for r in range(4):
    w = weight(r)
    ids_r = [neighbour(r, s) for s in STEPS]
    top, bottom, left, right = (ids_r[d] != -1 for d in (0, 4, 6, 2))
    if r == rank:
        ref[:, :, :, :] += w[:, :, top:top + H, left:left + W]
    for d, src in enumerate(ids_r):
        if src != rank:
            continue
        di, dj = STEPS[d]
        rows = slice(H - 1, H) if di < 0 else slice(0, 1) if di > 0 else slice(0, H)
        cols = slice(W - 1, W) if dj < 0 else slice(0, 1) if dj > 0 else slice(0, W)
        at_r = slice(0, 1) if di < 0 else slice(top + H, top + H + 1) if di > 0 else slice(top, top + H)
        at_c = slice(0, 1) if dj < 0 else slice(left + W, left + W + 1) if dj > 0 else slice(left, left + W)
        ref[:, :, rows, cols] += w[:, :, at_r, at_c]
print("rank", rank, "gradient == the adjoint (received blocks' gradients back to their senders):",
      np.allclose(grad, ref, atol=1e-5))

# The docs' example: rank 0 sends its last row to rank 1 and gets rank 1's first; rank 1 the reverse.
if rank < 2:
    if rank == 0:
        op = NeighborExchangeV2(send_rank_ids=[-1, -1, -1, -1, 1, -1, -1, -1], send_lens=[0, 1, 0, 0],
                                recv_rank_ids=[-1, -1, -1, -1, 1, -1, -1, -1], recv_lens=[0, 1, 0, 0],
                                data_format="NCHW")
        x = np.ones([1, 1, 2, 2], np.float32)
    else:
        op = NeighborExchangeV2(send_rank_ids=[0, -1, -1, -1, -1, -1, -1, -1], send_lens=[1, 0, 0, 0],
                                recv_rank_ids=[0, -1, -1, -1, -1, -1, -1, -1], recv_lens=[1, 0, 0, 0],
                                data_format="NCHW")
        x = np.ones([1, 1, 2, 2], np.float32) * 2
    print("rank", rank, "docs example:", op(Tensor(x)).asnumpy().tolist())
