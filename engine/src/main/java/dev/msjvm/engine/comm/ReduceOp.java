package dev.msjvm.engine.comm;

/**
 * The reduction a collective applies element-wise, named as MindSpore's {@code ops.ReduceOp}.
 *
 * <p>Invariant: every reduction is a left fold in ascending group-rank order, {@code ((x0 op x1) op
 * x2) ...}, never in arrival order, so float results are bitwise identical on every rank and every
 * run. Example: {@code SUM} over ranks holding {@code 1e8f, 1f, -1e8f} gives {@code 0f} (not {@code
 * 1f}) every time. {@code MAX}/{@code MIN} follow {@link Math#max(float, float)}: NaN wins and
 * {@code -0.0f < 0.0f}.
 */
public enum ReduceOp {
  SUM("sum") {
    @Override
    public float apply(float a, float b) {
      return a + b;
    }

    @Override
    void accumulate(float[] acc, float[] src, int srcOffset, int len) {
      for (int i = 0; i < len; i++) {
        acc[i] += src[srcOffset + i];
      }
    }
  },
  MAX("max") {
    @Override
    public float apply(float a, float b) {
      return Math.max(a, b);
    }

    @Override
    void accumulate(float[] acc, float[] src, int srcOffset, int len) {
      for (int i = 0; i < len; i++) {
        acc[i] = Math.max(acc[i], src[srcOffset + i]);
      }
    }
  },
  MIN("min") {
    @Override
    public float apply(float a, float b) {
      return Math.min(a, b);
    }

    @Override
    void accumulate(float[] acc, float[] src, int srcOffset, int len) {
      for (int i = 0; i < len; i++) {
        acc[i] = Math.min(acc[i], src[srcOffset + i]);
      }
    }
  },
  PROD("prod") {
    @Override
    public float apply(float a, float b) {
      return a * b;
    }

    @Override
    void accumulate(float[] acc, float[] src, int srcOffset, int len) {
      for (int i = 0; i < len; i++) {
        acc[i] *= src[srcOffset + i];
      }
    }
  };

  /** Elements reduced per tile: 8 KiB stays in L1 while all sources are folded into it. */
  private static final int TILE = 2048;

  private final String mindsporeName;

  ReduceOp(String mindsporeName) {
    this.mindsporeName = mindsporeName;
  }

  /** MindSpore's spelling, e.g. {@code "sum"} for {@code ReduceOp.SUM}. */
  public String mindsporeName() {
    return mindsporeName;
  }

  /** {@code a op b} for one pair of elements. */
  public abstract float apply(float a, float b);

  /** {@code acc[i] = acc[i] op src[srcOffset + i]} for {@code i < len}; a loop C2 vectorizes. */
  abstract void accumulate(float[] acc, float[] src, int srcOffset, int len);

  /**
   * Folds {@code srcs[q][offs[q] + from + i]} over q = 0..n-1 (in that order) into {@code
   * dst[dstOffset + i]} for {@code i < len}.
   *
   * <p>Works tile by tile through a private buffer, so {@code dst} may alias one of the sources at
   * the same position and each source is streamed once.
   */
  void fold(float[][] srcs, int[] offs, int n, int from, int len, float[] dst, int dstOffset) {
    float[] tile = new float[Math.min(TILE, len)];
    for (int t = 0; t < len; t += TILE) {
      int m = foldTile(srcs, offs, n, from + t, len - t, tile);
      System.arraycopy(tile, 0, dst, dstOffset + t, m);
    }
  }

  /**
   * For {@code i < len}: {@code dsts[q][dstOffs[q] + from + i]} becomes the fold over all p of
   * {@code srcs[p][offs[p] + from + i]}, for every q. Each tile is read from all sources before it
   * is written to all destinations, so a destination may be its own source (an in-place AllReduce);
   * the range must be touched by no one else meanwhile.
   */
  void foldInto(
      float[][] srcs, int[] offs, float[][] dsts, int[] dstOffs, int n, int from, int len) {
    float[] tile = new float[Math.min(TILE, len)];
    for (int t = 0; t < len; t += TILE) {
      int m = foldTile(srcs, offs, n, from + t, len - t, tile);
      for (int q = 0; q < n; q++) {
        System.arraycopy(tile, 0, dsts[q], dstOffs[q] + from + t, m);
      }
    }
  }

  private int foldTile(float[][] srcs, int[] offs, int n, int from, int left, float[] tile) {
    int m = Math.min(tile.length, left);
    System.arraycopy(srcs[0], offs[0] + from, tile, 0, m);
    for (int q = 1; q < n; q++) {
      accumulate(tile, srcs[q], offs[q] + from, m);
    }
    return m;
  }
}
