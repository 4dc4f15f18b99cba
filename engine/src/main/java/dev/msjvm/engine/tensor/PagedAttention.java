package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import java.util.Set;

/**
 * MindSpore's PagedAttention and PagedAttentionMask: the attention of each query token over its
 * context held in a block-wise key/value cache (vLLM's paged cache), computed exactly:
 *
 * <pre>
 * key position p of token t: key_cache[block_tables[t, p / block_size], p % block_size]
 * out[t, n] = softmax(scale_value * q[t, n] . k[p, n / (head_num / kv_head_num)]) @ v,  p < context_lens[t]
 * </pre>
 *
 * <p>The query is {@code (batch, seq_len, hidden)} (one token per row of block_tables, {@code batch
 * * seq_len} of them) or {@code (num_tokens, head_num, head_dim)}; the caches {@code (num_blocks,
 * block_size, kv_head_num, head_dim)} or {@code (num_blocks, block_size, kv_hidden)}. A rank
 * holding a block of the batch reads context_lens (kept whole, as MindSpore's PagedAttentionInfo
 * does) at its tokens' place ({@code batchOffset}). Not yet: the lookahead and alibi masks,
 * q_seq_lens, int8 caches (antiquant): NotImplementedError when run.
 */
public final class PagedAttention {
  private PagedAttention() {}

  /** One call's attributes (MindSpore's names). */
  public record Options(String op, int headNum, double scale, int kvHeadNum, int batchOffset) {}

  /** Sizes of one call: tokens, query rows per batch row, heads, head size, cache blocks. */
  private record Geometry(int tokens, int rows, int n1, int n2, int d, int blockSize, int blocks) {}

  private static Geometry geometry(Options o, Shape q, Shape cache, Shape tables, Shape lens) {
    String op = o.op();
    if (q.rank() != 3 || (cache.rank() != 3 && cache.rank() != 4)) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], query must be 3-D and the caches 3-D or 4-D, but got "
              + q.dims()
              + " and "
              + cache.dims()
              + ".");
    }
    int n1 = o.headNum();
    int n2 = o.kvHeadNum() == 0 ? n1 : o.kvHeadNum();
    if (n1 <= 0 || n1 % n2 != 0) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], head_num must be a positive multiple of kv_head_num, but got "
              + n1
              + " and "
              + n2
              + ".");
    }
    int d = cache.rank() == 4 ? cache.dim(3) : cache.dim(2) / n2;
    if (cache.rank() == 4 && cache.dim(2) != n2 || cache.rank() == 3 && cache.dim(2) != n2 * d) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the caches must hold kv_head_num "
              + n2
              + " heads, but got "
              + cache.dims()
              + ".");
    }
    boolean perHead = q.dim(1) == n1 && q.dim(2) == d;
    if (!perHead && q.dim(2) != n1 * d) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the query's hidden size must be head_num * head_dim = "
              + n1 * d
              + ", but got "
              + q.dims()
              + ".");
    }
    int rows = perHead ? 1 : q.dim(1);
    int tokens = perHead ? q.dim(0) : q.dim(0) * q.dim(1);
    if (tables.rank() != 2 || tables.dim(0) * rows < tokens && tables.dim(0) < tokens) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], block_tables must have a row per sequence, but got "
              + tables.dims()
              + " for query "
              + q.dims()
              + ".");
    }
    if (lens.rank() != 1) {
      throw MsException.valueError(
          "For primitive[" + op + "], context_lens must be 1-D, but got " + lens.dims() + ".");
    }
    return new Geometry(tokens, rows, n1, n2, d, cache.dim(1), cache.dim(0));
  }

  /** The output type (the query's), with the checks. */
  public static AbstractTensor type(Options o, List<AbstractTensor> in) {
    AbstractTensor q = in.get(0);
    Set<DType> floats = Set.of(DType.FLOAT16, DType.BFLOAT16);
    if (!floats.contains(q.dtype())) {
      throw MsException.typeError(
          "For primitive["
              + o.op()
              + "], the input argument[query] must be a type of {Tensor[BFloat16],"
              + " Tensor[Float16]}, but got Tensor["
              + q.dtype().mindsporeName()
              + "].");
    }
    geometry(o, q.shape(), in.get(1).shape(), in.get(3).shape(), in.get(4).shape());
    return q;
  }

  /**
   * The attention of one call: inputs query, key_cache, value_cache, block_tables, context_lens.
   */
  public static Tensor forward(Options o, List<Tensor> in, List<String> others) {
    if (!others.isEmpty() || in.get(1).dtype() == DType.INT8) {
      throw new MsException(
          MsException.Kind.NOT_IMPLEMENTED_ERROR,
          o.op()
              + (others.isEmpty()
                  ? " with int8 caches"
                  : " with the inputs " + String.join(", ", others))
              + " is not supported yet.");
    }
    Tensor query = in.get(0);
    Tensor tables = in.get(3);
    Tensor lens = in.get(4);
    Geometry g = geometry(o, query.shape(), in.get(1).shape(), tables.shape(), lens.shape());
    float[] q = query.floats();
    float[] k = in.get(1).floats();
    float[] v = in.get(2).floats();
    double[] out = new double[query.size()];
    int perTable = tables.shape().dim(1);
    int tableRows = tables.shape().dim(0);
    int group = g.n1() / g.n2();
    double[] s = new double[0];
    for (int t = 0; t < g.tokens(); t++) {
      // block_tables has a row per token, or per batch row of a (batch, seq_len, hidden) query.
      int row = tableRows >= g.tokens() ? t : t / g.rows();
      int global = t + o.batchOffset() * g.rows();
      long ctx = lens.getLong(lens.size() >= g.tokens() + o.batchOffset() * g.rows() ? global : t);
      if (ctx < 0 || ctx > (long) perTable * g.blockSize()) {
        throw MsException.valueError(
            "For primitive["
                + o.op()
                + "], context_lens["
                + global
                + "] must be in [0, "
                + (long) perTable * g.blockSize()
                + "], but got "
                + ctx
                + ".");
      }
      int len = (int) ctx;
      if (s.length < len) {
        s = new double[len];
      }
      int[] slot = new int[len];
      for (int p = 0; p < len; p++) {
        long block = tables.getLong(row * perTable + p / g.blockSize());
        if (block < 0 || block >= g.blocks()) {
          throw MsException.valueError(
              "For primitive["
                  + o.op()
                  + "], block_tables["
                  + row
                  + ", "
                  + p / g.blockSize()
                  + "] = "
                  + block
                  + " is not a block of the cache (0 to "
                  + (g.blocks() - 1)
                  + ").");
        }
        slot[p] = (int) block * g.blockSize() + p % g.blockSize();
      }
      for (int n = 0; n < g.n1(); n++) {
        int qa = (t * g.n1() + n) * g.d();
        int kh = n / group;
        double max = Double.NEGATIVE_INFINITY;
        for (int p = 0; p < len; p++) {
          int ka = (slot[p] * g.n2() + kh) * g.d();
          double dot = 0;
          for (int e = 0; e < g.d(); e++) {
            dot += (double) q[qa + e] * k[ka + e];
          }
          s[p] = o.scale() * dot;
          max = Math.max(max, s[p]);
        }
        double sum = 0;
        for (int p = 0; p < len; p++) {
          s[p] = Math.exp(s[p] - max);
          sum += s[p];
        }
        for (int p = 0; p < len; p++) {
          double w = s[p] / sum;
          int va = (slot[p] * g.n2() + kh) * g.d();
          for (int e = 0; e < g.d(); e++) {
            out[qa + e] += w * v[va + e];
          }
        }
      }
    }
    return Tensor.ofDoubles(query.dtype(), query.shape(), i -> out[i]);
  }
}
