package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.DType;

/**
 * Scalar kernels, in double precision, of the elementwise operators {@link
 * dev.msjvm.engine.ops.ElementaryOps} declares: the inverse hyperbolic functions, the inverse error
 * function, the modified and ordinary Bessel functions of order 0 and 1, and the remainders and
 * divisions as MindSpore's CPU kernels compute them (their edge values measured on MindSpore 2.10).
 * Written here because the JDK has none of them but {@code atan}, {@code asin} and friends; each is
 * accurate to a few units in the last place of a double, so one rounding to float32 gives the
 * float32 kernels' values.
 *
 * <p>Example: {@code besselI0(1.0)} is {@code 1.2660658777520082}; {@code mod(0, 0)} is {@code 0}
 * (MindSpore's Mod, unlike C's fmod).
 */
public final class ElementaryFunctions {
  private ElementaryFunctions() {}

  /** SeLU's constants (MindSpore's SeLU and its gradient use the same). */
  public static final double SELU_SCALE = 1.0507009873554804934193349852946;

  public static final double SELU_ALPHA = 1.6732632423543772848170429916717;

  public static double asinh(double x) {
    double a = Math.abs(x);
    if (a > 1e150) {
      return Math.copySign(Math.log(a) + Math.log(2), x);
    }
    // log1p keeps the digits near zero: asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2)))
    return Math.copySign(Math.log1p(a + a * a / (1 + Math.sqrt(1 + a * a))), x);
  }

  public static double acosh(double x) {
    if (x < 1) {
      return Double.NaN;
    }
    if (x > 1e150) {
      return Math.log(x) + Math.log(2);
    }
    double t = x - 1;
    return Math.log1p(t + Math.sqrt(t * (x + 1)));
  }

  public static double atanh(double x) {
    if (Math.abs(x) > 1) {
      return Double.NaN;
    }
    return 0.5 * Math.log1p(2 * x / (1 - x));
  }

  /**
   * The inverse error function on [-1, 1] (±inf at ±1, NaN outside): an initial guess from the
   * logarithm of {@code 1 - y^2} (Giles' single-precision form) refined by Newton steps on {@link
   * ErrorFunction#erf}, or on erfc near ±1 where erf has no digits left.
   */
  public static double erfinv(double y) {
    if (Double.isNaN(y) || Math.abs(y) > 1) {
      return Double.NaN;
    }
    if (Math.abs(y) == 1) {
      return Math.copySign(Double.POSITIVE_INFINITY, y);
    }
    if (y == 0) {
      return y;
    }
    double w = -Math.log((1 - y) * (1 + y));
    double x;
    if (w < 5) {
      w -= 2.5;
      double p = 2.81022636e-08;
      p = 3.43273939e-07 + p * w;
      p = -3.5233877e-06 + p * w;
      p = -4.39150654e-06 + p * w;
      p = 0.00021858087 + p * w;
      p = -0.00125372503 + p * w;
      p = -0.00417768164 + p * w;
      p = 0.246640727 + p * w;
      p = 1.50140941 + p * w;
      x = p * y;
    } else {
      w = Math.sqrt(w) - 3;
      double p = -0.000200214257;
      p = 0.000100950558 + p * w;
      p = 0.00134934322 + p * w;
      p = -0.00367342844 + p * w;
      p = 0.00573950773 + p * w;
      p = -0.0076224613 + p * w;
      p = 0.00943887047 + p * w;
      p = 1.00167406 + p * w;
      p = 2.83297682 + p * w;
      x = p * y;
    }
    double a = Math.abs(y);
    double t = Math.abs(x);
    for (int i = 0; i < 4; i++) {
      // erf(t) - a, through erfc near 1 (1 - a is exact there)
      double err = a > 0.5 ? (1 - a) - ErrorFunction.erfc(t) : ErrorFunction.erf(t) - a;
      double step = err / (2 / Math.sqrt(Math.PI) * Math.exp(-t * t));
      t -= step;
      if (Math.abs(step) <= 1e-17 * Math.abs(t)) {
        break;
      }
    }
    return Math.copySign(t, y);
  }

  /** The modified Bessel function of the first kind of order 0. */
  public static double besselI0(double x) {
    double a = Math.abs(x);
    return a <= 20 ? iSeries(0, a) : Math.exp(a) * iAsymptotic(0, a);
  }

  /** {@code exp(-|x|) I0(x)}, without overflow for large |x|. */
  public static double besselI0e(double x) {
    double a = Math.abs(x);
    return a <= 20 ? Math.exp(-a) * iSeries(0, a) : iAsymptotic(0, a);
  }

  /** The modified Bessel function of the first kind of order 1 (odd). */
  public static double besselI1(double x) {
    double a = Math.abs(x);
    double v = a <= 20 ? iSeries(1, a) : Math.exp(a) * iAsymptotic(1, a);
    return Math.copySign(v, x);
  }

  /** {@code exp(-|x|) I1(x)}. */
  public static double besselI1e(double x) {
    double a = Math.abs(x);
    double v = a <= 20 ? Math.exp(-a) * iSeries(1, a) : iAsymptotic(1, a);
    return Math.copySign(v, x);
  }

  /** The Bessel function of the first kind of order 0. */
  public static double besselJ0(double x) {
    double a = Math.abs(x);
    return a <= 12 ? jSeries(0, a) : jAsymptotic(0, a);
  }

  /** The Bessel function of the first kind of order 1 (odd). */
  public static double besselJ1(double x) {
    double a = Math.abs(x);
    double v = a <= 12 ? jSeries(1, a) : jAsymptotic(1, a);
    return x < 0 ? -v : v;
  }

  /** {@code sum_k (a/2)^(2k+nu) / (k! (k+nu)!)}: positive terms, no cancellation. */
  private static double iSeries(int nu, double a) {
    double q = a * a / 4;
    double term = nu == 0 ? 1 : a / 2;
    double sum = term;
    for (int k = 1; k < 500; k++) {
      term *= q / (k * (double) (k + nu));
      sum += term;
      if (term < 1e-17 * sum) {
        break;
      }
    }
    return sum;
  }

  /**
   * {@code exp(-a) I_nu(a)} for large {@code a}: {@code 1/sqrt(2 pi a) sum_k (-1)^k a_k(nu) / a^k},
   * {@code a_k} the products of {@code 4 nu^2 - (2j-1)^2} over {@code k! 8^k}, summed until the
   * terms stop shrinking.
   */
  private static double iAsymptotic(int nu, double a) {
    double mu = 4.0 * nu * nu;
    double term = 1;
    double sum = 1;
    for (int k = 1; k < 60; k++) {
      double next = -term * (mu - (2 * k - 1) * (2 * k - 1)) / (8.0 * k * a);
      if (Math.abs(next) >= Math.abs(term)) {
        break;
      }
      term = next;
      sum += term;
      if (Math.abs(term) < 1e-17 * Math.abs(sum)) {
        break;
      }
    }
    return sum / Math.sqrt(2 * Math.PI * a);
  }

  /** {@code sum_k (-1)^k (a/2)^(2k+nu) / (k! (k+nu)!)} (for {@code a <= 12}). */
  private static double jSeries(int nu, double a) {
    double q = -a * a / 4;
    double term = nu == 0 ? 1 : a / 2;
    double sum = term;
    for (int k = 1; k < 200; k++) {
      term *= q / (k * (double) (k + nu));
      sum += term;
      if (Math.abs(term) < 1e-18 && k > 5) {
        break;
      }
    }
    return sum;
  }

  /**
   * Hankel's expansion for large {@code a}: {@code sqrt(2/(pi a)) (P cos chi - Q sin chi)}, {@code
   * chi = a - (nu/2 + 1/4) pi}.
   */
  private static double jAsymptotic(int nu, double a) {
    double mu = 4.0 * nu * nu;
    double p = 1;
    double q = 0;
    double term = 1;
    for (int k = 1; k < 80; k++) {
      double next = term * (mu - (2 * k - 1) * (2 * k - 1)) / (8.0 * k * a);
      if (Math.abs(next) >= Math.abs(term) && k > 1) {
        break;
      }
      term = next;
      // a_k / a^k with the signs of P (even k: (-1)^(k/2)) and Q (odd k: (-1)^((k-1)/2))
      switch (k % 4) {
        case 1 -> q += term;
        case 2 -> p -= term;
        case 3 -> q -= term;
        default -> p += term;
      }
      if (Math.abs(term) < 1e-17) {
        break;
      }
    }
    double chi = a - (nu / 2.0 + 0.25) * Math.PI;
    return Math.sqrt(2 / (Math.PI * a)) * (p * Math.cos(chi) - q * Math.sin(chi));
  }

  /** {@code x tanh(softplus(x))}. */
  public static double mish(double x) {
    double softplus = x > 20 ? x : Math.log1p(Math.exp(x));
    return x * Math.tanh(softplus);
  }

  /** {@code scale x} for x > 0, {@code scale alpha (e^x - 1)} otherwise. */
  public static double selu(double x) {
    return x > 0 ? SELU_SCALE * x : SELU_SCALE * SELU_ALPHA * Math.expm1(x);
  }

  /**
   * SeLU of an integer as MindSpore's CPU kernel computes it (measured): the positive part scaled
   * and truncated, the negative part's {@code e^x - 1} truncated first (so 0).
   */
  public static long seluInteger(long x) {
    return x > 0
        ? (long) (SELU_SCALE * x)
        : (long) (SELU_SCALE * SELU_ALPHA * (long) Math.expm1(x));
  }

  /** {@code relu6(x + 3) / 6}. */
  public static double hsigmoid(double x) {
    return Math.min(Math.max(x + 3, 0), 6) / 6;
  }

  /**
   * MindSpore's Mod (its CPU kernel): {@code x - q y} with {@code q} the quotient truncated toward
   * zero, where a NaN quotient counts as 0, so {@code mod(0, 0) == 0} and {@code mod(0, inf)} is
   * NaN (C's fmod gives NaN and 0). Example: {@code mod(-7.25, -2) == -1.25}.
   */
  public static double mod(double x, double y) {
    double q = x / y;
    double truncated = (q > 0 ? Math.floor(q) : 0.0) + (q < 0 ? Math.ceil(q) : 0.0);
    return x - truncated * y;
  }

  /** C's fmod: the remainder with the dividend's sign (TruncateMod's float kernel). */
  public static double fmod(double x, double y) {
    return x % y;
  }

  /**
   * TruncateDiv's float kernel (measured): {@code trunc(x / y)}, but a zero divisor gives NaN for a
   * zero dividend and otherwise +inf when {@code x > 0}, -inf else (so NaN / 0 is -inf).
   */
  public static double truncateDiv(double x, double y) {
    if (y == 0) {
      return x == 0 ? Double.NaN : x > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    }
    double q = x / y;
    return q < 0 ? Math.ceil(q) : Math.floor(q);
  }

  /**
   * A double converted to an integer type as MindSpore's x86 kernels convert it ({@code
   * static_cast}): NaN and values out of range give the type's minimum for 32 and 64 bits, and zero
   * for the narrower types (their conversion goes through int32's minimum, whose low bits are
   * zero); values in range truncate.
   */
  public static long castX86(double v, DType t) {
    if (t == DType.INT64) {
      return Double.isNaN(v) || v >= 0x1p63 || v < -0x1p63 ? Long.MIN_VALUE : (long) v;
    }
    long i = Double.isNaN(v) || v >= 0x1p31 || v < -0x1p31 ? Integer.MIN_VALUE : (long) v;
    return t == DType.INT32 ? i : wrap(i, t);
  }

  /** {@code v} wrapped to the integer type {@code t} (two's complement). */
  public static long wrap(long v, DType t) {
    return switch (t) {
      case INT8 -> (byte) v;
      case INT16 -> (short) v;
      case INT32 -> (int) v;
      case UINT8 -> v & 0xff;
      case BOOL -> v != 0 ? 1 : 0;
      default -> v;
    };
  }

  /** {@code v} rounded to float type {@code t} (float16, bfloat16, float32; float64 keeps it). */
  public static double roundTo(double v, DType t) {
    return t.isFloat() && t != DType.FLOAT64 ? Tensor.roundFloat(t, v) : v;
  }

  /** The largest value of integer (or bool) type {@code t}. */
  public static long maxOf(DType t) {
    return switch (t) {
      case BOOL -> 1;
      case UINT8 -> 255;
      case INT8 -> Byte.MAX_VALUE;
      case INT16 -> Short.MAX_VALUE;
      case INT32 -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
  }

  /** The smallest value of integer (or bool) type {@code t}. */
  public static long minOf(DType t) {
    return switch (t) {
      case BOOL, UINT8 -> 0;
      case INT8 -> Byte.MIN_VALUE;
      case INT16 -> Short.MIN_VALUE;
      case INT32 -> Integer.MIN_VALUE;
      default -> Long.MIN_VALUE;
    };
  }
}
