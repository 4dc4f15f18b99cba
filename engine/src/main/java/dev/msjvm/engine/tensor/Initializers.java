package dev.msjvm.engine.tensor;

/**
 * The random fills behind {@code mindspore.common.initializer}, reproducing MindSpore 2.10's {@code
 * _random_normal}, {@code _random_uniform} and {@code _truncated_normal}: one {@link RandomPhilox}
 * stream per call (MindSpore draws each call's seed from numpy's global generator, see {@link
 * RandomMt19937#nextOpSeed()}), arithmetic in double on float32 arguments, results rounded to
 * float32. MindSpore splits large buffers over threads with skip-ahead; each thread starts where
 * the previous one stopped, so the values are those of one sequential stream, which is what these
 * methods produce.
 *
 * <p>Example: {@code normal(seed, 6, 0f, 0.01f)} are the six values MindSpore gives a 2x3 {@code
 * Normal()} parameter whose seed was {@code seed}.
 */
public final class Initializers {
  private static final double PI = 3.1415926f; // MindSpore's float constant, widened
  private static final double MIN_UNIT = 1.0e-7f;
  private static final double TWO_POW_32 = 4294967296.0;
  private static final double ROOT_TWO = 1.4142135f; // MindSpore's float constant, widened

  private Initializers() {}

  /**
   * {@code n} normal values by Box-Muller on pairs of mantissa-built units in [0, 1): the cosine
   * branch first, then the sine branch.
   */
  public static float[] normal(long seed, int n, float mean, float sigma) {
    return normal(seed, new int[] {n}, new int[] {0}, new int[] {n}, mean, sigma);
  }

  /** {@code n} uniform values in [a, b): {@code (b - a) * (word / 2^32) + a}. */
  public static float[] uniform(long seed, int n, float a, float b) {
    return uniform(seed, new int[] {n}, new int[] {0}, new int[] {n}, a, b);
  }

  /**
   * {@code n} values of the normal distribution ({@code mean}, {@code sigma}) truncated to [a, b],
   * by inverting the CDF of a uniform draw between CDF(a) and CDF(b).
   */
  public static float[] truncatedNormal(
      long seed, int n, float a, float b, float mean, float sigma) {
    return truncatedNormal(seed, new int[] {n}, new int[] {0}, new int[] {n}, a, b, mean, sigma);
  }

  /**
   * The block of {@link #normal(long, int, float, float)}'s values for a tensor of {@code shape}
   * starting at {@code begin} with {@code length} elements per dimension (row-major), made without
   * the rest: element i uses the pair of words {@code 2 * (i / 2)}, the cosine branch for even i.
   */
  public static float[] normal(
      long seed, int[] shape, int[] begin, int[] length, float mean, float sigma) {
    RandomPhilox g = new RandomPhilox(seed);
    float[] out = new float[count(length)];
    forEachRun(
        shape,
        begin,
        length,
        (first, at, n) -> {
          long i = first & ~1L;
          g.skipTo(i);
          long end = first + n;
          for (; i < end; i += 2) {
            double u1 = Math.max(unitFromMantissa(g.nextInt()), MIN_UNIT);
            double u2 = Math.max(unitFromMantissa(g.nextInt()), MIN_UNIT);
            double x = StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * sigma;
            double y = 2.0 * PI * u2;
            if (i >= first) {
              out[at + (int) (i - first)] = (float) (mean + x * StrictMath.cos(y));
            }
            if (i + 1 >= first && i + 1 < end) {
              out[at + (int) (i + 1 - first)] = (float) (mean + x * StrictMath.sin(y));
            }
          }
        });
    return out;
  }

  /** The block of {@link #uniform(long, int, float, float)}'s values (see the block normal). */
  public static float[] uniform(
      long seed, int[] shape, int[] begin, int[] length, float a, float b) {
    double width = (double) b - (double) a;
    return wordPerElement(seed, shape, begin, length, word -> (float) (width * unit(word) + a));
  }

  /** The block of {@link #truncatedNormal(long, int, float, float, float, float)}'s values. */
  public static float[] truncatedNormal(
      long seed,
      int[] shape,
      int[] begin,
      int[] length,
      float a,
      float b,
      float mean,
      float sigma) {
    if (!(sigma > 0)) {
      throw new IllegalArgumentException("TruncatedNormal: invalid sigma " + sigma + ".");
    }
    double alpha = ((double) a - mean) / sigma;
    double beta = ((double) b - mean) / sigma;
    double cdfA = ErrorFunction.erfc(-alpha / ROOT_TWO) / 2.0;
    double cdfB = ErrorFunction.erfc(-beta / ROOT_TWO) / 2.0;
    return wordPerElement(
        seed,
        shape,
        begin,
        length,
        word -> {
          double p = cdfA + unit(word) * (cdfB - cdfA);
          double x = -erfcInv(2.0 * p) * ROOT_TWO;
          return (float) (mean + x * sigma);
        });
  }

  /** The value of an element from the one stream word it draws. */
  @FunctionalInterface
  private interface FromWord {
    float value(int word);
  }

  /**
   * The block of a fill whose element i is {@code f} of word i of the stream from {@code seed}
   * (uniform and truncated normal: one word per element).
   */
  private static float[] wordPerElement(
      long seed, int[] shape, int[] begin, int[] length, FromWord f) {
    RandomPhilox g = new RandomPhilox(seed);
    float[] out = new float[count(length)];
    forEachRun(
        shape,
        begin,
        length,
        (first, at, n) -> {
          g.skipTo(first);
          for (int k = 0; k < n; k++) {
            out[at + k] = f.value(g.nextInt());
          }
        });
    return out;
  }

  /** One contiguous run of a block: its first element's flat index in the whole tensor. */
  @FunctionalInterface
  private interface Run {
    void fill(long first, int at, int n);
  }

  /**
   * Visits the rows of the block ({@code begin}, {@code length}) of a row-major tensor of {@code
   * shape}: each row's first flat index in the whole tensor, its offset in the block, its length.
   */
  private static void forEachRun(int[] shape, int[] begin, int[] length, Run run) {
    int rank = shape.length;
    if (begin.length != rank || length.length != rank) {
      throw new IllegalArgumentException("a block needs a begin and a length per dimension");
    }
    for (int d = 0; d < rank; d++) {
      if (begin[d] < 0 || length[d] < 0 || begin[d] + length[d] > shape[d]) {
        throw new IllegalArgumentException(
            "block ["
                + begin[d]
                + ", +"
                + length[d]
                + ") outside dimension "
                + d
                + " of "
                + shape[d]);
      }
    }
    int total = count(length);
    if (total == 0) {
      return;
    }
    if (rank == 0) {
      run.fill(0, 0, 1);
      return;
    }
    long[] stride = new long[rank];
    stride[rank - 1] = 1;
    for (int d = rank - 2; d >= 0; d--) {
      stride[d] = stride[d + 1] * shape[d + 1];
    }
    int rowLength = length[rank - 1];
    int[] at = new int[rank - 1]; // the row's index within the block, outer dimensions
    for (int offset = 0; offset < total; offset += rowLength) {
      long first = (long) begin[rank - 1];
      for (int d = 0; d < rank - 1; d++) {
        first += (begin[d] + at[d]) * stride[d];
      }
      run.fill(first, offset, rowLength);
      for (int d = rank - 2; d >= 0; d--) {
        if (++at[d] < length[d]) {
          break;
        }
        at[d] = 0;
      }
    }
  }

  private static int count(int[] length) {
    long n = 1;
    for (int l : length) {
      n *= l;
    }
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a block of " + n + " elements");
    }
    return (int) n;
  }

  /** A float in [0, 1) from the low 23 bits of {@code word} (1.m - 1). */
  static double unitFromMantissa(int word) {
    return Float.intBitsToFloat((word & 0x7fffff) | (127 << 23)) - 1.0f;
  }

  private static double unit(int word) {
    return Integer.toUnsignedLong(word) / TWO_POW_32;
  }

  /** x with erfc(x) = z, z kept inside (0, 2) as MindSpore does (float neighbours of 0 and 2). */
  static double erfcInv(double z) {
    if (z <= 0) {
      z = Math.nextUp(0.0f);
    } else if (z >= 2.0) {
      z = Math.nextDown(2.0f);
    }
    // erfc(x) = z  <=>  x = -Phi^{-1}(z / 2) / sqrt(2).
    double q = z / 2.0;
    double t = normalQuantile(q);
    // Two Halley steps on Phi(t) = q, Phi(t) = erfc(-t / sqrt 2) / 2.
    for (int i = 0; i < 2; i++) {
      double e = 0.5 * ErrorFunction.erfc(-t / Math.sqrt(2.0)) - q;
      double u = e * Math.sqrt(2 * Math.PI) * Math.exp(t * t / 2);
      t = t - u / (1 + t * u / 2);
    }
    return -t / Math.sqrt(2.0);
  }

  /** Acklam's rational approximation of the standard normal quantile (about 1e-9 relative). */
  static double normalQuantile(double p) {
    final double[] a = {
      -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00
    };
    final double[] b = {
      -5.447609879822406e+01,
      1.615858368580409e+02,
      -1.556989798598866e+02,
      6.680131188771972e+01,
      -1.328068155288572e+01
    };
    final double[] c = {
      -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00
    };
    final double[] d = {
      7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00
    };
    double pLow = 0.02425;
    if (p < pLow) {
      double q = Math.sqrt(-2 * Math.log(p));
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p <= 1 - pLow) {
      double q = p - 0.5;
      double r = q * q;
      return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
          * q
          / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    double q = Math.sqrt(-2 * Math.log(1 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
        / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
}
