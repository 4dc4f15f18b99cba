package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

// MaxPool3D / AvgPool3D against a direct float64 pooling written here (every divisor rule,
// ceil-mode
// windows past the padded end, windows wholly in the padding); the max gradient against central
// differences on inputs without ties, the average gradient against the adjoint identity and
// central differences; dtypes, NaN and empty dimensions.
class Pooling3dTest {
  private static final int[] ONES = {1, 1, 1};

  /** One pooling: input shape, kernel, strides, 6 pads and the output size the caller chose. */
  private record Geo(Shape x, int[] k, int[] s, int[] pad, int[] out) {
    Shape yShape() {
      return Shape.of(x.dim(0), x.dim(1), out[0], out[1], out[2]);
    }

    @Override
    public String toString() {
      return "x "
          + x
          + " kernel "
          + Arrays.toString(k)
          + " strides "
          + Arrays.toString(s)
          + " pad "
          + Arrays.toString(pad)
          + " out "
          + Arrays.toString(out);
    }
  }

  private static final List<Geo> GEOS =
      List.of(
          // Non-overlapping 2x2x2 windows, N = 2.
          new Geo(
              Shape.of(2, 2, 4, 4, 6),
              new int[] {2, 2, 2},
              new int[] {2, 2, 2},
              new int[6],
              new int[] {2, 2, 3}),
          // Overlapping windows (kernel larger than the stride) with asymmetric padding.
          new Geo(
              Shape.of(1, 3, 5, 6, 5),
              new int[] {3, 2, 3},
              new int[] {2, 1, 2},
              new int[] {1, 0, 1, 1, 0, 1},
              new int[] {2, 7, 2}),
          // Ceil mode: the last window of each axis starts inside the input or padding and runs
          // past
          // the padded end (D: 6 + 1 + 1 with k 3, s 2 gives 4 windows, the last covering 5..7).
          new Geo(
              Shape.of(2, 1, 6, 5, 4),
              new int[] {3, 3, 2},
              new int[] {2, 2, 3},
              new int[] {1, 1, 1, 0, 0, 1},
              new int[] {4, 3, 2}),
          // Kernel smaller than the stride, and a last window wholly in the tail padding along W.
          new Geo(
              Shape.of(1, 2, 5, 4, 4),
              new int[] {1, 2, 1},
              new int[] {2, 3, 2},
              new int[] {0, 0, 1, 0, 0, 2},
              new int[] {3, 2, 3}),
          // A 1x1x1 window.
          new Geo(Shape.of(1, 2, 2, 3, 2), ONES, ONES, new int[6], new int[] {2, 3, 2}));

  /** Distinct values (multiples of 1/64, exact in float16) in random order: no ties anywhere. */
  private static Tensor distinct(Shape s, long seed) {
    int n = (int) s.size();
    List<Integer> perm = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      perm.add(i);
    }
    Collections.shuffle(perm, new Random(seed));
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (perm.get(i) - n / 2) / 64f;
    }
    return Tensor.ofFloats(s, v);
  }

  private static Tensor random(Shape s, Random r) {
    float[] v = new float[(int) s.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = r.nextFloat() * 2 - 1;
    }
    return Tensor.ofFloats(s, v);
  }

  private static double[] toDoubles(Tensor t) {
    double[] d = new double[t.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = t.getDouble(i);
    }
    return d;
  }

  private static double dot(double[] a, double[] b) {
    assertEquals(a.length, b.length);
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static void assertClose(double expected, double actual, double tol, String what) {
    assertTrue(
        Math.abs(actual - expected) <= tol * (1 + Math.abs(expected)),
        what + ": expected " + expected + " but got " + actual);
  }

  /** Which pooling the reference computes: max, or average with its divisor rule. */
  private record Mode(boolean max, boolean includePad, int divisorOverride) {}

  private static final List<Mode> AVG_MODES =
      List.of(new Mode(false, false, 0), new Mode(false, true, 0), new Mode(false, false, 5));

  /** Direct pooling in double over every tap of every window. */
  private static double[] direct(double[] x, Geo g, Mode m) {
    int nc = g.x.dim(0) * g.x.dim(1);
    int[] in = {g.x.dim(2), g.x.dim(3), g.x.dim(4)};
    double[] y = new double[nc * g.out[0] * g.out[1] * g.out[2]];
    int o = 0;
    for (int p = 0; p < nc; p++) {
      for (int oz = 0; oz < g.out[0]; oz++) {
        for (int oy = 0; oy < g.out[1]; oy++) {
          for (int ox = 0; ox < g.out[2]; ox++, o++) {
            double best = 0;
            boolean any = false;
            double sum = 0;
            int real = 0;
            int padded = 0;
            for (int i = 0; i < g.k[0]; i++) {
              for (int j = 0; j < g.k[1]; j++) {
                for (int l = 0; l < g.k[2]; l++) {
                  int[] at = {
                    oz * g.s[0] - g.pad[0] + i,
                    oy * g.s[1] - g.pad[2] + j,
                    ox * g.s[2] - g.pad[4] + l
                  };
                  boolean inPadded = true;
                  boolean inReal = true;
                  for (int a = 0; a < 3; a++) {
                    inPadded &= at[a] >= -g.pad[2 * a] && at[a] < in[a] + g.pad[2 * a + 1];
                    inReal &= at[a] >= 0 && at[a] < in[a];
                  }
                  padded += inPadded ? 1 : 0;
                  if (!inReal) {
                    continue;
                  }
                  double v = x[((p * in[0] + at[0]) * in[1] + at[1]) * in[2] + at[2]];
                  real++;
                  sum += v;
                  if (!any || v > best) {
                    best = v;
                    any = true;
                  }
                }
              }
            }
            if (m.max) {
              y[o] = best;
            } else {
              int div = m.divisorOverride > 0 ? m.divisorOverride : m.includePad ? padded : real;
              y[o] = div == 0 ? 0 : sum / div;
            }
          }
        }
      }
    }
    return y;
  }

  private static Tensor pool(Tensor x, Geo g, Mode m) {
    return m.max
        ? Pooling3d.maxPool3d(x, g.k, g.s, g.pad, g.out)
        : Pooling3d.avgPool3d(x, g.k, g.s, g.pad, g.out, m.includePad, m.divisorOverride);
  }

  @Test
  void handCheckedValues() {
    float[] seq = {1, 2, 3, 4, 5, 6, 7, 8};
    Tensor x = Tensor.ofFloats(Shape.of(1, 1, 2, 2, 2), seq);
    int[] k = {2, 2, 2};
    GradCheck.assertValues(new double[] {8}, Pooling3d.maxPool3d(x, k, k, new int[6], ONES), 0);
    GradCheck.assertValues(
        new double[] {4.5}, Pooling3d.avgPool3d(x, k, k, new int[6], ONES, false, 0), 0);
    // W = [2, 4] with one zero of left padding and a 2-wide window: the three divisor rules.
    Tensor w = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 2), new float[] {2, 4});
    int[] kw = {1, 1, 2};
    int[] pad = {0, 0, 0, 0, 1, 0};
    int[] out = {1, 1, 2};
    GradCheck.assertValues(
        new double[] {2, 3}, Pooling3d.avgPool3d(w, kw, ONES, pad, out, false, 0), 0);
    GradCheck.assertValues(
        new double[] {1, 3}, Pooling3d.avgPool3d(w, kw, ONES, pad, out, true, 0), 0);
    GradCheck.assertValues(
        new double[] {0.4, 1.2}, Pooling3d.avgPool3d(w, kw, ONES, pad, out, false, 5), 1e-7);
    Tensor dy = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 2), new float[] {1, 1});
    GradCheck.assertValues(
        new double[] {1.5, 0.5},
        Pooling3d.avgPool3dGrad(w.shape(), dy, kw, ONES, pad, false, 0),
        0);
  }

  @Test
  void forwardMatchesDirectPooling() {
    Random r = new Random(41);
    for (Geo g : GEOS) {
      Tensor x = random(g.x, r);
      double[] xs = toDoubles(x);
      List<Mode> modes = new ArrayList<>(AVG_MODES);
      modes.add(new Mode(true, false, 0));
      for (Mode m : modes) {
        Tensor y = pool(x, g, m);
        assertEquals(g.yShape(), y.shape());
        double[] ref = direct(xs, g, m);
        for (int i = 0; i < ref.length; i++) {
          assertClose(ref[i], y.getDouble(i), 1e-5, g + " " + m + " element " + i);
        }
      }
    }
  }

  @Test
  void maxGradientMatchesCentralDifferences() {
    long seed = 42;
    Mode max = new Mode(true, false, 0);
    Random r = new Random(seed);
    double eps = 1e-3; // well under the 1/64 spacing of the inputs: no argmax changes
    for (Geo g : GEOS) {
      Tensor x = distinct(g.x, seed++);
      Tensor dy = random(g.yShape(), r);
      Tensor dx = Pooling3d.maxPool3dGrad(x, dy, g.k, g.s, g.pad);
      assertEquals(g.x, dx.shape());
      double[] xs = toDoubles(x);
      double[] dys = toDoubles(dy);
      for (int i = 0; i < xs.length; i++) {
        double v = xs[i];
        xs[i] = v + eps;
        double plus = dot(direct(xs, g, max), dys);
        xs[i] = v - eps;
        double minus = dot(direct(xs, g, max), dys);
        xs[i] = v;
        assertClose((plus - minus) / (2 * eps), dx.getDouble(i), 1e-5, g + " dx[" + i + "]");
      }
    }
  }

  @Test
  void averageGradientIsTheAdjointAndMatchesCentralDifferences() {
    Random r = new Random(43);
    double eps = 1e-3;
    for (Geo g : GEOS) {
      for (Mode m : AVG_MODES) {
        Tensor x = random(g.x, r);
        Tensor dy = random(g.yShape(), r);
        Tensor dx =
            Pooling3d.avgPool3dGrad(g.x, dy, g.k, g.s, g.pad, m.includePad, m.divisorOverride);
        assertEquals(g.x, dx.shape());
        double[] xs = toDoubles(x);
        double[] dys = toDoubles(dy);
        // Average pooling is linear: <pool(x), dy> == <x, grad(dy)>.
        assertClose(dot(toDoubles(pool(x, g, m)), dys), dot(xs, toDoubles(dx)), 1e-5, g + " " + m);
        for (int t = 0; t < 6; t++) {
          int i = t == 0 ? 0 : t == 1 ? xs.length - 1 : r.nextInt(xs.length);
          double v = xs[i];
          xs[i] = v + eps;
          double plus = dot(direct(xs, g, m), dys);
          xs[i] = v - eps;
          double minus = dot(direct(xs, g, m), dys);
          xs[i] = v;
          assertClose(
              (plus - minus) / (2 * eps), dx.getDouble(i), 1e-5, g + " " + m + " dx[" + i + "]");
        }
      }
    }
  }

  @Test
  void maxGradientGoesToTheFirstMaximumAndSkipsEmptyWindows() {
    // Four equal values under one 1x2x2 window: the first in scan order takes the gradient.
    Tensor x = Tensor.ofFloats(Shape.of(1, 1, 1, 2, 2), new float[] {7, 7, 7, 7});
    Tensor dy = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 1), new float[] {3});
    int[] k = {1, 2, 2};
    GradCheck.assertValues(
        new double[] {3, 0, 0, 0}, Pooling3d.maxPool3dGrad(x, dy, k, k, new int[6]), 0);
    // W = 2 with two zeros of tail padding, kernel 1, stride 2: the second window (W = 2) holds
    // only padding, so it outputs 0 (for max and every average) and passes no gradient.
    Tensor v = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 2), new float[] {-5, 9});
    int[] s = {1, 1, 2};
    int[] pad = {0, 0, 0, 0, 0, 2};
    int[] out = {1, 1, 2};
    GradCheck.assertValues(new double[] {-5, 0}, Pooling3d.maxPool3d(v, ONES, s, pad, out), 0);
    GradCheck.assertValues(
        new double[] {-5, 0}, Pooling3d.avgPool3d(v, ONES, s, pad, out, false, 0), 0);
    GradCheck.assertValues(
        new double[] {-5, 0}, Pooling3d.avgPool3d(v, ONES, s, pad, out, true, 0), 0);
    Tensor g = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 2), new float[] {2, 10});
    GradCheck.assertValues(new double[] {2, 0}, Pooling3d.maxPool3dGrad(v, g, ONES, s, pad), 0);
    GradCheck.assertValues(
        new double[] {2, 0}, Pooling3d.avgPool3dGrad(v.shape(), g, ONES, s, pad, true, 0), 0);
  }

  @Test
  void nanIsKeptOnlyWhenItComesFirst() {
    Tensor x = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 4), new float[] {1, Float.NaN, Float.NaN, 3});
    int[] k = {1, 1, 2};
    int[] out = {1, 1, 2};
    Tensor y = Pooling3d.maxPool3d(x, k, k, new int[6], out);
    assertEquals(1.0, y.getDouble(0));
    assertTrue(Double.isNaN(y.getDouble(1)));
  }

  @Test
  void otherFloatTypesAreReturnedInTheirType() {
    Geo g = GEOS.get(1);
    Tensor x32 = distinct(g.x, 44);
    Tensor dy32 = random(g.yShape(), new Random(45));
    for (DType t : List.of(DType.FLOAT16, DType.FLOAT64)) {
      Tensor x = x32.astype(t);
      Tensor dy = dy32.astype(t);
      Tensor mx = Pooling3d.maxPool3d(x, g.k, g.s, g.pad, g.out);
      Tensor av = Pooling3d.avgPool3d(x, g.k, g.s, g.pad, g.out, true, 0);
      Tensor dmx = Pooling3d.maxPool3dGrad(x, dy, g.k, g.s, g.pad);
      Tensor dav = Pooling3d.avgPool3dGrad(g.x, dy, g.k, g.s, g.pad, true, 0);
      for (Tensor r : List.of(mx, av, dmx, dav)) {
        assertEquals(t, r.dtype());
      }
      // The inputs are exact in float16, so the maxima are exact.
      GradCheck.assertValues(direct(toDoubles(x32), g, new Mode(true, false, 0)), mx, 0);
    }
  }

  @Test
  void emptyDimensionsDoNotCrash() {
    int[] k = {2, 2, 2};
    for (Shape s : List.of(Shape.of(0, 2, 4, 4, 4), Shape.of(1, 0, 4, 4, 4))) {
      Tensor x = Tensor.zeros(DType.FLOAT32, s);
      int[] out = {2, 2, 2};
      Shape ys = Shape.of(s.dim(0), s.dim(1), 2, 2, 2);
      assertEquals(ys, Pooling3d.maxPool3d(x, k, k, new int[6], out).shape());
      assertEquals(ys, Pooling3d.avgPool3d(x, k, k, new int[6], out, false, 0).shape());
      Tensor dy = Tensor.zeros(DType.FLOAT32, ys);
      assertEquals(s, Pooling3d.maxPool3dGrad(x, dy, k, k, new int[6]).shape());
      assertEquals(s, Pooling3d.avgPool3dGrad(s, dy, k, k, new int[6], false, 0).shape());
    }
    // An empty spatial axis with an empty output along it.
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(1, 1, 0, 3, 3));
    assertEquals(
        Shape.of(1, 1, 0, 1, 1),
        Pooling3d.maxPool3d(x, new int[] {1, 3, 3}, ONES, new int[6], new int[] {0, 1, 1}).shape());
  }

  @Test
  void rejectsBadArguments() {
    Tensor x4 = Tensor.zeros(DType.FLOAT32, Shape.of(1, 1, 4, 4));
    MsException rank =
        assertThrows(
            MsException.class, () -> Pooling3d.maxPool3d(x4, ONES, ONES, new int[6], ONES));
    assertEquals(MsException.Kind.VALUE_ERROR, rank.kind());
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(1, 1, 4, 4, 4));
    assertThrows(
        MsException.class,
        () -> Pooling3d.avgPool3d(x, new int[] {0, 1, 1}, ONES, new int[6], ONES, false, 0));
    assertThrows(MsException.class, () -> Pooling3d.maxPool3d(x, ONES, ONES, new int[4], ONES));
    Tensor dy = Tensor.zeros(DType.FLOAT32, Shape.of(2, 1, 1, 1, 1));
    assertThrows(MsException.class, () -> Pooling3d.maxPool3dGrad(x, dy, ONES, ONES, new int[6]));
    Tensor i = Tensor.zeros(DType.INT32, Shape.of(1, 1, 4, 4, 4));
    MsException t =
        assertThrows(MsException.class, () -> Pooling3d.maxPool3d(i, ONES, ONES, new int[6], ONES));
    assertEquals(MsException.Kind.TYPE_ERROR, t.kind());
  }
}
