package dev.msjvm.engine.tensor;

/**
 * Special functions behind MindSpore's Igamma, Igammac, IgammaGradA and Zeta, in double precision,
 * with the edge values MindSpore 2.10's CPU kernels give (measured: {@code Igamma(a, 0) == 0}, a
 * non-positive {@code a} or a negative {@code x} gives NaN, {@code Igammac(a, inf)} is NaN, {@code
 * Zeta(x, q)} is inf at {@code x == 1} and at non-positive integer {@code q}, NaN for {@code x <
 * 1}).
 *
 * <p>Algorithms are the textbook ones: the regularized incomplete gamma function by its power
 * series for {@code x < a + 1} and by its continued fraction (modified Lentz) otherwise; its
 * derivative in {@code a} by carrying a derivative through the same iterations (forward-mode,
 * {@link Dual}); log-gamma by Lanczos' approximation (g = 7, 9 terms), digamma by recurrence to
 * {@code x >= 6} and its asymptotic series; the Hurwitz zeta function by Euler-Maclaurin summation
 * (as Cephes' {@code zeta}). Example: {@code igamma(1, 1) == 1 - exp(-1)}.
 */
public final class SpecialFunctions {
  private SpecialFunctions() {}

  private static final double EPS = 1e-16;
  private static final int MAX_ITER = 10_000;

  private static final double[] LANCZOS = {
    0.99999999999980993,
    676.5203681218851,
    -1259.1392167224028,
    771.32342877765313,
    -176.61502916214059,
    12.507343278686905,
    -0.13857109526572012,
    9.9843695780195716e-6,
    1.5056327351493116e-7
  };

  /** log |Gamma(x)|. */
  public static double lgamma(double x) {
    if (x == 1 || x == 2) {
      return 0; // exact, where the approximation leaves a rounding error
    }
    if (x < 0.5) {
      // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x)
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
    }
    double z = x - 1;
    double sum = LANCZOS[0];
    double t = z + 7.5;
    for (int i = 1; i < LANCZOS.length; i++) {
      sum += LANCZOS[i] / (z + i);
    }
    return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
  }

  /** The digamma function psi(x) = d/dx log Gamma(x), for x > 0. */
  public static double digamma(double x) {
    double result = 0;
    while (x < 6) {
      result -= 1 / x;
      x += 1;
    }
    double f = 1 / (x * x);
    double series =
        f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
    return result + Math.log(x) - 0.5 / x - series;
  }

  /** A value and its derivative in {@code a}: forward-mode differentiation of the iterations. */
  private record Dual(double v, double d) {
    Dual plus(Dual o) {
      return new Dual(v + o.v, d + o.d);
    }

    Dual times(Dual o) {
      return new Dual(v * o.v, d * o.v + v * o.d);
    }

    Dual over(Dual o) {
      return new Dual(v / o.v, (d * o.v - v * o.d) / (o.v * o.v));
    }

    static Dual of(double v) {
      return new Dual(v, 0);
    }
  }

  /**
   * P(a, x) and dP/da as a dual number, for a > 0, x > 0 finite. {@code upper} asks for Q = 1 - P
   * instead (computed directly where the continued fraction applies, so it keeps its precision).
   */
  private static Dual gamma(double a, double x, boolean upper) {
    // log of x^a e^-x / Gamma(a), and its derivative in a
    Dual logPrefix = new Dual(a * Math.log(x) - x - lgamma(a), Math.log(x) - digamma(a));
    Dual prefix = new Dual(Math.exp(logPrefix.v), Math.exp(logPrefix.v) * logPrefix.d);
    Dual da = new Dual(a, 1);
    if (x < a + 1) {
      // P = prefix * sum_n x^n / (a (a+1) ... (a+n))
      Dual term = Dual.of(1).over(da);
      Dual sum = term;
      for (int n = 1; n < MAX_ITER; n++) {
        term = term.times(Dual.of(x)).over(da.plus(Dual.of(n)));
        sum = sum.plus(term);
        if (Math.abs(term.v) < Math.abs(sum.v) * EPS) {
          break;
        }
      }
      Dual p = prefix.times(sum);
      return upper ? new Dual(1 - p.v, -p.d) : p;
    }
    // Q = prefix * 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)), by the modified Lentz method
    double tiny = 1e-300;
    Dual b = new Dual(x + 1 - a, -1);
    Dual c = Dual.of(1 / tiny);
    Dual d = Dual.of(1).over(b);
    Dual h = d;
    for (int n = 1; n < MAX_ITER; n++) {
      Dual an = new Dual(-n * (n - a), n); // -n (n - a)
      b = b.plus(Dual.of(2));
      d = an.times(d).plus(b);
      if (Math.abs(d.v) < tiny) {
        d = new Dual(tiny, d.d);
      }
      c = b.plus(an.over(c));
      if (Math.abs(c.v) < tiny) {
        c = new Dual(tiny, c.d);
      }
      d = Dual.of(1).over(d);
      Dual delta = d.times(c);
      h = h.times(delta);
      if (Math.abs(delta.v - 1) < EPS) {
        break;
      }
    }
    Dual q = prefix.times(h);
    return upper ? q : new Dual(1 - q.v, -q.d);
  }

  /** Where the incomplete gamma functions are NaN: a NaN, a non-positive or infinite a, x < 0. */
  private static boolean outsideDomain(double a, double x) {
    return Double.isNaN(a) || Double.isNaN(x) || a <= 0 || x < 0 || Double.isInfinite(a);
  }

  /** The regularized lower incomplete gamma function P(a, x) (MindSpore's Igamma). */
  public static double igamma(double a, double x) {
    if (outsideDomain(a, x)) {
      return Double.NaN;
    }
    if (x == 0) {
      return 0;
    }
    if (Double.isInfinite(x)) {
      return 1;
    }
    return gamma(a, x, false).v;
  }

  /** The regularized upper incomplete gamma function Q(a, x) (MindSpore's Igammac). */
  public static double igammac(double a, double x) {
    if (outsideDomain(a, x)) {
      return Double.NaN;
    }
    if (x == 0) {
      return 1;
    }
    if (Double.isInfinite(x)) {
      return Double.NaN; // measured on MindSpore 2.10's CPU kernel
    }
    return gamma(a, x, true).v;
  }

  /** dP(a, x)/da (MindSpore's IgammaGradA). */
  public static double igammaGradA(double a, double x) {
    if (outsideDomain(a, x)) {
      return Double.NaN;
    }
    if (x == 0 || Double.isInfinite(x)) {
      return 0;
    }
    return gamma(a, x, false).d;
  }

  /** dP(a, x)/dx = x^(a-1) e^-x / Gamma(a): Igamma's gradient in x. */
  public static double igammaGradX(double a, double x) {
    if (x <= 0 || a <= 0) {
      return x == 0 && a == 1 ? 1 : x == 0 && a > 1 ? 0 : Double.NaN;
    }
    return Math.exp((a - 1) * Math.log(x) - x - lgamma(a));
  }

  private static final double[] EULER_MACLAURIN = {
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18
  };

  /** The Hurwitz zeta function sum_{k >= 0} (k + q)^-x (MindSpore's Zeta(x, q)). */
  public static double zeta(double x, double q) {
    if (Double.isNaN(x) || Double.isNaN(q)) {
      return Double.NaN;
    }
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (x < 1) {
      return Double.NaN;
    }
    if (q <= 0) {
      if (q == Math.floor(q)) {
        return Double.POSITIVE_INFINITY;
      }
      if (x != Math.floor(x)) {
        return Double.NaN; // q^-x is not real
      }
    }
    double s = Math.pow(q, -x);
    double a = q;
    double b = 0;
    int i = 0;
    while (i < 9 || a <= 9) {
      i++;
      a += 1;
      b = Math.pow(a, -x);
      s += b;
      if (Math.abs(b / s) < EPS) {
        return s;
      }
    }
    double w = a;
    s += b * w / (x - 1);
    s -= 0.5 * b;
    double f = 1;
    double k = 0;
    for (int j = 0; j < EULER_MACLAURIN.length; j++) {
      f *= x + k;
      b /= w;
      double t = f * b / EULER_MACLAURIN[j];
      s += t;
      if (Math.abs(t / s) < EPS) {
        return s;
      }
      k += 1;
      f *= x + k;
      b /= w;
      k += 1;
    }
    return s;
  }

  /** Greatest common divisor, non-negative (gcd(0, 0) == 0). */
  public static long gcd(long a, long b) {
    a = Math.abs(a);
    b = Math.abs(b);
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  /** Least common multiple, non-negative; 0 when either is 0. */
  public static long lcm(long a, long b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    return Math.abs(a / gcd(a, b) * b);
  }
}
