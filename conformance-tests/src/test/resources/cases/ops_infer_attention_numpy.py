# MindSpore's inference attention: PromptFlashAttention, IncreFlashAttention and
# FusedInferAttentionScore (their kernels are Ascend only, so the reference here is our own numpy
# formula of the documented math: softmax(scale * q k^T + pse_shift) @ v, masked positions excluded;
# per batch, actual_seq_lengths bounds the query rows computed (the others are zeros) and
# actual_seq_lengths_kv the keys; right-down causal modes align at those lengths). BSH, BNSD, BSND and
# BNSD_BSND layouts, grouped key/value heads, bool/uint8/float16 masks with sparse modes 0 (a masked
# call's pre/next band; without a mask the band is ignored, so PromptFlashAttention's default
# next_tokens=0 is not causal), 1, 2, 3, 4; softmax_lse; the incremental branch (one query row per
# sequence) with (B, KV_S) masks; key/value lists; the functional forms; GRAPH_MODE; PagedAttention and
# PagedAttentionMask over a block-wise key/value cache (grouped heads, per-token block tables and
# context lengths); MindSpore's errors.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.ops.operations.nn_ops import PromptFlashAttention, IncreFlashAttention
from mindspore.ops.auto_generate import FusedInferAttentionScore, PagedAttention, PagedAttentionMask

rng = np.random.default_rng(11)
INT_MAX = 2147483647


def f16(*shape):
    return rng.standard_normal(shape).astype(np.float16)


def to_bnsd(x, layout, heads):
    if layout == "BSH":
        b, s, h = x.shape
        return x.reshape(b, s, heads, h // heads).transpose(0, 2, 1, 3)
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    return x


def from_bnsd(o, layout):
    if layout == "BSH":
        b, n, s, d = o.shape
        return o.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    if layout in ("BSND", "BNSD_BSND"):
        return o.transpose(0, 2, 1, 3)
    return o


def formula(q, k, v, scale, mask=None, pse=None, mode=0, pre=INT_MAX, nxt=INT_MAX, ql=None, kl=None):
    """q, k, v in BNSD (float64); the attention and each row's log-sum-exp (+inf where nothing is seen)."""
    b_, n1, s1, _ = q.shape
    group = n1 // k.shape[1]
    out = np.zeros(q.shape[:3] + (v.shape[3],))
    lse = np.full((b_, n1, s1, 1), np.inf)
    for b in range(b_):
        qlb = s1 if ql is None else ql[b]
        klb = k.shape[2] if kl is None else kl[b]
        for n in range(n1):
            for i in range(qlb):
                s = scale * (k[b, n // group, :klb] @ q[b, n, i])
                if pse is not None:
                    s = s + pse[b if pse.shape[0] > 1 else 0, n, i, :klb]
                j = np.arange(klb)
                excluded = np.zeros(klb, bool)
                if mode in (0, 1) and mask is not None:
                    m = mask.reshape((-1,) + mask.shape[-2:])
                    excluded |= m[b if m.shape[0] > 1 else 0, i, :klb] != 0
                    if mode == 0:
                        excluded |= (j > i + nxt) | (j < i - pre)
                if mode == 2:
                    excluded |= j > i
                if mode == 3:
                    excluded |= j > i + klb - qlb
                if mode == 4:
                    excluded |= (j > i + klb - qlb + nxt) | (j < i + klb - qlb - pre)
                if excluded.all():
                    continue
                s = np.where(excluded, -np.inf, s)
                e = np.exp(s - s.max())
                out[b, n, i] = e / e.sum() @ v[b, n // group, :klb]
                lse[b, n, i, 0] = s.max() + np.log(e.sum())
    return out, lse


def close(got, want, tol=2e-3):
    return bool(np.allclose(got.astype(np.float64), want, atol=tol, rtol=tol))


B, N, S, KVS, D = 2, 4, 6, 7, 8
scale = 1 / np.sqrt(D)
compressed = Tensor(np.triu(np.ones((2048, 2048), np.bool_), 1))

# PromptFlashAttention, every layout it takes, grouped heads, masks, modes, lengths, pse_shift.
for layout, kv_heads, mode, mask_kind, lengths, with_pse, pre, nxt in (
        ("BNSD", 0, 0, None, False, False, INT_MAX, 0),
        ("BNSD", 0, 0, "bool", False, False, 2, 1),
        ("BSH", 2, 0, "uint8", True, True, INT_MAX, 0),
        ("BSH", 0, 1, "float16", False, True, INT_MAX, 0),
        ("BNSD", 2, 2, "compressed", True, False, INT_MAX, 0),
        ("BSH", 4, 3, "compressed", True, True, INT_MAX, 0),
        ("BNSD", 1, 4, "compressed", False, False, 2, 1)):
    n2 = kv_heads or N
    q, k, v = f16(B, N, S, D), f16(B, n2, KVS, D), f16(B, n2, KVS, D)
    mask = None
    if mask_kind == "compressed":
        mask = compressed
    elif mask_kind is not None:
        bits = rng.random((B, 1, S, KVS)) < 0.25
        mask = Tensor(bits.astype({"bool": np.bool_, "uint8": np.uint8, "float16": np.float16}[mask_kind]))
    pse = f16(1 if mode == 3 else B, N, S, KVS) if with_pse else None
    ql, kl = ([5, 3], [7, 4]) if lengths else (None, None)
    op = PromptFlashAttention(num_heads=N, scale_value=scale, pre_tokens=pre, next_tokens=nxt,
                              input_layout=layout, num_key_value_heads=kv_heads, sparse_mode=mode)
    args = [Tensor(from_bnsd(x, layout)) for x in (q, k, v)]
    out = op(*args, mask, tuple(ql) if ql else None, Tensor(np.array(kl, np.int64)) if kl else None,
             None if pse is None else Tensor(pse))
    want, _ = formula(*(x.astype(np.float64) for x in (q, k, v)), scale,
                      None if mask is None or mask_kind == "compressed" else mask.asnumpy(),
                      None if pse is None else pse.astype(np.float64), mode, pre, nxt, ql, kl)
    print("PromptFlashAttention", layout, "kv heads", n2, "mode", mode, "mask", mask_kind, "lengths", lengths,
          "pse", with_pse, out.shape, out.dtype, "== formula within 2e-3:",
          close(to_bnsd(out.asnumpy(), layout, N), want))

q, k, v = f16(B, N, S, D), f16(B, N, S, D), f16(B, N, S, D)
plain = PromptFlashAttention(num_heads=N, input_layout="BNSD")(Tensor(q), Tensor(k), Tensor(v)).asnumpy()
causal, _ = formula(*(x.astype(np.float64) for x in (q, k, v)), 1.0, mode=2)
print("no mask: next_tokens=0 ignored (not causal):",
      close(plain, formula(*(x.astype(np.float64) for x in (q, k, v)), 1.0)[0]), "differs from causal:",
      not close(plain, causal))
print("ops.prompt_flash_attention == PromptFlashAttention:",
      np.array_equal(ops.prompt_flash_attention(Tensor(q), Tensor(k), Tensor(v), None, None, None, None, None, None,
                                                None, None, None, N, input_layout='BNSD').asnumpy(), plain))

# FusedInferAttentionScore: the prompt branch with softmax_lse, BSND and BNSD_BSND.
kl = [6, 4]
m = rng.random((B, S, S)) < 0.2
for layout in ("BSND", "BNSD_BSND"):
    fia = FusedInferAttentionScore(num_heads=N, scale_value=scale, input_layout=layout, softmax_lse_flag=True,
                                   pre_tokens=3, next_tokens=1)
    given = [q, k, v] if layout == "BNSD_BSND" else [x.transpose(0, 2, 1, 3) for x in (q, k, v)]
    out, lse = fia(Tensor(given[0]), [Tensor(given[1])], [Tensor(given[2])], None, Tensor(m), None, kl)
    want, wlse = formula(*(x.astype(np.float64) for x in (q, k, v)), scale, m, None, 0, 3, 1, None, kl)
    print("FusedInferAttentionScore", layout, out.shape, lse.shape, lse.dtype, "== formula within 2e-3:",
          close(out.asnumpy(), from_bnsd(want, layout)), "softmax_lse within 1e-5:",
          bool(np.allclose(lse.asnumpy(), wlse, atol=1e-5, equal_nan=True)))

# The incremental branch: one query row per sequence against a key/value cache of its own length.
q1 = f16(B, N, 1, D)
m1 = np.zeros((B, KVS), np.bool_)
m1[0, 2] = m1[1, 0] = True
kl = [7, 5]
k, v = f16(B, N, KVS, D), f16(B, N, KVS, D)
want, wlse = formula(*(x.astype(np.float64) for x in (q1, k, v)), 0.3, m1.reshape(B, 1, KVS), None, 0, INT_MAX,
                     INT_MAX, None, kl)
out, lse = FusedInferAttentionScore(num_heads=N, scale_value=0.3, input_layout="BSH", softmax_lse_flag=True,
                                    sparse_mode=3, pre_tokens=0, next_tokens=0)(
    Tensor(from_bnsd(q1, "BSH")), [Tensor(from_bnsd(k, "BSH"))], [Tensor(from_bnsd(v, "BSH"))], None,
    Tensor(m1), [1, 1], kl)
print("FusedInferAttentionScore one row, (B, KV_S) mask (sparse options and query lengths do not apply):",
      close(to_bnsd(out.asnumpy(), "BSH", N), want), "softmax_lse:",
      bool(np.allclose(lse.asnumpy(), wlse, atol=1e-5)))
out, _ = FusedInferAttentionScore(num_heads=N, scale_value=0.3, input_layout="BNSD")(
    Tensor(q1), [Tensor(k[:1]), Tensor(k[1:])], [Tensor(v[:1]), Tensor(v[1:])], None, Tensor(m1), None, kl)
print("key/value lists joined along the batch:", close(out.asnumpy(), want), "softmax_lse placeholder:",
      _.shape)
ifa = IncreFlashAttention(num_heads=N, input_layout="BNSD", scale_value=0.3)
out = ifa(Tensor(q1), [Tensor(k)], [Tensor(v)], Tensor(m1.reshape(B, 1, 1, KVS)), Tensor(np.array(kl, np.int64)))
print("IncreFlashAttention (B, 1, 1, KV_S) mask, per-sequence lengths:", close(out.asnumpy(), want))
one, _ = formula(*(x.astype(np.float64) for x in (q1, k, v)), 0.3, None, None, 0, INT_MAX, INT_MAX, None, [4, 4])
print("IncreFlashAttention one length for every sequence:",
      close(ifa(Tensor(q1), [Tensor(k)], [Tensor(v)], None, Tensor(np.array([4], np.int64))).asnumpy(), one),
      "ops.incre_flash_attention:",
      close(ops.incre_flash_attention(Tensor(q1), [Tensor(k)], [Tensor(v)], None, [4, 4], num_heads=N,
                                      input_layout="BNSD", scale_value=0.3).asnumpy(), one))
out, lse = ops.fused_infer_attention_score(Tensor(q1), [Tensor(k)], [Tensor(v)], atten_mask=Tensor(m1),
                                           actual_seq_lengths_kv=kl, num_heads=N, scale=0.3, input_layout="BNSD",
                                           softmax_lse_flag=True)
print("ops.fused_infer_attention_score:", close(out.asnumpy(), want), lse.shape)


# PagedAttention: position p of token t is slot p % block_size of block block_tables[t, p // block_size].
T, KVN, BS, NB = 3, 2, 4, 6
qp = f16(T, 1, N * D)
kc, vc = f16(NB, BS, KVN, D), f16(NB, BS, KVN, D)
tables = np.array([[5, 0, 2], [1, 3, 4], [2, 2, 2]], np.int32)
ctx = np.array([9, 4, 12], np.int32)
want = np.zeros((T, N, D))
for t in range(T):
    ks = np.array([kc[tables[t, p // BS], p % BS] for p in range(ctx[t])], np.float64)
    vs = np.array([vc[tables[t, p // BS], p % BS] for p in range(ctx[t])], np.float64)
    for n in range(N):
        s = 0.3 * ks[:, n // (N // KVN)] @ qp[t, 0].reshape(N, D)[n].astype(np.float64)
        e = np.exp(s - s.max())
        want[t, n] = e / e.sum() @ vs[:, n // (N // KVN)]
out = PagedAttention(N, 0.3, KVN)(Tensor(qp), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(ctx))
print("PagedAttention (tokens, 1, hidden), grouped heads", out.shape, out.dtype, "== formula within 2e-3:",
      close(out.asnumpy().reshape(T, N, D), want))
out = PagedAttentionMask(N, 0.3, KVN)(Tensor(qp.reshape(T, N, D)), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(ctx))
print("PagedAttentionMask (tokens, heads, head_dim)", out.shape, "== formula within 2e-3:", close(out.asnumpy(), want))


class Prompt(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pfa = PromptFlashAttention(num_heads=N, scale_value=scale, input_layout="BNSD", sparse_mode=2)
        self.mask = compressed

    def construct(self, q, k, v):
        return self.pfa(q * 2, k, v, self.mask)


eager = Prompt()(Tensor(q), Tensor(k[:, :, :S]), Tensor(v[:, :, :S])).asnumpy()
ms.set_context(mode=ms.GRAPH_MODE)
graph = Prompt()(Tensor(q), Tensor(k[:, :, :S]), Tensor(v[:, :, :S])).asnumpy()
ms.set_context(mode=ms.PYNATIVE_MODE)
print("GRAPH_MODE == PYNATIVE_MODE:", np.array_equal(eager, graph))


def error(name, fn):
    try:
        fn()
        print(name, "no error")
    except (TypeError, ValueError, RuntimeError, NotImplementedError) as e:
        print(name, type(e).__name__, e)


qt, kt, vt = Tensor(q), Tensor(k[:, :, :S]), Tensor(v[:, :, :S])
error("float32 query", lambda: PromptFlashAttention(num_heads=N, input_layout="BNSD")(
    Tensor(q.astype(np.float32)), kt, vt))
error("num_heads", lambda: PromptFlashAttention(num_heads=3, input_layout="BNSD")(qt, kt, vt))
error("num_key_value_heads", lambda: PromptFlashAttention(num_heads=N, num_key_value_heads=3, input_layout="BNSD")(
    qt, kt, vt))
error("mask shape", lambda: PromptFlashAttention(num_heads=N, input_layout="BNSD")(
    qt, kt, vt, Tensor(np.zeros((B, 2, S, S), np.bool_))))
error("lengths size", lambda: PromptFlashAttention(num_heads=N, input_layout="BNSD")(
    qt, kt, vt, None, Tensor(np.array([1, 2, 3], np.int64))))
error("length too long", lambda: PromptFlashAttention(num_heads=N, input_layout="BNSD")(
    qt, kt, vt, None, (S + 1, 1)))
error("sparse_mode 5", lambda: PromptFlashAttention(num_heads=N, input_layout="BNSD", sparse_mode=5)(
    qt, kt, vt, compressed))
error("layout", lambda: PromptFlashAttention(num_heads=N, input_layout="TND"))
error("int8 output (quant_scale2)", lambda: PromptFlashAttention(num_heads=N, input_layout="BNSD")(
    qt, kt, vt, None, None, None, None, None, None, None, Tensor(np.ones(1, np.float32))))
error("IncreFlashAttention query rows", lambda: ifa(qt, [kt], [vt]))
error("IncreFlashAttention two key tensors", lambda: ifa(Tensor(q1), [kt, kt], [vt]))
error("FusedInferAttentionScore layout", lambda: FusedInferAttentionScore(num_heads=N, input_layout="SBH"))
error("PagedAttention block outside the cache", lambda: PagedAttention(N, 0.3, KVN)(
    Tensor(qp), Tensor(kc), Tensor(vc), Tensor(tables + 1), Tensor(ctx)))
error("PagedAttention alibi_mask", lambda: PagedAttention(N, 0.3, KVN)(
    Tensor(qp), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(ctx), alibi_mask=Tensor(np.zeros((T, 12), np.float16))))
