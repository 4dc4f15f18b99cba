package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Central finite differences for the backward kernels: the numeric gradient of {@code L(x) =
 * sum(f(x) * w)} with respect to {@code x}, accumulated in double, compared with what a backward
 * kernel returns for the upstream gradient {@code w}.
 */
final class GradCheck {
  private GradCheck() {}

  /** A tensor of uniform values in {@code [lo, hi)} from a fixed seed. */
  static Tensor random(DType t, Shape s, long seed, double lo, double hi) {
    SplittableRandom r = new SplittableRandom(seed);
    Tensor x = Tensor.zeros(t, s);
    for (int i = 0; i < x.size(); i++) {
      x.setDouble(i, lo + (hi - lo) * r.nextDouble());
    }
    return x;
  }

  /** {@code sum(a * w)} in double. */
  static double dot(Tensor a, Tensor w) {
    assertEquals(w.shape(), a.shape());
    double s = 0;
    for (int i = 0; i < a.size(); i++) {
      s += a.getDouble(i) * w.getDouble(i);
    }
    return s;
  }

  /** The numeric gradient of {@code sum(f(x) * w)} at {@code x}, with step {@code eps}. */
  static double[] numeric(Function<Tensor, Tensor> f, Tensor x, Tensor w, double eps) {
    double[] g = new double[x.size()];
    for (int i = 0; i < g.length; i++) {
      Tensor plus = x.astype(x.dtype());
      Tensor minus = x.astype(x.dtype());
      double v = x.getDouble(i);
      plus.setDouble(i, v + eps);
      minus.setDouble(i, v - eps);
      // The step actually taken (after rounding to x's type) is what the difference divides by.
      double h = plus.getDouble(i) - minus.getDouble(i);
      g[i] = (dot(f.apply(plus), w) - dot(f.apply(minus), w)) / h;
    }
    return g;
  }

  /** Asserts {@code actual} (a backward kernel's result) matches the numeric gradient. */
  static void check(
      Function<Tensor, Tensor> f, Tensor x, Tensor w, Tensor actual, double eps, double tol) {
    assertEquals(x.shape(), actual.shape());
    double[] expected = numeric(f, x, w, eps);
    for (int i = 0; i < expected.length; i++) {
      double a = actual.getDouble(i);
      assertTrue(
          Math.abs(a - expected[i]) <= tol * (1 + Math.abs(expected[i])),
          "element " + i + ": analytic " + a + " vs numeric " + expected[i]);
    }
  }

  /** Asserts every element of {@code actual} equals {@code expected} within {@code tol}. */
  static void assertValues(double[] expected, Tensor actual, double tol) {
    assertEquals(expected.length, actual.size());
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual.getDouble(i), tol, "element " + i);
    }
  }
}
