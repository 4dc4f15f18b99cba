package dev.msjvm.engine.tensor;

/**
 * The error function and its complement in double (the JDK has neither): below 2 the series {@code
 * erf(x) = 2/sqrt(pi) exp(-x^2) sum (2x^2)^k x / (1*3*...*(2k+1))}, whose terms are all positive
 * (no cancellation), above it erfc's continued fraction by Lentz's method. The {@code Erf} operator
 * rounds {@link #erf} once to the tensor's type; truncated-normal fills invert {@link #erfc}.
 */
final class ErrorFunction {
  private ErrorFunction() {}

  /** erf(x), to a few units in the 16th digit. */
  static double erf(double x) {
    if (Double.isNaN(x)) {
      return x;
    }
    double a = Math.abs(x);
    return a < 2.0 ? Math.signum(x) * seriesErf(a) : Math.signum(x) * (1.0 - erfc(a));
  }

  /** The complementary error function, to about 1e-13 relative. */
  static double erfc(double x) {
    if (Double.isNaN(x)) {
      return x;
    }
    if (x < 0) {
      return 2.0 - erfc(-x);
    }
    if (x < 2.0) {
      return 1.0 - seriesErf(x);
    }
    if (x > 27.3) {
      return 0.0;
    }
    // Lentz's method on erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
    double tiny = 1e-300;
    double f = x;
    double c = x;
    double d = 0;
    for (int k = 1; k < 5000; k++) {
      double ak = k / 2.0;
      d = x + ak * d;
      d = 1.0 / (Math.abs(d) < tiny ? tiny : d);
      c = x + ak / c;
      if (Math.abs(c) < tiny) {
        c = tiny;
      }
      double delta = c * d;
      f *= delta;
      if (Math.abs(delta - 1.0) < 1e-16) {
        break;
      }
    }
    return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
  }

  /** erf(x) for 0 <= x < 2 by the positive series. */
  private static double seriesErf(double x) {
    double term = x;
    double sum = x;
    double x2 = 2 * x * x;
    for (int k = 1; k < 200; k++) {
      term *= x2 / (2 * k + 1);
      sum += term;
      if (term < sum * 1e-17) {
        break;
      }
    }
    return 2.0 / Math.sqrt(Math.PI) * Math.exp(-x * x) * sum;
  }
}
