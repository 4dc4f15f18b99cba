# FlashAttentionScore (MindSpore's fused attention; its kernel is Atlas A2 only, so the reference here
# is our own numpy formula of MindSpore's documented math: scale * (q k^T + real_shift), masked
# positions excluded, softmax, dropout bits / keep_prob, @ v). Every layout (BSH, SBH, BNSD, BSND,
# TND packed sequences), grouped and single key/value heads, a value head size of its own, real_shift
# broadcast over the batch, explicit masks and sparse modes 0 (pre/next band), 2, 3, 4 with S1 != S2;
# float16; gradients in GRAPH_MODE against finite differences of the formula; DropoutGenMask's bits
# (least significant first) through drop_mask; ops.flash_attention_score; MindSpore's errors; and a
# construct reading `self.keep_prob < 1.0` of a Tensor attribute in GRAPH_MODE (a folded constant).
# A query row whose every position is excluded gives zeros (the kernel's value is not documented).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.ops import operations as P
from mindspore.ops.operations.nn_ops import FlashAttentionScore

rng = np.random.default_rng(7)


def to_bnsd(x, layout, heads):
    if layout in ("BSH", "SBH"):
        if layout == "SBH":
            x = x.transpose(1, 0, 2)
        b, s, h = x.shape
        return x.reshape(b, s, heads, h // heads).transpose(0, 2, 1, 3)
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    return x


def from_bnsd(o, layout):
    if layout in ("BSH", "SBH"):
        b, n, s, d = o.shape
        o = o.transpose(0, 2, 1, 3).reshape(b, s, n * d)
        return o.transpose(1, 0, 2) if layout == "SBH" else o
    if layout == "BSND":
        return o.transpose(0, 2, 1, 3)
    return o


def band(s1, s2, mode, pre, nxt):
    i = np.arange(s1)[:, None]
    j = np.arange(s2)[None, :]
    if mode == 0:
        return (j > i + nxt) | (j < i - pre)
    if mode == 2:
        return j > i
    if mode == 3:
        return j > i + s2 - s1
    if mode == 4:
        return (j > i + s2 - s1 + nxt) | (j < i + s2 - s1 - pre)
    return np.zeros((s1, s2), bool)


def attention(q, k, v, n1, n2, pse=None, mask=None, keep=None, keep_prob=1.0, scale=1.0, mode=0, pre=2147483647,
              nxt=2147483647):
    """q, k, v in BNSD (float64); mask broadcastable to (B, N1, S1, S2), 1 = excluded."""
    k = np.repeat(k, n1 // n2, axis=1)
    v = np.repeat(v, n1 // n2, axis=1)
    s = q @ k.transpose(0, 1, 3, 2)
    if pse is not None:
        s = s + pse
    s = s * scale
    excluded = band(s.shape[2], s.shape[3], mode, pre, nxt)
    if mask is not None and mode <= 1:
        excluded = excluded | (mask != 0)
    s = np.where(excluded, -np.inf, s)
    top = s.max(-1, keepdims=True)
    p = np.exp(s - np.where(np.isinf(top), 0, top))
    total = p.sum(-1, keepdims=True)
    p = p / np.where(total == 0, 1, total)  # a row with every position excluded gives zeros
    if keep is not None:
        p = p * keep / keep_prob
    return p @ v


def shapes(layout, b, n, s, d):
    return {"BSH": (b, s, n * d), "SBH": (s, b, n * d), "BNSD": (b, n, s, d), "BSND": (b, s, n, d)}[layout]


def check_layout(layout, n1, n2, mode, with_pse, with_mask, pre=2147483647, nxt=2147483647):
    b, s1, s2, d, dv = 2, 5, 7, 4, 3
    q = rng.standard_normal(shapes(layout, b, n1, s1, d)).astype(np.float32)
    k = rng.standard_normal(shapes(layout, b, n2, s2, d)).astype(np.float32)
    v = rng.standard_normal(shapes(layout, b, n2, s2, dv)).astype(np.float32)
    pse = rng.standard_normal((1, n1, s1, s2)).astype(np.float32) if with_pse else None
    mask = (rng.random((b, 1, s1, s2)) < 0.3).astype(np.uint8) if with_mask else None
    if mode >= 2:
        mask = np.triu(np.ones((2048, 2048), np.uint8), 1)
    op = FlashAttentionScore(n1, scale_value=0.5, input_layout=layout, sparse_mode=mode, pre_tokens=pre,
                             next_tokens=nxt)
    outs = op(Tensor(q), Tensor(k), Tensor(v), None if pse is None else Tensor(pse), None, None,
              None if mask is None else Tensor(mask))
    want = from_bnsd(attention(to_bnsd(q, layout, n1).astype(np.float64), to_bnsd(k, layout, n2).astype(np.float64),
                               to_bnsd(v, layout, n2).astype(np.float64), n1, n2, pse, mask, scale=0.5, mode=mode,
                               pre=pre, nxt=nxt), layout)
    diff = np.abs(outs[3].asnumpy() - want).max()
    print(layout, "heads", n1, "/", n2, "mode", mode, "pse", with_pse, "mask", with_mask,
          "shapes", [o.shape for o in outs], "types", [str(o.dtype) for o in outs],
          "== formula within 1e-5:", bool(diff < 1e-5))


check_layout("BSH", 4, 4, 0, True, True)
check_layout("BSH", 4, 1, 0, False, True, pre=2, nxt=1)
check_layout("SBH", 4, 2, 3, True, False)
check_layout("BNSD", 4, 2, 2, False, False)
check_layout("BSND", 2, 2, 4, True, False, pre=3, nxt=0)
check_layout("BNSD", 4, 4, 1, True, True)

# TND: three packed sequences of lengths 2, 3, 1 (queries) over 3, 3, 2 keys, right-down causal each.
tq = rng.standard_normal((6, 2, 4)).astype(np.float32)
tk = rng.standard_normal((8, 2, 4)).astype(np.float32)
tv = rng.standard_normal((8, 2, 4)).astype(np.float32)
out = FlashAttentionScore(2, scale_value=0.5, input_layout="TND", sparse_mode=3)(
    Tensor(tq), Tensor(tk), Tensor(tv), None, None, None, Tensor(np.triu(np.ones((2048, 2048), np.uint8), 1)),
    None, (2, 5, 6), (3, 6, 8))
want = np.zeros((6, 2, 4))
for (q0, q1), (k0, k1) in zip([(0, 2), (2, 5), (5, 6)], [(0, 3), (3, 6), (6, 8)]):
    sq = tq[q0:q1].transpose(1, 0, 2)[None].astype(np.float64)
    sk = tk[k0:k1].transpose(1, 0, 2)[None].astype(np.float64)
    sv = tv[k0:k1].transpose(1, 0, 2)[None].astype(np.float64)
    want[q0:q1] = attention(sq, sk, sv, 2, 2, scale=0.5, mode=3)[0].transpose(1, 0, 2)
print("TND shapes", [o.shape for o in out], "== formula within 1e-5:", bool(np.abs(out[3].asnumpy() - want).max() < 1e-5))

# float16 in, float16 out (softmax statistics float32)
q16 = rng.standard_normal((2, 4, 8)).astype(np.float16)
out16 = FlashAttentionScore(2, input_layout="BSH")(Tensor(q16), Tensor(q16), Tensor(q16))
ref16 = from_bnsd(attention(*(to_bnsd(q16.astype(np.float64), "BSH", 2),) * 3, 2, 2), "BSH")
print("float16", [str(o.dtype) for o in out16], "== formula within 2e-3:",
      bool(np.abs(out16[3].asnumpy().astype(np.float64) - ref16).max() < 2e-3))
print("functional", ops.flash_attention_score(Tensor(q16), Tensor(q16), Tensor(q16), 2).shape,
      "exported as ops.FlashAttentionScore and ops.DropoutGenMask:",
      ops.FlashAttentionScore is FlashAttentionScore and ops.DropoutGenMask is P.DropoutGenMask)

# Dropout: DropoutGenMask's bits, least significant first, keep an element where set.
ms.set_context(mode=ms.GRAPH_MODE)
bits = P.DropoutGenMask(Seed0=3)((2, 2, 16, 16), Tensor(0.75, ms.float32))
unpacked = np.unpackbits(bits.asnumpy(), bitorder="little")[:2 * 2 * 16 * 16].reshape(2, 2, 16, 16)
print("DropoutGenMask", bits.shape, bits.dtype, "kept fraction near 0.75:", bool(abs(unpacked.mean() - 0.75) < 0.05))
dq = rng.standard_normal((2, 16, 8)).astype(np.float32)
dropped = FlashAttentionScore(2, keep_prob=0.75, input_layout="BSH")(
    Tensor(dq), Tensor(dq), Tensor(dq), None, bits.reshape((2, 2, 16, 2)))[3]
want = from_bnsd(attention(*(to_bnsd(dq.astype(np.float64), "BSH", 2),) * 3, 2, 2, keep=unpacked, keep_prob=0.75),
                 "BSH")
print("drop_mask == formula within 1e-5:", bool(np.abs(dropped.asnumpy() - want).max() < 1e-5))


# Gradients (GRAPH_MODE) against central differences of the formula.
class Loss(nn.Cell):
    def __init__(self, weight):
        super().__init__()
        self.fa = FlashAttentionScore(4, scale_value=0.7, input_layout="BNSD", sparse_mode=3)
        self.weight = Tensor(weight)

    def construct(self, q, k, v, pse):
        return (self.fa(q, k, v, pse)[3] * self.weight).sum()


gq = rng.standard_normal((1, 4, 3, 2))
gk = rng.standard_normal((1, 2, 5, 2))
gv = rng.standard_normal((1, 2, 5, 3))
gp = rng.standard_normal((1, 4, 3, 5))
weight = rng.standard_normal((1, 4, 3, 3)).astype(np.float32)
grads = ops.GradOperation(get_all=True)(Loss(weight))(*(Tensor(x.astype(np.float32)) for x in (gq, gk, gv, gp)))


def loss(args):
    return (attention(args[0], args[1], args[2], 4, 2, pse=args[3], scale=0.7, mode=3) * weight).sum()


ok = []
for which, g in enumerate(grads):
    args = [gq, gk, gv, gp]
    num = np.zeros(args[which].shape)
    for idx in np.ndindex(*num.shape):
        up = [a.copy() for a in args]
        down = [a.copy() for a in args]
        up[which][idx] += 1e-6
        down[which][idx] -= 1e-6
        num[idx] = (loss(up) - loss(down)) / 2e-6
    ok.append(bool(np.abs(g.asnumpy() - num).max() < 1e-4))
print("gradients of query, key, value, real_shift == finite differences within 1e-4:", ok)


class Gated(nn.Cell):
    """MindSpore's tests write `if self.keep_prob < 1.0` on a Tensor attribute inside construct."""

    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = Tensor(keep_prob, ms.float16)

    def construct(self, x):
        if self.keep_prob < 1.0:
            return x * 2
        return x


print("constant condition in GRAPH_MODE:", Gated(0.9)(Tensor([1.0])), Gated(1.0)(Tensor([1.0])))

ms.set_context(mode=ms.PYNATIVE_MODE)
x = Tensor(np.ones((2, 4, 8), np.float32))
for name, call in (
        ("head_num", lambda: FlashAttentionScore(3)(x, x, x)),
        ("drop_mask at keep_prob 1", lambda: FlashAttentionScore(2)(x, x, x, None, Tensor(np.ones((2, 2, 4, 1), np.uint8)))),
        ("padding_mask", lambda: FlashAttentionScore(2)(x, x, x, None, None, x)),
        ("mask shape", lambda: FlashAttentionScore(2, sparse_mode=2)(x, x, x, None, None, None, Tensor(np.ones((4, 4), np.uint8)))),
        ("layout", lambda: FlashAttentionScore(2, input_layout="BHS")),
        ("key heads", lambda: FlashAttentionScore(4)(Tensor(np.ones((2, 4, 8), np.float32)), Tensor(np.ones((2, 4, 6), np.float32)),
                                                     Tensor(np.ones((2, 4, 6), np.float32)))),
        ("sparse_mode 6", lambda: FlashAttentionScore(2, sparse_mode=6)(x, x, x, None, None, None, Tensor(np.ones((2048, 2048), np.uint8)))),
        ("type", lambda: FlashAttentionScore(2)(x.astype(ms.int32), x, x))):
    try:
        call()
        print(name, "no error")
    except (ValueError, TypeError, RuntimeError, NotImplementedError) as e:
        print(name, type(e).__name__, str(e).splitlines()[0])
