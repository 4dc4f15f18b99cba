package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

// The im2col + GEMM Conv3D against a direct float64 convolution written here, over strides,
// dilations, groups, asymmetric pads and 1x1x1 kernels; both gradients against the adjoint identity
// and central differences of the float64 reference; dtypes and empty dimensions.
class Convolution3dTest {
  private static final NaiveBlas BLAS = new NaiveBlas();
  private static final int[] ONES = {1, 1, 1};

  /** One convolution: input {@code [n, c, dhw]}, weight {@code [o, c/group, k]}. */
  private record Geo(
      int n, int c, int[] dhw, int o, int[] k, int[] pad, int[] stride, int[] dilation, int group) {
    Shape xShape() {
      return Shape.of(n, c, dhw[0], dhw[1], dhw[2]);
    }

    Shape wShape() {
      return Shape.of(o, c / group, k[0], k[1], k[2]);
    }

    /** The output extents, from the formula (independently of the kernel's code). */
    int[] out() {
      int[] r = new int[3];
      for (int a = 0; a < 3; a++) {
        int padded = dhw[a] + pad[2 * a] + pad[2 * a + 1];
        r[a] = Math.floorDiv(padded - dilation[a] * (k[a] - 1) - 1, stride[a]) + 1;
      }
      return r;
    }

    Shape yShape() {
      int[] r = out();
      return Shape.of(n, o, r[0], r[1], r[2]);
    }

    @Override
    public String toString() {
      return "x "
          + xShape()
          + " w "
          + wShape()
          + " pad "
          + Arrays.toString(pad)
          + " stride "
          + Arrays.toString(stride)
          + " dilation "
          + Arrays.toString(dilation)
          + " group "
          + group;
    }
  }

  private static final List<Geo> GEOS =
      List.of(
          // Plain: stride 1, dilation 1, no padding, N = 2.
          new Geo(2, 3, new int[] {5, 6, 4}, 4, new int[] {3, 2, 3}, new int[6], ONES, ONES, 1),
          // Asymmetric pads, mixed strides and dilations, two groups.
          new Geo(
              1,
              4,
              new int[] {7, 6, 7},
              6,
              new int[] {3, 3, 2},
              new int[] {1, 0, 2, 1, 0, 1},
              new int[] {2, 1, 2},
              new int[] {1, 2, 1},
              2),
          // A 1x1x1 kernel (smaller than the stride) with padding.
          new Geo(
              2,
              2,
              new int[] {6, 5, 6},
              3,
              ONES,
              new int[] {1, 1, 0, 0, 1, 0},
              new int[] {2, 2, 2},
              ONES,
              1),
          // Dilation 2 with stride 1 and 2, grouped, N = 2.
          new Geo(
              2,
              4,
              new int[] {6, 7, 5},
              4,
              new int[] {2, 3, 2},
              new int[] {0, 1, 1, 1, 1, 0},
              new int[] {1, 2, 1},
              new int[] {2, 1, 2},
              2),
          // Kernel larger than the stride, every axis padded differently.
          new Geo(
              1,
              2,
              new int[] {9, 8, 7},
              3,
              new int[] {3, 2, 2},
              new int[] {2, 1, 0, 1, 1, 1},
              new int[] {2, 2, 3},
              new int[] {2, 2, 2},
              1),
          // Depthwise: one input channel per group.
          new Geo(
              1,
              3,
              new int[] {4, 5, 4},
              6,
              new int[] {2, 2, 2},
              new int[] {1, 1, 1, 1, 1, 1},
              ONES,
              ONES,
              3));

  private static float[] randomFloats(Random r, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextFloat() * 2 - 1;
    }
    return v;
  }

  private static double[] toDoubles(Tensor t) {
    double[] d = new double[t.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = t.getDouble(i);
    }
    return d;
  }

  /** Direct grouped 3-D convolution in double, zero padding outside the input. */
  private static double[] direct(double[] x, double[] w, Geo g) {
    int[] out = g.out();
    int cg = g.c / g.group;
    int og = g.o / g.group;
    int d = g.dhw[0];
    int h = g.dhw[1];
    int wd = g.dhw[2];
    double[] y = new double[g.n * g.o * out[0] * out[1] * out[2]];
    for (int b = 0; b < g.n; b++) {
      for (int oc = 0; oc < g.o; oc++) {
        int grp = oc / og;
        for (int oz = 0; oz < out[0]; oz++) {
          for (int oy = 0; oy < out[1]; oy++) {
            for (int ox = 0; ox < out[2]; ox++) {
              double s = 0;
              for (int ic = 0; ic < cg; ic++) {
                for (int i = 0; i < g.k[0]; i++) {
                  for (int j = 0; j < g.k[1]; j++) {
                    for (int l = 0; l < g.k[2]; l++) {
                      int z = oz * g.stride[0] - g.pad[0] + i * g.dilation[0];
                      int yy = oy * g.stride[1] - g.pad[2] + j * g.dilation[1];
                      int xx = ox * g.stride[2] - g.pad[4] + l * g.dilation[2];
                      if (z < 0 || z >= d || yy < 0 || yy >= h || xx < 0 || xx >= wd) {
                        continue;
                      }
                      int xc = grp * cg + ic;
                      s +=
                          x[(((b * g.c + xc) * d + z) * h + yy) * wd + xx]
                              * w[(((oc * cg + ic) * g.k[0] + i) * g.k[1] + j) * g.k[2] + l];
                    }
                  }
                }
              }
              y[(((b * g.o + oc) * out[0] + oz) * out[1] + oy) * out[2] + ox] = s;
            }
          }
        }
      }
    }
    return y;
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

  private static Tensor conv(Tensor x, Tensor w, Geo g) {
    return Convolution3d.conv3d(x, w, g.pad, g.stride, g.dilation, g.group, BLAS);
  }

  @Test
  void handCheckedValues() {
    float[] ones = new float[27];
    Arrays.fill(ones, 1f);
    float[] k = new float[8];
    Arrays.fill(k, 1f);
    Tensor x = Tensor.ofFloats(Shape.of(1, 1, 3, 3, 3), ones);
    Tensor w = Tensor.ofFloats(Shape.of(1, 1, 2, 2, 2), k);
    Tensor y = Convolution3d.conv3d(x, w, new int[6], ONES, ONES, 1, BLAS);
    assertEquals(Shape.of(1, 1, 2, 2, 2), y.shape());
    GradCheck.assertValues(new double[] {8, 8, 8, 8, 8, 8, 8, 8}, y, 0);
    // One zero of padding at the head only: the first output plane sees half the kernel.
    Tensor p = Convolution3d.conv3d(x, w, new int[] {1, 0, 0, 0, 0, 0}, ONES, ONES, 1, BLAS);
    assertEquals(Shape.of(1, 1, 3, 2, 2), p.shape());
    GradCheck.assertValues(new double[] {4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8}, p, 0);
  }

  @Test
  void matchesDirectConvolution() {
    Random r = new Random(31);
    for (Geo g : GEOS) {
      Tensor x = Tensor.ofFloats(g.xShape(), randomFloats(r, (int) g.xShape().size()));
      Tensor w = Tensor.ofFloats(g.wShape(), randomFloats(r, (int) g.wShape().size()));
      Tensor y = conv(x, w, g);
      assertEquals(g.yShape(), y.shape(), g.toString());
      assertEquals(
          g.yShape(),
          Convolution3d.outputShape(g.xShape(), g.wShape(), g.pad, g.stride, g.dilation));
      double[] ref = direct(toDoubles(x), toDoubles(w), g);
      for (int i = 0; i < ref.length; i++) {
        assertClose(ref[i], y.getDouble(i), 1e-4, g + " element " + i);
      }
    }
  }

  @Test
  void gradientsSatisfyTheAdjointIdentity() {
    Random r = new Random(32);
    for (Geo g : GEOS) {
      Tensor x = Tensor.ofFloats(g.xShape(), randomFloats(r, (int) g.xShape().size()));
      Tensor w = Tensor.ofFloats(g.wShape(), randomFloats(r, (int) g.wShape().size()));
      Tensor dy = Tensor.ofFloats(g.yShape(), randomFloats(r, (int) g.yShape().size()));
      Tensor dx =
          Convolution3d.conv3dBackpropInput(
              dy, w, g.xShape(), g.pad, g.stride, g.dilation, g.group, BLAS);
      Tensor dw =
          Convolution3d.conv3dBackpropFilter(
              dy, x, g.wShape(), g.pad, g.stride, g.dilation, g.group, BLAS);
      assertEquals(g.xShape(), dx.shape());
      assertEquals(g.wShape(), dw.shape());
      // <conv(x, w), dy> == <x, dx> == <w, dw>: all three are the same bilinear form.
      double lhs = dot(toDoubles(conv(x, w, g)), toDoubles(dy));
      assertClose(lhs, dot(toDoubles(x), toDoubles(dx)), 1e-4, g + " <x, dx>");
      assertClose(lhs, dot(toDoubles(w), toDoubles(dw)), 1e-4, g + " <w, dw>");
    }
  }

  @Test
  void gradientsMatchCentralDifferencesOfTheFloat64Reference() {
    Random r = new Random(33);
    double eps = 1e-3;
    for (Geo g : GEOS) {
      Tensor x = Tensor.ofFloats(g.xShape(), randomFloats(r, (int) g.xShape().size()));
      Tensor w = Tensor.ofFloats(g.wShape(), randomFloats(r, (int) g.wShape().size()));
      Tensor dy = Tensor.ofFloats(g.yShape(), randomFloats(r, (int) g.yShape().size()));
      Tensor dx =
          Convolution3d.conv3dBackpropInput(
              dy, w, g.xShape(), g.pad, g.stride, g.dilation, g.group, BLAS);
      Tensor dw =
          Convolution3d.conv3dBackpropFilter(
              dy, x, g.wShape(), g.pad, g.stride, g.dilation, g.group, BLAS);
      double[] xs = toDoubles(x);
      double[] ws = toDoubles(w);
      double[] dys = toDoubles(dy);
      // The first and last elements (near the padding) and a few random ones.
      for (int t = 0; t < 8; t++) {
        int i = t == 0 ? 0 : t == 1 ? xs.length - 1 : r.nextInt(xs.length);
        double v = xs[i];
        xs[i] = v + eps;
        double plus = dot(direct(xs, ws, g), dys);
        xs[i] = v - eps;
        double minus = dot(direct(xs, ws, g), dys);
        xs[i] = v;
        assertClose((plus - minus) / (2 * eps), dx.getDouble(i), 1e-4, g + " dx[" + i + "]");
        int j = t == 0 ? 0 : t == 1 ? ws.length - 1 : r.nextInt(ws.length);
        v = ws[j];
        ws[j] = v + eps;
        plus = dot(direct(xs, ws, g), dys);
        ws[j] = v - eps;
        minus = dot(direct(xs, ws, g), dys);
        ws[j] = v;
        assertClose((plus - minus) / (2 * eps), dw.getDouble(j), 1e-4, g + " dw[" + j + "]");
      }
    }
  }

  @Test
  void otherFloatTypesAreReturnedInTheirType() {
    Geo g = GEOS.get(1);
    Random r = new Random(34);
    Tensor x32 = Tensor.ofFloats(g.xShape(), randomFloats(r, (int) g.xShape().size()));
    Tensor w32 = Tensor.ofFloats(g.wShape(), randomFloats(r, (int) g.wShape().size()));
    Tensor dy32 = Tensor.ofFloats(g.yShape(), randomFloats(r, (int) g.yShape().size()));
    for (DType t : List.of(DType.FLOAT16, DType.FLOAT64)) {
      Tensor x = x32.astype(t);
      Tensor w = w32.astype(t);
      Tensor dy = dy32.astype(t);
      Tensor y = conv(x, w, g);
      Tensor dx =
          Convolution3d.conv3dBackpropInput(
              dy, w, g.xShape(), g.pad, g.stride, g.dilation, g.group, BLAS);
      Tensor dw =
          Convolution3d.conv3dBackpropFilter(
              dy, x, g.wShape(), g.pad, g.stride, g.dilation, g.group, BLAS);
      assertEquals(t, y.dtype());
      assertEquals(t, dx.dtype());
      assertEquals(t, dw.dtype());
      double[] ref = direct(toDoubles(x), toDoubles(w), g);
      double tol = t == DType.FLOAT16 ? 2e-3 : 1e-4;
      for (int i = 0; i < ref.length; i++) {
        assertClose(ref[i], y.getDouble(i), tol, t + " element " + i);
      }
    }
  }

  @Test
  void emptyDimensionsGiveEmptyOrZeroResults() {
    int[] pad = {1, 0, 0, 1, 1, 1};
    int[] s = {1, 2, 1};
    // No images; no input channels (the sum is empty: zeros); no output channels; an empty
    // spatial axis.
    List<Shape[]> cases =
        List.of(
            new Shape[] {Shape.of(0, 2, 3, 3, 3), Shape.of(2, 2, 2, 2, 2)},
            new Shape[] {Shape.of(2, 0, 3, 3, 3), Shape.of(2, 0, 2, 2, 2)},
            new Shape[] {Shape.of(1, 2, 3, 3, 3), Shape.of(0, 2, 2, 2, 2)},
            new Shape[] {Shape.of(1, 2, 0, 3, 3), Shape.of(2, 2, 1, 2, 2)});
    for (Shape[] c : cases) {
      Tensor x = Tensor.zeros(DType.FLOAT32, c[0]);
      Tensor w = Tensor.zeros(DType.FLOAT32, c[1]);
      for (int i = 0; i < x.size(); i++) {
        x.setDouble(i, 1);
      }
      for (int i = 0; i < w.size(); i++) {
        w.setDouble(i, 1);
      }
      Tensor y = Convolution3d.conv3d(x, w, pad, s, ONES, 1, BLAS);
      assertEquals(Convolution3d.outputShape(c[0], c[1], pad, s, ONES), y.shape());
      Tensor dy = Tensor.zeros(DType.FLOAT32, y.shape());
      for (int i = 0; i < dy.size(); i++) {
        dy.setDouble(i, 1);
      }
      Tensor dx = Convolution3d.conv3dBackpropInput(dy, w, c[0], pad, s, ONES, 1, BLAS);
      Tensor dw = Convolution3d.conv3dBackpropFilter(dy, x, c[1], pad, s, ONES, 1, BLAS);
      assertEquals(c[0], dx.shape());
      assertEquals(c[1], dw.shape());
      // Whatever the empty dimension, every sum is empty or over padding only.
      for (Tensor t : List.of(y, dx, dw)) {
        for (int i = 0; i < t.size(); i++) {
          assertEquals(0.0, t.getDouble(i), c[0] + " / " + c[1]);
        }
      }
    }
  }

  @Test
  void rejectsBadShapes() {
    Tensor x4 = Tensor.zeros(DType.FLOAT32, Shape.of(1, 2, 4, 4));
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(1, 2, 4, 4, 4));
    Tensor w = Tensor.zeros(DType.FLOAT32, Shape.of(2, 2, 3, 3, 3));
    MsException rank =
        assertThrows(
            MsException.class, () -> Convolution3d.conv3d(x4, w, new int[6], ONES, ONES, 1, BLAS));
    assertEquals(MsException.Kind.VALUE_ERROR, rank.kind());
    assertEquals(
        "For 'Conv3D', the dimension of 'x' and 'weight' must be 5, but got 4 and 5.",
        rank.getMessage());
    // Channels that do not match the group, a kernel larger than the padded input, a short pad.
    assertThrows(
        MsException.class, () -> Convolution3d.conv3d(x, w, new int[6], ONES, ONES, 2, BLAS));
    Tensor big = Tensor.zeros(DType.FLOAT32, Shape.of(2, 2, 5, 3, 3));
    assertThrows(
        MsException.class, () -> Convolution3d.conv3d(x, big, new int[6], ONES, ONES, 1, BLAS));
    assertThrows(
        MsException.class, () -> Convolution3d.conv3d(x, w, new int[4], ONES, ONES, 1, BLAS));
    // dout of the wrong shape.
    Tensor dy = Tensor.zeros(DType.FLOAT32, Shape.of(1, 2, 3, 3, 3));
    assertThrows(
        MsException.class,
        () -> Convolution3d.conv3dBackpropInput(dy, w, x.shape(), new int[6], ONES, ONES, 1, BLAS));
    Tensor i = Tensor.zeros(DType.INT32, Shape.of(1, 2, 4, 4, 4));
    MsException t =
        assertThrows(
            MsException.class, () -> Convolution3d.conv3d(i, w, new int[6], ONES, ONES, 1, BLAS));
    assertEquals(MsException.Kind.TYPE_ERROR, t.kind());
  }
}
