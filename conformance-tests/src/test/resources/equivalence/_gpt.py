"""A GPT-style network for pipeline/tensor/optimizer-parallel plans (used by dry_run_gpt_r1 and by
bench/dryrun/gpt.py): token embedding (Gather), blocks of LayerNorm, attention (QKV MatMul,
BatchMatMul, Softmax, projection) and a GeLU MLP (4x hidden) with residual connections, a final
LayerNorm, the output head and sparse softmax cross-entropy. Megatron strategies (QKV/FC1 by
columns, projection/FC2 by rows, attention by heads) on dp x mp; with pp stages the blocks are
split evenly, the embedding on the first stage, the head on the last; Adam."""
import mindspore as ms
from mindspore import nn, ops, Parameter
from mindspore.common.initializer import Normal, initializer
from mindspore.parallel.nn import Pipeline


def build(layers, hidden, seq, vocab, dp, mp, pp, micro, heads, batch):
    """``(train step, tokens, labels, net)`` for a global batch of ``batch`` sequences."""
    H, S, V = hidden, seq, vocab
    b = batch // micro if pp > 1 else batch

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ln1 = nn.LayerNorm((H,))
            self.ln2 = nn.LayerNorm((H,))
            self.qkv = Parameter(initializer(Normal(0.02), [H, 3 * H]), name="qkv")
            self.proj = Parameter(initializer(Normal(0.02), [H, H]), name="proj")
            self.fc1 = Parameter(initializer(Normal(0.02), [H, 4 * H]), name="fc1")
            self.fc2 = Parameter(initializer(Normal(0.02), [4 * H, H]), name="fc2")
            self.mm_qkv = ops.MatMul().shard(((dp, 1), (1, mp)))
            self.mm_proj = ops.MatMul().shard(((dp, mp), (mp, 1)))
            self.mm_fc1 = ops.MatMul().shard(((dp, 1), (1, mp)))
            self.mm_fc2 = ops.MatMul().shard(((dp, mp), (mp, 1)))
            self.gelu = ops.GeLU().shard(((dp, mp),))
            self.scores = ops.BatchMatMul(transpose_b=True).shard(((dp, mp, 1, 1), (dp, mp, 1, 1)))
            self.ctx = ops.BatchMatMul().shard(((dp, mp, 1, 1), (dp, mp, 1, 1)))
            self.softmax = ops.Softmax().shard(((dp, mp, 1, 1),))

        def construct(self, x):  # x [b*S, H]
            h = self.ln1(x)
            q, k, v = ops.split(self.mm_qkv(h, self.qkv), H, axis=1)

            def split_heads(t):
                return ops.transpose(ops.reshape(t, (b, S, heads, H // heads)), (0, 2, 1, 3))
            a = self.softmax(self.scores(split_heads(q), split_heads(k)) * (1.0 / (H // heads) ** 0.5))
            c = ops.reshape(ops.transpose(self.ctx(a, split_heads(v)), (0, 2, 1, 3)), (b * S, H))
            x = x + self.mm_proj(c, self.proj)
            return x + self.mm_fc2(self.gelu(self.mm_fc1(self.ln2(x), self.fc1)), self.fc2)

    class Embedding(nn.Cell):
        def __init__(self):
            super().__init__()
            self.emb = Parameter(initializer(Normal(0.02), [V, H]), name="emb")
            self.gather = ops.Gather().shard(((1, 1), (dp,)))

        def construct(self, tokens):
            return self.gather(self.emb, ops.reshape(tokens, (b * S,)), 0)

    class Head(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ln_f = nn.LayerNorm((H,))
            self.head = Parameter(initializer(Normal(0.02), [H, V]), name="head")
            self.mm_head = ops.MatMul().shard(((dp, 1), (1, mp)))
            self.loss = ops.SparseSoftmaxCrossEntropyWithLogits()

        def construct(self, x, labels):
            return self.loss(self.mm_head(self.ln_f(x), self.head), ops.reshape(labels, (b * S,)))

    class Gpt(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embedding = Embedding()
            self.blocks = nn.CellList([Block() for _ in range(layers)])
            self.out = Head()
            per = layers // pp
            self.embedding.pipeline_stage = 0
            for i, block in enumerate(self.blocks):
                block.pipeline_stage = min(i // per, pp - 1)
            self.out.pipeline_stage = pp - 1

        def construct(self, tokens, labels):
            x = self.embedding(tokens)
            for blk in self.blocks:
                x = blk(x)
            return self.out(x, labels)

    net = Gpt()
    wrapped = Pipeline(net, micro) if pp > 1 else net
    step = nn.TrainOneStepCell(wrapped, nn.Adam(net.trainable_params(), 1e-4))
    step.set_train()
    tokens = ops.zeros((batch, S), ms.int32)
    labels = ops.ones((batch, S), ms.int32)
    return step, tokens, labels, net


def stage_weight_bytes(layers, hidden, vocab, dp, mp, pp, stage, threshold=64 * 1024):
    """The closed form of the bytes of weights a rank of ``stage`` stores with optimizer parallel
    (MindSpore's rule: a slice of at least ``threshold`` bytes whose first dimension the replicas
    divide is stored as 1/replicas of it; LayerNorm's vectors are below the threshold here)."""
    H, V = hidden, vocab

    def stored(rows, cols, replicas):
        size = 4 * rows * cols
        return size // replicas if size >= threshold and rows % replicas == 0 else size

    block = (stored(H, 3 * H // mp, dp) + stored(H // mp, H, dp) + stored(H, 4 * H // mp, dp)
             + stored(4 * H // mp, H, dp) + 2 * 2 * 4 * H)
    total = (layers // pp) * block
    if stage == 0:
        total += stored(V, H, dp * mp)
    if stage == pp - 1:
        total += stored(H, V // mp, dp) + 2 * 4 * H
    return total
