# ranks: 8
# MindSpore's inference attention on 8 ranks (semi_auto_parallel, dp 2 x sp 2 x mp 2), sharded as its
# PromptFlashAttentionInfo, FusedInferAttentionScoreInfo and IncreFlashAttentionInfo do: batch over dp,
# the query's sequence over sp (each rank's band and right-down causal masks stay the whole sequence's),
# heads over mp; key/value sequences whole. PromptFlashAttention in BSH with a (B, 1, S, S) mask and a
# pre/next band, per-batch query and key lengths and a (B, N, S, S) pse_shift (whole along heads and
# rows: each rank reads its part); PromptFlashAttention in BNSD with grouped key/value heads, the
# right-down causal mode aligned at each batch's lengths; FusedInferAttentionScore in BSND (left-up
# causal) and on one new token per sequence (BSH, a (B, KV_S) mask, key lengths; once more with the
# key/value sequence split over sp, which runs gathered), all with softmax_lse; IncreFlashAttention
# with one length list kept whole (strategy (1,)); PagedAttention over a block-wise cache (batch and
# heads split, the cache's blocks whole, context_lens whole). Every output (reduced against a fixed
# target) must equal the stand-alone run.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor
from mindspore.communication import init, get_rank
from mindspore.ops import operations as P
from mindspore.ops.operations.nn_ops import PromptFlashAttention, IncreFlashAttention
from mindspore.ops.auto_generate import FusedInferAttentionScore, PagedAttention
from _equiv import losses_match

ms.set_context(mode=ms.GRAPH_MODE)
init()
B, S, E, N, D = 4, 8, 8, 4, 2
H = N * D


def table(shape, k, scale=8.0):
    size = int(np.prod(shape))
    return np.array([((i * 7 + k * 3) % 11 - 5) / scale for i in range(size)], np.float32).reshape(shape)


def weight(rows, cols, k):
    return Parameter(Tensor(table((rows, cols), k)), name=f"w{k}")


class Net(nn.Cell):
    def __init__(self, dp, sp, mp):
        super().__init__()
        self.wq, self.wk, self.wv = weight(E, H, 1), weight(E, H, 2), weight(E, H, 3)
        self.wk2, self.wv2 = weight(E, 2 * D, 4), weight(E, 2 * D, 5)
        self.proj = P.MatMul().shard(((dp, 1), (1, mp)))
        self.cast = P.Cast()
        self.reshape = P.Reshape()
        self.transpose = P.Transpose().shard(((dp, 1, mp, 1),))
        self.mask = Tensor(np.array([[[[(b + i + 2 * j) % 7 == 0 for j in range(S)] for i in range(S)]]
                                     for b in range(B)], np.uint8))
        self.pse = Tensor(table((B, N, S, S), 6, 4.0).astype(np.float16))
        self.lens, self.kv_lens = Tensor(np.array([8, 6, 7, 5], np.int64)), Tensor(np.array([8, 8, 6, 7], np.int64))
        self.pfa = PromptFlashAttention(N, scale_value=0.5, pre_tokens=5, next_tokens=1, input_layout="BSH")
        self.pfa.shard(((dp, sp, mp), (dp, 1, mp), (dp, 1, mp), (dp, 1, sp, 1), (dp,), (dp,), (dp, 1, 1, 1)))
        self.compressed = Tensor(np.triu(np.ones((2048, 2048), np.bool_), 1))
        self.gqa = PromptFlashAttention(N, scale_value=0.4, input_layout="BNSD", num_key_value_heads=2,
                                        sparse_mode=3)
        self.gqa.shard(((dp, mp, sp, 1), (dp, mp, 1, 1), (dp, mp, 1, 1), (1, 1), (dp,), (dp,)))
        self.fia = FusedInferAttentionScore(N, scale_value=0.3, input_layout="BSND", sparse_mode=2,
                                            softmax_lse_flag=True)
        self.fia.shard(((dp, sp, mp, 1), ((dp, 1, mp, 1),), ((dp, 1, mp, 1),), (1, sp, 1)))
        self.compressed3 = Tensor(np.triu(np.ones((1, 2048, 2048), np.bool_), 1))
        self.step = FusedInferAttentionScore(N, scale_value=0.6, input_layout="BSH", softmax_lse_flag=True)
        self.step.shard(((dp, 1, mp), ((dp, 1, mp),), ((dp, 1, mp),), (dp, 1), (dp,)))
        self.step_sp = FusedInferAttentionScore(N, scale_value=0.6, input_layout="BSH", softmax_lse_flag=True)
        self.step_sp.shard(((dp, 1, mp), ((dp, sp, mp),), ((dp, sp, mp),), (dp, sp), (dp,)))
        self.step_mask = Tensor(np.array([[(b * 3 + j) % 5 == 0 for j in range(S)] for b in range(B)], np.bool_))
        self.ifa = IncreFlashAttention(N, input_layout="BNSD", scale_value=0.5)
        self.ifa.shard(((dp, mp, 1, 1), (dp, mp, 1, 1), (dp, mp, 1, 1), (dp, 1, 1, 1), (1,)))
        # A paged cache: 6 blocks of 4 slots, 2 key/value heads; one query token per batch row.
        self.key_cache = Parameter(Tensor(table((6, 4, 2, D), 9).astype(np.float16)), name="key_cache")
        self.value_cache = Parameter(Tensor(table((6, 4, 2, D), 10).astype(np.float16)), name="value_cache")
        self.tables = Tensor(np.array([[5, 0, 2], [1, 3, 4], [2, 2, 2], [4, 1, 0]], np.int32))
        self.context = Tensor(np.array([9, 4, 12, 7], np.int32))
        self.paged = PagedAttention(N, 0.5, 2)
        self.paged.shard(((dp, 1, mp), (1, 1, mp, 1), (1, 1, mp, 1), (dp, 1), (1,)))
        self.mean = ops.ReduceMean()

    def half(self, x, w, shape):
        return self.cast(self.reshape(self.proj(x, w), shape), ms.float16)

    def score(self, out, k):
        out = self.cast(out, ms.float32)
        return self.mean(out * Tensor(table(out.shape, k)))

    def construct(self, x, x1):
        flat = self.reshape(x, (B * S, E))
        q, k, v = (self.half(flat, w, (B, S, H)) for w in (self.wq, self.wk, self.wv))
        a = self.pfa(q, k, v, self.mask, self.lens, self.kv_lens, self.pse)
        q4 = self.transpose(self.reshape(q, (B, S, N, D)), (0, 2, 1, 3))
        k2 = self.transpose(self.half(flat, self.wk2, (B, S, 2, D)), (0, 2, 1, 3))
        v2 = self.transpose(self.half(flat, self.wv2, (B, S, 2, D)), (0, 2, 1, 3))
        g = self.gqa(q4, k2, v2, self.compressed, (8, 5, 8, 6), (8, 7, 6, 8))
        f, lse = self.fia(self.reshape(q, (B, S, N, D)), [self.reshape(k, (B, S, N, D))],
                          [self.reshape(v, (B, S, N, D))], None, self.compressed3)
        q1 = self.half(self.reshape(x1, (B, E)), self.wq, (B, 1, H))
        s1, lse1 = self.step(q1, [k], [v], None, self.step_mask, None, (8, 5, 6, 7))
        s2, lse2 = self.step_sp(q1 * 0.5, [k], [v], None, self.step_mask, None, (7, 8, 4, 6))
        q14 = self.reshape(q1, (B, N, 1, D))
        k4 = self.transpose(self.reshape(k, (B, S, N, D)), (0, 2, 1, 3))
        v4 = self.transpose(self.reshape(v, (B, S, N, D)), (0, 2, 1, 3))
        i = self.ifa(q14, [k4], [v4], self.reshape(self.step_mask, (B, 1, 1, S)), self.kv_lens)
        p = self.paged(q1, self.key_cache, self.value_cache, self.tables, self.context)
        return (self.score(p, 7), self.score(a, 1), self.score(g, 2), self.score(f, 3), self.mean(lse), self.score(s1, 4),
                self.mean(lse1), self.score(s2, 6), self.mean(lse2), self.score(i, 5))


def run(dp, sp, mp):
    net = Net(dp, sp, mp)
    x = Tensor(table((B, S, E), 7, 4.0))
    x1 = Tensor(table((B, 1, E), 8, 4.0))
    return [t.item() for t in net(x, x1)]


NAMES = ("PagedAttention", "PromptFlashAttention BSH", "PromptFlashAttention BNSD GQA", "FusedInferAttentionScore BSND",
         "its softmax_lse", "FusedInferAttentionScore one row", "its softmax_lse",
         "FusedInferAttentionScore one row, key/value sequence split", "its softmax_lse", "IncreFlashAttention")
ms.set_auto_parallel_context(parallel_mode="stand_alone")
ref = run(1, 1, 1)
ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy="full_batch")
got = run(2, 2, 2)
rank = get_rank()
for name, a, b in zip(NAMES, got, ref):
    print("rank", rank, name, "== stand-alone within 1e-5 relative:", losses_match([a], [b]), "nonzero:", b != 0)
