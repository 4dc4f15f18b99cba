package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * MindSpore's inference attention: PromptFlashAttention (whole prompts), IncreFlashAttention (one
 * new token per sequence against its key/value cache) and FusedInferAttentionScore (either, by the
 * query's sequence length), computed exactly on {@link FlashAttention}'s kernel:
 *
 * <pre>
 * attention_out = softmax(scale_value * query @ key^T + pse_shift, masked) @ value
 * softmax_lse   = log(sum(exp(scores)))   (per row, FusedInferAttentionScore only)
 * </pre>
 *
 * <p>Unlike FlashAttentionScore, pse_shift is added after the scale (the inference kernels'
 * formula). Per batch, {@code actual_seq_lengths} bounds the query rows computed (the others are
 * zeros) and {@code actual_seq_lengths_kv} the keys each row sees; the right-down causal modes
 * align at those lengths. Sparse mode 0 without a mask ignores pre_tokens and next_tokens
 * (MindSpore sets them to INT_MAX), so PromptFlashAttention's default {@code next_tokens=0} only
 * bands a masked call. A rank holding a block of heads or of the query's rows reads the whole
 * pse_shift through {@code headOffset} and {@code qOffset} (MindSpore keeps it whole along both).
 */
public final class InferAttention {
  private InferAttention() {}

  /** One call's attributes (MindSpore's names; {@code kvHeads} 0: as many as the query's). */
  public record Options(
      String op,
      int numHeads,
      int kvHeads,
      double scale,
      long preTokens,
      long nextTokens,
      FlashAttention.Layout layout,
      int sparseMode,
      int qOffset,
      int qWhole,
      int headOffset,
      int batchOffset) {

    FlashAttention.Options kernel(boolean masked) {
      boolean ignore = sparseMode == 0 && !masked;
      return new FlashAttention.Options(
          numHeads,
          1.0,
          scale,
          ignore ? Integer.MAX_VALUE : preTokens,
          ignore ? Integer.MAX_VALUE : nextTokens,
          layout,
          sparseMode,
          qOffset,
          qWhole,
          0);
    }
  }

  /**
   * The tensors of one call, null where absent; {@code others} names the other optional inputs the
   * call passes (quantization scales, paged-attention tables, paddings).
   */
  public record Inputs<T>(
      T query, T key, T value, T pse, T mask, T qLens, T kvLens, Set<String> others) {
    public <U> Inputs<U> map(Function<T, U> f) {
      return new Inputs<>(
          f.apply(query),
          f.apply(key),
          f.apply(value),
          pse == null ? null : f.apply(pse),
          mask == null ? null : f.apply(mask),
          qLens == null ? null : f.apply(qLens),
          kvLens == null ? null : f.apply(kvLens),
          others);
    }
  }

  private static MsException runtime(String op, String text) {
    return MsException.runtimeError("For primitive[" + op + "], " + text);
  }

  /** PromptFlashAttention's attention_out type, with MindSpore's checks and texts. */
  public static AbstractTensor promptType(Options o, Inputs<AbstractTensor> in) {
    String op = o.op();
    if (o.numHeads() <= 0) {
      throw runtime(op, "the num_heads should greater than zero.");
    }
    if (o.kvHeads() < 0) {
      throw runtime(op, "the num_key_value_heads should not less than zero.");
    }
    if (o.kvHeads() > 0 && o.numHeads() % o.kvHeads() != 0) {
      throw runtime(
          op,
          "the num_heads should be divide by num_key_value_heads, but got num_heads: "
              + o.numHeads()
              + ", and num_key_value_heads: "
              + o.kvHeads());
    }
    FlashAttention.Layout l = o.layout();
    if (l != FlashAttention.Layout.BSH && l != FlashAttention.Layout.BNSD) {
      throw MsException.valueError(
          "For primitive[" + op + "], the input_layout must be BSH or BNSD, but got " + l + ".");
    }
    int rank = l == FlashAttention.Layout.BSH ? 3 : 4;
    List<String> names = List.of("query", "key", "value");
    List<Shape> qkv = List.of(in.query().shape(), in.key().shape(), in.value().shape());
    for (int i = 0; i < 3; i++) {
      if (qkv.get(i).rank() != rank) {
        throw MsException.valueError(
            "For primitive["
                + op
                + "], the rank of "
                + names.get(i)
                + " must be equal to "
                + rank
                + ", but got "
                + qkv.get(i).rank()
                + ".");
      }
    }
    Shape q = qkv.get(0);
    Shape k = qkv.get(1);
    Shape v = qkv.get(2);
    int b = same(op, "B", q.dim(0), k.dim(0), v.dim(0));
    int s1 = q.dim(l.seqDim());
    int s2 = same(op, "KV_S", k.dim(l.seqDim()), v.dim(l.seqDim()));
    if (l == FlashAttention.Layout.BSH) {
      int qh;
      int kvh;
      if (o.kvHeads() == 0) {
        qh = same(op, "H", q.dim(2), k.dim(2), v.dim(2));
        kvh = qh;
      } else {
        qh = q.dim(2);
        kvh = same(op, "KV_H", k.dim(2), v.dim(2));
      }
      if (qh % o.numHeads() != 0) {
        throw runtime(
            op, "H must be divisible by `num_heads`, but got " + qh + " and " + o.numHeads());
      }
      int qd = qh / o.numHeads();
      if (o.kvHeads() != 0) {
        if (kvh % o.kvHeads() != 0) {
          throw runtime(
              op,
              "KV_H must be divisible by `num_key_value_heads`, but got "
                  + kvh
                  + " and "
                  + o.kvHeads());
        }
        if (qd != kvh / o.kvHeads()) {
          throw runtime(op, "Q_D must be equal KV_D, but got " + qd + " and " + kvh / o.kvHeads());
        }
      }
      alignment(op, in.query().dtype(), qd);
    } else {
      int qn;
      int kvn;
      if (o.kvHeads() == 0) {
        qn = same(op, "N", q.dim(1), k.dim(1), v.dim(1));
        kvn = qn;
      } else {
        qn = q.dim(1);
        kvn = same(op, "KV_N", k.dim(1), v.dim(1));
      }
      int d = same(op, "D", q.dim(3), k.dim(3), v.dim(3));
      if (qn != o.numHeads()) {
        throw runtime(op, "N must be equal num_heads, but got " + qn + " and " + o.numHeads());
      }
      if (o.kvHeads() != 0 && kvn != o.kvHeads()) {
        throw runtime(
            op, "KV_N must equal num_key_value_heads, but got " + kvn + " and " + o.kvHeads());
      }
      alignment(op, in.query().dtype(), d);
    }
    if (o.sparseMode() < 0 || o.sparseMode() > 4) {
      throw runtime(op, "sparse_mode must be 0, 1, 2, 3 or 4 but got " + o.sparseMode());
    }
    if (o.sparseMode() <= 1) {
      maskShape(op, in.mask(), b, s1, s2);
      lengthsShape(op, "actual_seq_lengths", in.qLens(), b);
      lengthsShape(op, "actual_seq_lengths_kv", in.kvLens(), b);
    }
    if (in.pse() != null) {
      oneOf(op, "pse_shift", in.pse().dtype(), Set.of(DType.FLOAT16, DType.BFLOAT16));
    }
    if (in.mask() != null) {
      oneOf(
          op,
          "atten_mask",
          in.mask().dtype(),
          Set.of(DType.BOOL, DType.INT8, DType.UINT8, DType.FLOAT16));
    }
    DType t = qkvType(op, in);
    DType out = t;
    if (in.others().contains("quant_scale2")) {
      out = DType.INT8;
    } else if (t == DType.INT8
        && in.others().containsAll(List.of("deq_scale1", "quant_scale1", "deq_scale2"))) {
      out = DType.FLOAT16;
    }
    return new AbstractTensor(q, out);
  }

  /**
   * FusedInferAttentionScore's output types (attention_out, softmax_lse): its infer checks only the
   * layout; the kernel's head and shape rules are checked here too (the kernel would refuse them).
   */
  public static List<AbstractTensor> fusedType(Options o, Inputs<AbstractTensor> in, boolean lse) {
    String op = o.op();
    FlashAttention.Layout l = o.layout();
    if (l != FlashAttention.Layout.BSH
        && l != FlashAttention.Layout.BNSD
        && l != FlashAttention.Layout.BSND) {
      throw MsException.runtimeError(
          "For FusedInferAttentionScore, the input_layout should be one of 'BSH' 'BSND' 'BNSD'"
              + " 'BNSD_BSND'.");
    }
    DType t = qkvType(op, in);
    Shape q = in.query().shape();
    FlashAttention.Options fo = o.kernel(in.mask() != null);
    FlashAttention.Geometry g =
        FlashAttention.Geometry.of(op, fo, q, in.key().shape(), in.value().shape());
    if (o.kvHeads() != 0 && g.n2() != o.kvHeads()) {
      throw runtime(
          op,
          "the head number of key and value "
              + g.n2()
              + " must be equal to num_key_value_heads "
              + o.kvHeads()
              + ".");
    }
    DType out = t;
    if (t == DType.INT8) {
      if (in.others().containsAll(List.of("dequant_scale1", "quant_scale1", "dequant_scale2"))
          && !in.others().contains("quant_scale2")
          && !in.others().contains("quant_offset2")) {
        out = DType.FLOAT16;
      }
    } else if (in.others().contains("quant_scale2")) {
      out = DType.INT8;
    }
    Shape lseShape = lse ? Shape.of(g.b(), g.n1(), g.s1(), 1) : Shape.of(1);
    return List.of(new AbstractTensor(q, out), new AbstractTensor(lseShape, DType.FLOAT32));
  }

  /** IncreFlashAttention's output type: one query row per sequence; FusedInferAttentionScore's. */
  public static AbstractTensor increType(Options o, Inputs<AbstractTensor> in) {
    Shape q = in.query().shape();
    FlashAttention.Layout l = o.layout();
    if (q.rank() != (l.merged() ? 3 : 4) || q.dim(l.seqDim()) != 1) {
      throw MsException.valueError(
          o.op()
              + ": The shape of input `query' must be -- "
              + (l.merged() ? "[B, 1, H]" : "[B, N, 1, D]")
              + ", but got "
              + q.dims());
    }
    return fusedType(o, in, false).get(0);
  }

  /** The type of query, key and value: float16, bfloat16 or int8, the same for all three. */
  private static DType qkvType(String op, Inputs<AbstractTensor> in) {
    DType t = in.query().dtype();
    List<String> names = List.of("query", "key", "value");
    List<AbstractTensor> qkv = List.of(in.query(), in.key(), in.value());
    for (int i = 0; i < 3; i++) {
      DType x = qkv.get(i).dtype();
      oneOf(op, names.get(i), x, Set.of(DType.FLOAT16, DType.BFLOAT16, DType.INT8));
      if (x != t) {
        throw MsException.typeError("For primitive[" + op + "], the input type must be same.");
      }
    }
    return t;
  }

  /** MindSpore's GetDimensionPFA: the dims must agree (its text lists them). */
  private static int same(String op, String name, int... dims) {
    int base = dims[0];
    for (int d : dims) {
      if (d != base) {
        StringBuilder sb = new StringBuilder();
        for (int x : dims) {
          sb.append(x).append(", ");
        }
        throw runtime(op, "the " + name + " should be equal " + base + ", but got " + sb);
      }
    }
    return base;
  }

  private static void alignment(String op, DType query, int d) {
    if (query == DType.BFLOAT16 && d % 16 != 0) {
      throw runtime(op, "dtype of query is bfloat16, dimension D must align with 16! but got " + d);
    }
  }

  private static void oneOf(String op, String name, DType t, Set<DType> valid) {
    if (!valid.contains(t)) {
      List<String> shown = new ArrayList<>();
      for (DType d : DType.values()) {
        if (valid.contains(d)) {
          shown.add("Tensor[" + d.mindsporeName() + "]");
        }
      }
      shown.sort(null);
      throw MsException.typeError(
          "For primitive["
              + op
              + "], the input argument["
              + name
              + "] must be a type of {"
              + String.join(", ", shown)
              + "}, but got Tensor["
              + t.mindsporeName()
              + "].");
    }
  }

  private static void maskShape(String op, AbstractTensor mask, int b, int s1, int s2) {
    if (mask == null) {
      return;
    }
    List<List<Integer>> allowed =
        List.of(
            List.of(s1, s2),
            List.of(1, s1, s2),
            List.of(b, s1, s2),
            List.of(b, 1, s1, s2),
            List.of(1, 1, s1, s2));
    if (!allowed.contains(mask.shape().dims())) {
      throw runtime(
          op,
          "atten_mask shape:  "
              + mask.shape().dims()
              + " dont match any of expect shape: "
              + allowed);
    }
  }

  private static void lengthsShape(String op, String name, AbstractTensor lens, int b) {
    if (lens == null) {
      return;
    }
    if (lens.shape().rank() != 1) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the dim of "
              + name
              + " must be equal to 1, but got "
              + lens.shape().rank()
              + ".");
    }
    if (lens.shape().dim(0) != b) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the size of "
              + name
              + " must be equal to "
              + b
              + ", but got "
              + lens.shape().dim(0)
              + ".");
    }
  }

  /** The result of one call: attention_out and, per row, the log of its softmax's sum. */
  public record Result(Tensor out, Tensor lse) {}

  /**
   * The attention of one call (its types already checked); with {@code lse}, softmax_lse is {@code
   * [B, N, S1, 1]} (+inf for rows that see no key), else the placeholder {@code [1]}.
   */
  public static Result forward(Options o, Inputs<Tensor> in, boolean lse) {
    String op = o.op();
    if (!in.others().isEmpty() || in.query().dtype() == DType.INT8) {
      throw new MsException(
          MsException.Kind.NOT_IMPLEMENTED_ERROR,
          op
              + (in.others().isEmpty()
                  ? " with int8 inputs"
                  : " with the inputs " + String.join(", ", in.others()))
              + " is not supported yet.");
    }
    Tensor q = in.query();
    if (o.qWhole() == 1 && !op.equals("PromptFlashAttention")) {
      // One new token per sequence (the incremental branch): the sparse mode, pre/next_tokens and
      // actual_seq_lengths do not apply; the mask and pse_shift cover the keys.
      o =
          new Options(
              op,
              o.numHeads(),
              o.kvHeads(),
              o.scale(),
              Integer.MAX_VALUE,
              Integer.MAX_VALUE,
              o.layout(),
              0,
              0,
              1,
              o.headOffset(),
              o.batchOffset());
      in =
          new Inputs<>(
              in.query(),
              in.key(),
              in.value(),
              in.pse(),
              in.mask(),
              null,
              in.kvLens(),
              in.others());
    }
    FlashAttention.Options fo = o.kernel(in.mask() != null);
    FlashAttention.Geometry g =
        FlashAttention.Geometry.of(op, fo, q.shape(), in.key().shape(), in.value().shape());
    List<Tensor> qk = List.of(q, in.key());
    FlashAttention.Scores sc =
        new FlashAttention.Scores(
            g, fo, qk, in.pse(), null, mask(g, in.mask()), true, o.headOffset(), o.qOffset());
    List<FlashAttention.Segment> segs = new ArrayList<>();
    for (int b = 0; b < g.b(); b++) {
      int ql = length(op, "actual_seq_lengths", in.qLens(), b, o.batchOffset(), g.b(), o.qWhole());
      int kl = length(op, "actual_seq_lengths_kv", in.kvLens(), b, o.batchOffset(), g.b(), g.s2());
      int rows = Math.max(0, Math.min(g.s1(), ql - o.qOffset()));
      segs.add(new FlashAttention.Segment(b, 0, rows, 0, kl, o.qOffset(), ql));
    }
    Shape outShape = g.outShape(q.shape());
    double[] out = new double[(int) outShape.size()];
    Shape lseShape = Shape.of(g.b(), g.n1(), g.s1(), 1);
    float[] lses = new float[lse ? (int) lseShape.size() : 0];
    if (lse) {
      java.util.Arrays.fill(lses, Float.POSITIVE_INFINITY);
    }
    FlashAttention.attend(
        g,
        sc,
        segs,
        in.value().floats(),
        out,
        (seg, n, qi, max, sum) -> {
          if (lse) {
            lses[(seg.batch() * g.n1() + n) * g.s1() + qi] =
                (float) (sum == 0 ? Double.POSITIVE_INFINITY : max + Math.log(sum));
          }
        });
    return new Result(
        Tensor.ofDoubles(q.dtype(), outShape, i -> out[i]),
        lse ? Tensor.ofFloats(lseShape, lses) : Tensor.zeros(DType.FLOAT32, Shape.of(1)));
  }

  /** A one-token call's mask of rank 2 is (B, KV_S): read it as (B, 1, KV_S). */
  private static Tensor mask(FlashAttention.Geometry g, Tensor mask) {
    if (mask != null && mask.shape().rank() == 2 && g.s1() == 1 && mask.shape().dim(0) == g.b()) {
      return mask.withShape(Shape.of(g.b(), 1, mask.shape().dim(1)));
    }
    return mask;
  }

  /**
   * Sequence {@code b}'s length: one value is every sequence's; lengths of the whole batch (kept
   * whole on a rank holding a block of it, IncreFlashAttention's) are read at the block's offset.
   */
  private static int length(
      String op, String name, Tensor lens, int b, int batchOffset, int batches, int whole) {
    if (lens == null) {
      return whole;
    }
    int at = lens.size() == 1 ? 0 : lens.size() > batches ? b + batchOffset : b;
    long v = lens.getLong(at);
    if (v < 0 || v > whole) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the "
              + name
              + (v < 0
                  ? " must be greater than or equal to 0"
                  : " must be less than or equal to " + whole)
              + ", but got "
              + v
              + ".");
    }
    return (int) v;
  }
}
