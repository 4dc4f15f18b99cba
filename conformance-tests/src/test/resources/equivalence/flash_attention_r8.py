# ranks: 8
# FlashAttentionScore trained on 8 ranks (semi_auto_parallel, dp 2 x sp 2 x mp 2), as MindSpore's
# FlashAttentionScoreInfo shards it: batch over dp, the query's sequence over sp (sequence parallel:
# each rank's causal/band mask stays the whole sequence's), heads over mp; key and value keep their
# sequence whole. Three attention calls on projections of one input: a left-up causal one (sparse_mode
# 2, the compressed 2048x2048 mask) with a real_shift, grouped key/value heads (4 query heads over 2)
# in BNSD; a BSH one with dropout bits from DropoutGenMask (keep_prob 0.75, behind MindSpore's
# `if self.keep_prob < 1.0` on a Tensor attribute, a constant the compile folds) and an explicit
# (B, 1, S, S) mask with a pre/next band; an SBH one with one key/value head (MQA: its head dim
# whole). Losses, the projection weights' slices and the real_shift's slice must equal the stand-alone run.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from mindspore.ops import operations as P
from mindspore.ops.operations.nn_ops import FlashAttentionScore
from _equiv import losses_match, rank_slice, slice_matches

ms.set_context(mode=ms.GRAPH_MODE)
init()
B, S, E, N, D = 4, 8, 8, 4, 2


def weight(rows, cols, k):
    return Parameter(Tensor(np.array([[((i * 7 + j * 3 + k) % 11 - 5) / 8.0 for j in range(cols)]
                                      for i in range(rows)], np.float32)), name=f"w{k}")


class Net(nn.Cell):
    def __init__(self, dp, sp, mp):
        super().__init__()
        self.wq, self.wk, self.wv = weight(E, N * D, 1), weight(E, 2 * D, 2), weight(E, 2 * D, 3)
        self.wk1, self.wv1 = weight(E, D, 4), weight(E, D, 5)
        self.pse = Parameter(Tensor(np.array([[[[((n + i * 3 + j) % 5 - 2) / 4.0 for j in range(S)]
                                                 for i in range(S)] for n in range(N)]], np.float32)), name="pse")
        self.proj = P.MatMul().shard(((dp, 1), (1, mp)))
        self.proj_kv = P.MatMul().shard(((dp, 1), (1, mp)))
        self.proj_one = P.MatMul().shard(((dp * mp, 1), (1, 1)))
        self.reshape = P.Reshape()
        self.transpose = P.Transpose().shard(((dp, 1, mp, 1),))
        self.causal = FlashAttentionScore(N, scale_value=0.5, input_layout="BNSD", sparse_mode=2,
                                          pre_tokens=512, next_tokens=0)
        self.causal.shard(((dp, mp, sp, 1), (dp, mp, 1, 1), (dp, mp, 1, 1), (1, mp, sp, 1), (1, 1)))
        self.keep_prob = Tensor(0.75, ms.float32)
        self.gen_mask = P.DropoutGenMask(Seed0=7)
        self.dropped = FlashAttentionScore(N, keep_prob=0.75, scale_value=0.7, input_layout="BSH",
                                           pre_tokens=3, next_tokens=2)
        self.dropped.shard(((dp, sp, mp), (dp, 1, mp), (dp, 1, mp), (dp, mp, sp, 1), (dp, 1, sp, 1)))
        self.mqa = FlashAttentionScore(N, input_layout="SBH", sparse_mode=3)
        self.mqa.shard(((sp, dp, mp), (1, dp, 1), (1, dp, 1)))
        self.compressed = Tensor(np.triu(np.ones((2048, 2048), np.uint8), 1))
        self.mask = Tensor(np.array([[[[(b + i + 2 * j) % 7 == 0 for j in range(S)] for i in range(S)]]
                                     for b in range(B)], np.uint8))
        self.mean = ops.ReduceMean()

    def heads(self, x, n):
        return self.transpose(self.reshape(x, (B, S, n, D)), (0, 2, 1, 3))

    def construct(self, x, target):
        flat = self.reshape(x, (B * S, E))
        q = self.proj(flat, self.wq)
        k = self.proj_kv(flat, self.wk)
        v = self.proj_kv(flat, self.wv)
        a = self.causal(self.heads(q, N), self.heads(k, 2), self.heads(v, 2), self.pse, None, None,
                        self.compressed)[3]
        a = ops.transpose(a, (0, 2, 1, 3)).reshape((B, S, N * D))
        bits = None
        if self.keep_prob < 1.0:
            bits = self.reshape(self.gen_mask((B, N, S, S), self.keep_prob), (B, N, S, S // 8))
        q3 = self.reshape(q, (B, S, N * D))
        kv = self.reshape(self.proj(flat, self.wq), (B, S, N * D)) * 0.5
        d = self.dropped(q3, kv, kv, None, bits, None, self.mask)[3]
        qs = ops.transpose(q3, (1, 0, 2))
        k1 = ops.transpose(self.reshape(self.proj_one(flat, self.wk1), (B, S, D)), (1, 0, 2))
        v1 = ops.transpose(self.reshape(self.proj_one(flat, self.wv1), (B, S, D)), (1, 0, 2))
        m = ops.transpose(self.mqa(qs, k1, v1)[3], (1, 0, 2))
        out = a + d + m
        return self.mean((out - target) ** 2)


def run(dp, sp, mp):
    net = Net(dp, sp, mp)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    x = Tensor(np.array([[[((b * 5 + s * 3 + e) % 9 - 4) / 4.0 for e in range(E)] for s in range(S)]
                         for b in range(B)], np.float32))
    target = Tensor(np.array([[[((b + s + h) % 4) / 3.0 for h in range(N * D)] for s in range(S)]
                              for b in range(B)], np.float32))
    return [step(x, target).item() for _ in range(5)], net, step


ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref, ref_net, _ = run(1, 1, 1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
losses, net, step = run(2, 2, 2)
rank = get_rank()
print("rank", rank, "steps", len(losses), "losses == stand-alone within 1e-5 relative:", losses_match(losses, ref),
      "loss falls:", losses[-1] < losses[0])
for name in ("wq", "wk", "wv", "wk1", "pse"):
    layout = step.parameter_layout_dict[getattr(net, name).name]
    print("rank", rank, name, "layout", layout[:3], "slice == stand-alone slice:",
          slice_matches(getattr(net, name), rank_slice(getattr(ref_net, name), layout, rank)))
