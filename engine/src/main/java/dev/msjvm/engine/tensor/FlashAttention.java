package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's FlashAttentionScore and its gradient, computed exactly (no tiling: one score row at a
 * time in double precision, rounded to the query's type at the end):
 *
 * <pre>
 * S = scale_value * (query @ key^T + real_shift)      masked positions excluded
 * P = softmax(S) along the key sequence; Pd = P * drop_mask_bit / keep_prob
 * attention_out = Pd @ value
 * </pre>
 *
 * <p>Layouts {@code BSH}, {@code SBH}, {@code BNSD}, {@code BSND} and {@code TND} (sequences packed
 * along T, bounded by the cumulative {@code actual_seq_qlen}/{@code actual_seq_kvlen}); query heads
 * {@code N1}, key/value heads {@code N2} dividing it (query head n reads key/value head {@code n /
 * (N1 / N2)}); value's head size may differ from the query's. A position is masked where {@code
 * attn_mask} is non-zero (sparse modes 0 and 1) and outside the band the sparse mode and {@code
 * pre_tokens}/{@code next_tokens} define (mode 0: {@code i - pre <= j <= i + next}, a masked call's
 * only: without attn_mask MindSpore ignores both; 2: {@code j <= i}; 3: {@code j <= i + S2 - S1};
 * 4: the band of mode 0 around the right-down diagonal). A row with every position masked gives
 * zeros.
 *
 * <p>On a rank holding a block of the query's sequence (sequence parallel), {@code q_offset} and
 * {@code q_whole} place the block's rows in the whole sequence, so the band is the whole one's.
 * Outputs: {@code softmax_max} and {@code softmax_sum} ({@code [B, N1, S1, 8]}, float32, the row's
 * maximum and sum of exponentials repeated 8 times), {@code softmax_out} ({@code [1]}, unused) and
 * {@code attention_out}.
 */
public final class FlashAttention {
  private FlashAttention() {}

  /** The input layouts MindSpore's FlashAttentionScore accepts. */
  public enum Layout {
    BSH,
    SBH,
    BNSD,
    BSND,
    TND;

    public static Layout of(String name) {
      for (Layout l : values()) {
        if (l.name().equals(name)) {
          return l;
        }
      }
      throw MsException.valueError(
          "FlashAttentionScore support input layout: BSH, BNSD, SBH, BSND, TND.");
    }

    /** The dims of batch, sequence, heads (or the merged hidden dim) in a tensor of this layout. */
    public int batchDim() {
      return switch (this) {
        case BSH, BNSD, BSND -> 0;
        case SBH -> 1;
        case TND -> -1;
      };
    }

    public int seqDim() {
      return switch (this) {
        case BSH, BSND -> 1;
        case SBH, TND -> 0;
        case BNSD -> 2;
      };
    }

    public int headDim() {
      return switch (this) {
        case BSH, SBH -> 2;
        case BNSD, TND -> 1;
        case BSND -> 2;
      };
    }

    /** Whether heads and head size share one (hidden) dim. */
    public boolean merged() {
      return this == BSH || this == SBH;
    }
  }

  /** The attributes of one call (MindSpore's names). */
  public record Options(
      int headNum,
      double keepProb,
      double scale,
      long preTokens,
      long nextTokens,
      Layout layout,
      int sparseMode,
      int qOffset,
      int qWhole,
      int kvOffset) {}

  /** Which optional inputs a call has, in MindSpore's input order after query, key, value. */
  public record Present(boolean realShift, boolean dropMask, boolean attnMask, boolean seqLens) {
    public int count() {
      return 3 + (realShift ? 1 : 0) + (dropMask ? 1 : 0) + (attnMask ? 1 : 0) + (seqLens ? 2 : 0);
    }

    public int realShiftIndex() {
      return realShift ? 3 : -1;
    }

    public int dropMaskIndex() {
      return dropMask ? 3 + (realShift ? 1 : 0) : -1;
    }

    public int attnMaskIndex() {
      return attnMask ? 3 + (realShift ? 1 : 0) + (dropMask ? 1 : 0) : -1;
    }

    public int seqLenIndex() {
      return seqLens ? 3 + (realShift ? 1 : 0) + (dropMask ? 1 : 0) + (attnMask ? 1 : 0) : -1;
    }
  }

  /** Sizes of one call: batch, query/key heads, query/key sequence, query/value head sizes. */
  record Geometry(Layout layout, int b, int n1, int n2, int s1, int s2, int d, int dv) {
    static Geometry of(String op, Options o, Shape q, Shape k, Shape v) {
      Layout l = o.layout();
      int rank = l == Layout.BSH || l == Layout.SBH || l == Layout.TND ? 3 : 4;
      for (Shape s : List.of(q, k, v)) {
        if (s.rank() != rank) {
          throw MsException.valueError(
              op + ": The rank of 'query' must be " + rank + ", but got " + q + " and " + k);
        }
      }
      int n1 = o.headNum();
      if (n1 <= 0) {
        throw MsException.valueError(
            "For primitive[" + op + "], the head_num must be > 0, but got " + n1 + ".");
      }
      int b = l == Layout.TND ? 1 : q.dim(l.batchDim());
      int s1 = q.dim(l.seqDim());
      int s2 = k.dim(l.seqDim());
      int d;
      int n2;
      int dv;
      if (l.merged()) {
        if (q.dim(2) % n1 != 0) {
          throw MsException.valueError(
              op
                  + ": 'hidden_size` must be divisible by `head_num`, but got "
                  + q.dim(2)
                  + " and "
                  + n1);
        }
        d = q.dim(2) / n1;
        if (k.dim(2) % d != 0) {
          throw MsException.valueError(
              "For primitive["
                  + op
                  + "], the hidden size of key must be a multiple of the head size "
                  + d
                  + ", but got "
                  + k.dim(2)
                  + ".");
        }
        n2 = k.dim(2) / d;
        if (n2 == 0 || v.dim(2) % n2 != 0) {
          throw MsException.valueError(
              "For primitive["
                  + op
                  + "], the hidden size of value must be a multiple of key's head number "
                  + n2
                  + ", but got "
                  + v.dim(2)
                  + ".");
        }
        dv = v.dim(2) / n2;
      } else {
        if (q.dim(l.headDim()) != n1) {
          throw MsException.valueError(
              op
                  + ": query_shape["
                  + l.headDim()
                  + "] must be equal to attribute 'head_num', but got "
                  + q.dim(l.headDim())
                  + " and "
                  + n1);
        }
        d = q.dim(rank - 1);
        n2 = k.dim(l.headDim());
        dv = v.dim(rank - 1);
        if (v.dim(l.headDim()) != n2) {
          throw MsException.valueError(
              "For primitive["
                  + op
                  + "], the head number of key and value must be the same, but got "
                  + n2
                  + " and "
                  + v.dim(l.headDim())
                  + ".");
        }
      }
      if (n2 == 0 || n1 % n2 != 0) {
        throw MsException.valueError(
            op
                + ": The head num of 'key' must be a factor of the head num of 'query', but got "
                + n2
                + " and "
                + n1);
      }
      if (k.dim(rank - 1) != (l.merged() ? n2 * d : d)) {
        throw MsException.valueError(
            "For primitive["
                + op
                + "], the head size of query and key must be the same, but got "
                + q
                + " and "
                + k
                + ".");
      }
      if (l != Layout.TND && k.dim(l.batchDim()) != b || v.dim(l.seqDim()) != s2) {
        throw MsException.valueError(
            "For primitive["
                + op
                + "], the batch and sequence of key and value must match, but got "
                + k
                + " and "
                + v
                + ".");
      }
      return new Geometry(l, b, n1, n2, s1, s2, d, dv);
    }

    /** Flat offset of element (batch, row, head, i) of a tensor of {@code heads} x {@code size}. */
    int at(int batch, int row, int rows, int head, int heads, int size, int i) {
      return switch (layout) {
        case BSH, BSND -> ((batch * rows + row) * heads + head) * size + i;
        case SBH -> ((row * b + batch) * heads + head) * size + i;
        case BNSD -> ((batch * heads + head) * rows + row) * size + i;
        case TND -> (row * heads + head) * size + i;
      };
    }

    Shape outShape(Shape q) {
      List<Integer> dims = new ArrayList<>(q.dims());
      int last = dims.size() - 1;
      dims.set(last, layout.merged() ? n1 * dv : dv);
      return new Shape(dims);
    }

    Shape softmaxShape(Shape q) {
      return layout == Layout.TND ? Shape.of(q.dim(0), n1, 8) : Shape.of(b, n1, s1, 8);
    }
  }

  /** The output types (softmax_max, softmax_sum, softmax_out, attention_out), with the checks. */
  public static List<AbstractTensor> type(Options o, Present p, List<AbstractTensor> in) {
    AbstractTensor q = in.get(0);
    Geometry g = checked(o, p, in);
    AbstractTensor stats = new AbstractTensor(g.softmaxShape(q.shape()), DType.FLOAT32);
    return List.of(
        stats,
        stats,
        new AbstractTensor(Shape.of(1), q.dtype()),
        q.withShape(g.outShape(q.shape())));
  }

  /** MindSpore's checks of one call; its geometry. */
  private static Geometry checked(Options o, Present p, List<AbstractTensor> in) {
    String op = "FlashAttentionScore";
    AbstractTensor q = in.get(0);
    for (int i = 0; i < 3; i++) {
      DType t = in.get(i).dtype();
      if (t != DType.FLOAT16 && t != DType.BFLOAT16 && t != DType.FLOAT32) {
        throw MsException.typeError(
            "For primitive["
                + op
                + "], the input["
                + List.of("query", "key", "value").get(i)
                + "] supports types: Float16, BFloat16, Float32. But got "
                + t.mindsporeName()
                + ".");
      }
      if (t != q.dtype()) {
        throw MsException.typeError(
            "For primitive[" + op + "], query, key and value must have the same type.");
      }
    }
    if (o.keepProb() < 0 || o.keepProb() > 1) {
      throw MsException.valueError(
          op
              + ": attribute `keep_prob` must be a floating point number in [0, 1], but got "
              + o.keepProb());
    }
    if (o.sparseMode() < 0 || o.sparseMode() > 4) {
      throw new MsException(
          MsException.Kind.NOT_IMPLEMENTED_ERROR,
          "FlashAttentionScore with sparse_mode " + o.sparseMode() + " is not supported yet.");
    }
    Geometry g = Geometry.of(op, o, q.shape(), in.get(1).shape(), in.get(2).shape());
    if (p.dropMask() && o.layout() == Layout.TND) {
      throw new MsException(
          MsException.Kind.NOT_IMPLEMENTED_ERROR,
          "FlashAttentionScore with input_layout TND and a drop_mask is not supported yet.");
    }
    if (p.dropMask() && o.keepProb() == 1.0) {
      throw MsException.valueError(op + ": 'drop_mask' must be None when keep_prob is 1.0.");
    }
    if (p.dropMask() && in.get(p.dropMaskIndex()).dtype() != DType.UINT8) {
      throw MsException.typeError(
          "For primitive["
              + op
              + "], the input[drop_mask] supports types: UInt8. But got "
              + in.get(p.dropMaskIndex()).dtype().mindsporeName()
              + ".");
    }
    if (p.attnMask()) {
      DType t = in.get(p.attnMaskIndex()).dtype();
      if (t != DType.UINT8 && t != DType.BOOL) {
        throw MsException.typeError(
            "For primitive["
                + op
                + "], the input[attn_mask] supports types: UInt8, Bool. But got "
                + t.mindsporeName()
                + ".");
      }
    }
    if (g.layout() != Layout.TND) {
      checkShapes(o, p, in, g);
    }
    return g;
  }

  /** MindSpore's shape checks of real_shift, drop_mask and attn_mask (its texts). */
  private static void checkShapes(Options o, Present p, List<AbstractTensor> in, Geometry g) {
    String op = "FlashAttentionScore";
    int b = g.b();
    int n1 = g.n1();
    int s1 = g.s1();
    int s2 = g.s2();
    if (p.realShift()) {
      Shape s = in.get(p.realShiftIndex()).shape();
      boolean ok =
          s.rank() == 4
              && (s.dim(0) == b || s.dim(0) == 1)
              && s.dim(1) == n1
              && (s.dim(2) == s1 || s.dim(2) == 1)
              && s.dim(3) == s2;
      if (!ok) {
        throw MsException.valueError(
            op
                + ": The shape of input real_shift must be one of "
                + List.of(List.of(b, n1, s1, s2), List.of(1, n1, s1, s2))
                + ", but got shape is "
                + s.dims());
      }
    }
    if (p.dropMask()) {
      Shape s = in.get(p.dropMaskIndex()).shape();
      List<Integer> want = List.of(b, n1, s1, s2 / 8);
      if (!s.dims().equals(want)) {
        throw MsException.valueError(
            op
                + ": The shape of input `drop_mask' must be "
                + want
                + ", but got shape is "
                + s.dims());
      }
    }
    if (p.attnMask()) {
      Shape s = in.get(p.attnMaskIndex()).shape();
      List<List<Integer>> allowed =
          o.sparseMode() >= 2
              ? List.of(List.of(2048, 2048))
              : List.of(
                  List.of(b, n1, s1, s2),
                  List.of(b, 1, s1, s2),
                  List.of(1, 1, s1, s2),
                  List.of(s1, s2));
      if (!allowed.contains(s.dims())) {
        throw MsException.valueError(
            op
                + ": The shape of input attn_mask must be one of "
                + allowed
                + ", but got shape is "
                + s.dims());
      }
    }
  }

  /** The gradient's output types: dq, dk, dv and, with a real_shift, dpse. */
  public static List<AbstractTensor> gradType(Present p, List<AbstractTensor> in) {
    List<AbstractTensor> out = new ArrayList<>(List.of(in.get(0), in.get(1), in.get(2)));
    if (p.realShift()) {
      out.add(in.get(p.realShiftIndex() + 1));
    }
    return out;
  }

  /**
   * One query segment: its batch, first row, row count and its key rows (TND packs several); the
   * place of its first row in the whole sequence ({@code rowOffset}, for the bands) and the length
   * of the whole query sequence the right-down diagonal is drawn for ({@code s1}).
   */
  record Segment(int batch, int qStart, int qLen, int kvStart, int kvLen, int rowOffset, int s1) {}

  private static List<Segment> segments(Geometry g, Options o, Present p, List<Tensor> in) {
    List<Segment> out = new ArrayList<>();
    if (g.layout() != Layout.TND) {
      for (int b = 0; b < g.b(); b++) {
        out.add(new Segment(b, 0, g.s1(), 0, g.s2(), o.qOffset(), o.qWhole()));
      }
      return out;
    }
    if (!p.seqLens()) {
      out.add(new Segment(0, 0, g.s1(), 0, g.s2(), 0, g.s1()));
      return out;
    }
    List<int[]> qs = pieces("actual_seq_qlen", in.get(p.seqLenIndex()), o.qOffset(), g.s1());
    List<int[]> ks = pieces("actual_seq_kvlen", in.get(p.seqLenIndex() + 1), o.kvOffset(), g.s2());
    if (qs.size() != ks.size()) {
      throw MsException.valueError(
          "FlashAttentionScore: actual_seq_qlen and actual_seq_kvlen must describe as many"
              + " sequences, but got "
              + qs.size()
              + " and "
              + ks.size()
              + " in this block.");
    }
    for (int i = 0; i < qs.size(); i++) {
      int[] q = qs.get(i);
      int[] k = ks.get(i);
      out.add(new Segment(i, q[0], q[1], k[0], k[1], 0, q[1]));
    }
    return out;
  }

  /**
   * The sequences (local start, length) of a packed T block that starts at {@code offset} of the
   * whole T and holds {@code length} rows, from the cumulative ends {@code ends} (all of them, or
   * the slice of them a rank holds). A sequence crossing the block's edge is an error: the kernel
   * of a block cannot see its other part.
   */
  private static List<int[]> pieces(String name, Tensor ends, int offset, int length) {
    List<int[]> out = new ArrayList<>();
    int prev = offset;
    long last = -1;
    for (int i = 0; i < ends.size(); i++) {
      long v = ends.getLong(i);
      if (v < last) {
        throw MsException.valueError(
            "FlashAttentionScore: " + name + " must be non-decreasing, but got " + ends.toList());
      }
      last = v;
      if (v <= offset) {
        if (v < offset && i == ends.size() - 1) {
          break;
        }
        prev = (int) v;
        continue;
      }
      if (prev != offset && out.isEmpty()) {
        throw crossing(name, ends, offset, length);
      }
      if (v > offset + length) {
        if (prev < offset + length) {
          throw crossing(name, ends, offset, length);
        }
        break;
      }
      out.add(new int[] {prev - offset, (int) v - prev});
      prev = (int) v;
    }
    return out;
  }

  private static MsException crossing(String name, Tensor ends, int offset, int length) {
    return MsException.valueError(
        "FlashAttentionScore: a sequence of "
            + name
            + " "
            + ends.toList()
            + " crosses the block of rows ["
            + offset
            + ", "
            + (offset + length)
            + ") this rank holds: split T at sequence ends.");
  }

  /** Reads the scores' masks and biases of one call. */
  static final class Scores {
    final Geometry g;
    final Options o;
    final float[] q;
    final float[] k;
    final Tensor pse;
    final Tensor drop;
    final Tensor mask;
    // The inference ops add pse_shift after the scale, and hold it whole along heads and rows.
    final boolean pseAfterScale;
    final int pseHead;
    final int pseRow;

    Scores(Geometry g, Options o, Present p, List<Tensor> in) {
      this(
          g,
          o,
          in,
          p.realShift() ? in.get(p.realShiftIndex()) : null,
          p.dropMask() ? in.get(p.dropMaskIndex()) : null,
          p.attnMask() ? in.get(p.attnMaskIndex()) : null,
          false,
          0,
          0);
    }

    Scores(
        Geometry g,
        Options o,
        List<Tensor> in,
        Tensor pse,
        Tensor drop,
        Tensor mask,
        boolean pseAfterScale,
        int pseHead,
        int pseRow) {
      this.g = g;
      this.o = o;
      q = in.get(0).floats();
      k = in.get(1).floats();
      this.pse = pse;
      this.drop = drop;
      this.mask = mask;
      this.pseAfterScale = pseAfterScale;
      this.pseHead = pseHead;
      this.pseRow = pseRow;
    }

    int kvHead(int n) {
      return n / (g.n1() / g.n2());
    }

    /** Whether position (row i of the segment, key j of the segment) is masked. */
    boolean masked(Segment seg, int batch, int n, int i, int j) {
      int mode = o.sparseMode();
      long gi = (long) i + seg.rowOffset();
      long diag = (long) seg.kvLen() - seg.s1();
      switch (mode) {
        case 0 -> {
          if (j > gi + o.nextTokens() || j < gi - o.preTokens()) {
            return true;
          }
        }
        case 2 -> {
          if (j > gi) {
            return true;
          }
        }
        case 3 -> {
          if (j > gi + diag) {
            return true;
          }
        }
        case 4 -> {
          if (j > gi + diag + o.nextTokens() || j < gi + diag - o.preTokens()) {
            return true;
          }
        }
        default -> {}
      }
      if (mask == null || mode > 1) {
        return false;
      }
      return maskAt(batch, n, i, j) != 0;
    }

    private long maskAt(int batch, int n, int i, int j) {
      Shape m = mask.shape();
      int r = m.rank();
      int s2 = m.dim(r - 1);
      int s1 = m.dim(r - 2);
      int idx = i * s2 + j;
      if (r == 4) {
        int mb = m.dim(0) == 1 ? 0 : batch;
        int mn = m.dim(1) == 1 ? 0 : n;
        idx = ((mb * m.dim(1) + mn) * s1 + i) * s2 + j;
      } else if (r == 3) {
        int mb = m.dim(0) == 1 ? 0 : batch;
        idx = (mb * s1 + i) * s2 + j;
      }
      return mask.getDouble(idx) != 0 ? 1 : 0;
    }

    double bias(int batch, int n, int i, int j) {
      return pse == null ? 0 : pse.getDouble(pseIndex(batch, n + pseHead, i + pseRow, j));
    }

    /** The real_shift element of position (batch, head n, query row i, key j); it broadcasts. */
    int pseIndex(int batch, int n, int i, int j) {
      Shape s = pse.shape();
      int pb = s.dim(0) == 1 ? 0 : batch;
      int pi = s.dim(2) == 1 ? 0 : i;
      return ((pb * s.dim(1) + n) * s.dim(2) + pi) * s.dim(3) + j;
    }

    /** The drop factor of a position: 0 where dropped, 1 / keep_prob where kept. */
    double keep(int batch, int n, int i, int j) {
      if (drop == null || o.keepProb() >= 1) {
        return 1;
      }
      int bytes = (g.s2() + 7) / 8;
      int idx = ((batch * g.n1() + n) * g.s1() + i) * bytes + j / 8;
      long bits = drop.getLong(idx);
      return (bits >> (j % 8) & 1) != 0 ? 1 / o.keepProb() : 0;
    }

    /** Row {@code i} of the softmax probabilities (before dropout) into {@code p}; its max, sum. */
    double[] row(Segment seg, int n, int i, double[] p) {
      int kh = kvHead(n);
      int qi = seg.qStart() + i;
      double max = Double.NEGATIVE_INFINITY;
      for (int j = 0; j < seg.kvLen(); j++) {
        if (masked(seg, seg.batch(), n, i, j)) {
          p[j] = Double.NaN;
          continue;
        }
        int kj = seg.kvStart() + j;
        double dot = 0;
        int qa = g.at(seg.batch(), qi, g.s1(), n, g.n1(), g.d(), 0);
        int ka = g.at(seg.batch(), kj, g.s2(), kh, g.n2(), g.d(), 0);
        for (int e = 0; e < g.d(); e++) {
          dot += (double) q[qa + e] * k[ka + e];
        }
        double b = bias(seg.batch(), n, qi, kj);
        double s = pseAfterScale ? o.scale() * dot + b : o.scale() * (dot + b);
        p[j] = s;
        max = Math.max(max, s);
      }
      double sum = 0;
      for (int j = 0; j < seg.kvLen(); j++) {
        double e = Double.isNaN(p[j]) ? 0 : Math.exp(p[j] - max);
        p[j] = e;
        sum += e;
      }
      for (int j = 0; j < seg.kvLen(); j++) {
        p[j] = sum == 0 ? 0 : p[j] / sum;
      }
      return new double[] {max, sum};
    }
  }

  /** The forward: softmax_max, softmax_sum, softmax_out, attention_out. */
  public static Tensor[] forward(Options o, Present p, List<Tensor> in) {
    Geometry g = checked(o, p, in.stream().map(Tensor::type).toList());
    Tensor query = in.get(0);
    Shape outShape = g.outShape(query.shape());
    double[] out = new double[(int) outShape.size()];
    Shape statShape = g.softmaxShape(query.shape());
    float[] maxes = new float[(int) statShape.size()];
    float[] sums = new float[(int) statShape.size()];
    attend(
        g,
        new Scores(g, o, p, in),
        segments(g, o, p, in),
        in.get(2).floats(),
        out,
        (seg, n, qi, max, sum) -> {
          int st =
              (g.layout() == Layout.TND
                      ? qi * g.n1() + n
                      : (seg.batch() * g.n1() + n) * g.s1() + qi)
                  * 8;
          for (int c = 0; c < 8; c++) {
            maxes[st + c] = (float) max;
            sums[st + c] = (float) sum;
          }
        });
    return new Tensor[] {
      Tensor.ofFloats(statShape, maxes),
      Tensor.ofFloats(statShape, sums),
      Tensor.zeros(query.dtype(), Shape.of(1)),
      Tensor.ofDoubles(query.dtype(), outShape, i -> out[i])
    };
  }

  /** What a kernel keeps of one score row: its maximum and sum of exponentials. */
  interface RowStats {
    void accept(Segment seg, int head, int row, double max, double sum);
  }

  /** {@code out += P @ value} over the segments' rows (rows of no segment stay zero). */
  static void attend(
      Geometry g, Scores sc, List<Segment> segments, float[] v, double[] out, RowStats stats) {
    double[] prob = new double[g.s2()];
    for (Segment seg : segments) {
      for (int n = 0; n < g.n1(); n++) {
        int kh = sc.kvHead(n);
        for (int i = 0; i < seg.qLen(); i++) {
          int qi = seg.qStart() + i;
          double[] ms = sc.row(seg, n, i, prob);
          stats.accept(seg, n, qi, ms[0], ms[1]);
          int oa = g.at(seg.batch(), qi, g.s1(), n, g.n1(), g.dv(), 0);
          for (int j = 0; j < seg.kvLen(); j++) {
            int kj = seg.kvStart() + j;
            double w = prob[j] * sc.keep(seg.batch(), n, qi, kj);
            if (w == 0) {
              continue;
            }
            int va = g.at(seg.batch(), kj, g.s2(), kh, g.n2(), g.dv(), 0);
            for (int e = 0; e < g.dv(); e++) {
              out[oa + e] += w * v[va + e];
            }
          }
        }
      }
    }
  }

  /**
   * The gradient (FlashAttentionScoreGrad): inputs the forward's, with {@code dy} (attention_out's
   * gradient) after value; outputs dq, dk, dv and, with a real_shift, dpse (summed over the dims
   * real_shift broadcasts).
   */
  public static Tensor[] backward(Options o, Present p, List<Tensor> withDy) {
    List<Tensor> in = new ArrayList<>(withDy);
    Tensor dyT = in.remove(3);
    Tensor query = in.get(0);
    Geometry g =
        Geometry.of(
            "FlashAttentionScoreGrad", o, query.shape(), in.get(1).shape(), in.get(2).shape());
    Scores sc = new Scores(g, o, p, in);
    float[] v = in.get(2).floats();
    float[] dy = dyT.floats();
    double[] dq = new double[query.size()];
    double[] dk = new double[in.get(1).size()];
    double[] dv = new double[in.get(2).size()];
    Tensor pse = sc.pse;
    double[] dpse = pse == null ? null : new double[pse.size()];
    double[] prob = new double[g.s2()];
    double[] dp = new double[g.s2()];
    for (Segment seg : segments(g, o, p, in)) {
      for (int n = 0; n < g.n1(); n++) {
        int kh = sc.kvHead(n);
        for (int i = 0; i < seg.qLen(); i++) {
          int qi = seg.qStart() + i;
          sc.row(seg, n, i, prob);
          int oa = g.at(seg.batch(), qi, g.s1(), n, g.n1(), g.dv(), 0);
          // dP_j = keep_j * (dy . v_j); dv_j += P_j keep_j dy; D = sum_j P_j dP_j.
          double dsum = 0;
          for (int j = 0; j < seg.kvLen(); j++) {
            if (prob[j] == 0) {
              dp[j] = 0;
              continue;
            }
            int kj = seg.kvStart() + j;
            double keep = sc.keep(seg.batch(), n, qi, kj);
            int va = g.at(seg.batch(), kj, g.s2(), kh, g.n2(), g.dv(), 0);
            double dot = 0;
            for (int e = 0; e < g.dv(); e++) {
              dot += (double) dy[oa + e] * v[va + e];
              dv[va + e] += prob[j] * keep * dy[oa + e];
            }
            dp[j] = keep * dot;
            dsum += prob[j] * dp[j];
          }
          int qa = g.at(seg.batch(), qi, g.s1(), n, g.n1(), g.d(), 0);
          for (int j = 0; j < seg.kvLen(); j++) {
            if (prob[j] == 0) {
              continue;
            }
            int kj = seg.kvStart() + j;
            double ds = prob[j] * (dp[j] - dsum) * o.scale();
            int ka = g.at(seg.batch(), kj, g.s2(), kh, g.n2(), g.d(), 0);
            for (int e = 0; e < g.d(); e++) {
              dq[qa + e] += ds * sc.k[ka + e];
              dk[ka + e] += ds * sc.q[qa + e];
            }
            if (dpse != null) {
              dpse[sc.pseIndex(seg.batch(), n, qi, kj)] += ds;
            }
          }
        }
      }
    }
    List<Tensor> out = new ArrayList<>();
    out.add(Tensor.ofDoubles(query.dtype(), query.shape(), i -> dq[i]));
    out.add(Tensor.ofDoubles(in.get(1).dtype(), in.get(1).shape(), i -> dk[i]));
    out.add(Tensor.ofDoubles(in.get(2).dtype(), in.get(2).shape(), i -> dv[i]));
    if (dpse != null) {
      out.add(Tensor.ofDoubles(pse.dtype(), pse.shape(), i -> dpse[i]));
    }
    return out.toArray(new Tensor[0]);
  }

  /** The bytes of DropoutGenMask's output for {@code shape}: {@code ceil(count / 128) * 16}. */
  public static int maskBytes(List<Integer> shape) {
    long count = new Shape(shape).size();
    return Math.toIntExact((count + 127) / 128 * 16);
  }

  /**
   * DropoutGenMask's output: {@code ceil(count / 128) * 16} bytes whose bits (least significant
   * first) keep an element with probability {@code keepProb}.
   */
  public static Tensor dropoutGenMask(
      List<Integer> shape, double keepProb, java.util.function.DoubleSupplier uniform) {
    long count = new Shape(shape).size();
    int bytes = maskBytes(shape);
    Tensor t = Tensor.zeros(DType.UINT8, Shape.of(bytes));
    for (int b = 0; b < bytes; b++) {
      int v = 0;
      for (int bit = 0; bit < 8; bit++) {
        long e = (long) b * 8 + bit;
        if (e < count && uniform.getAsDouble() < keepProb) {
          v |= 1 << bit;
        }
      }
      t.setLong(b, v);
    }
    return t;
  }
}
