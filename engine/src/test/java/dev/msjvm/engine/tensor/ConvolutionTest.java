package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Hand-checked values, a direct (non-GEMM) convolution as the oracle, and central differences for
// both gradients under stride, padding and dilation.
class ConvolutionTest {
  private static final NaiveBlas BLAS = new NaiveBlas();
  private static final int[] NO_PAD = {0, 0, 0, 0};
  private static final int[] ONE = {1, 1};

  private record Config(String mode, int[] pad, int[] stride, int[] dilation) {}

  private static final List<Config> CONFIGS =
      List.of(
          new Config("valid", NO_PAD, ONE, ONE),
          new Config("same", NO_PAD, new int[] {2, 2}, ONE),
          new Config("pad", new int[] {1, 0, 2, 1}, new int[] {2, 1}, new int[] {2, 1}),
          new Config("same", NO_PAD, new int[] {1, 3}, new int[] {1, 2}));

  private static Tensor conv(Tensor x, Tensor w, Config c) {
    return Convolution.conv2d(x, w, c.mode, c.pad, c.stride, c.dilation, 1, BLAS);
  }

  /** Direct convolution in double, with MindSpore's output size and padding rules. */
  private static double[] direct(Tensor x, Tensor w, Config c, int oh, int ow) {
    int n = x.shape().dim(0);
    int ch = x.shape().dim(1);
    int h = x.shape().dim(2);
    int wd = x.shape().dim(3);
    int o = w.shape().dim(0);
    int kh = w.shape().dim(2);
    int kw = w.shape().dim(3);
    int pt = c.pad[0];
    int pl = c.pad[2];
    if (c.mode.equals("same")) {
      pt = Math.max(0, (oh - 1) * c.stride[0] + c.dilation[0] * (kh - 1) + 1 - h) / 2;
      pl = Math.max(0, (ow - 1) * c.stride[1] + c.dilation[1] * (kw - 1) + 1 - wd) / 2;
    }
    double[] out = new double[n * o * oh * ow];
    for (int b = 0; b < n; b++) {
      for (int oc = 0; oc < o; oc++) {
        for (int oy = 0; oy < oh; oy++) {
          for (int ox = 0; ox < ow; ox++) {
            double s = 0;
            for (int ic = 0; ic < ch; ic++) {
              for (int i = 0; i < kh; i++) {
                for (int j = 0; j < kw; j++) {
                  int y = oy * c.stride[0] - pt + i * c.dilation[0];
                  int xx = ox * c.stride[1] - pl + j * c.dilation[1];
                  if (y >= 0 && y < h && xx >= 0 && xx < wd) {
                    s +=
                        x.getDouble(((b * ch + ic) * h + y) * wd + xx)
                            * w.getDouble(((oc * ch + ic) * kh + i) * kw + j);
                  }
                }
              }
            }
            out[((b * o + oc) * oh + oy) * ow + ox] = s;
          }
        }
      }
    }
    return out;
  }

  @Test
  void handCheckedValues() {
    Tensor ones = Tensor.ofFloats(Shape.of(1, 1, 3, 3), new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1});
    Tensor k = Tensor.ofFloats(Shape.of(1, 1, 2, 2), new float[] {1, 1, 1, 1});
    Tensor y = Convolution.conv2d(ones, k, "valid", NO_PAD, ONE, ONE, 1, BLAS);
    assertEquals(Shape.of(1, 1, 2, 2), y.shape());
    GradCheck.assertValues(new double[] {4, 4, 4, 4}, y, 0);
    // 'same' on 3x3 with a 2x2 kernel pads only bottom/right (total 1: top gets 0).
    Tensor s = Convolution.conv2d(ones, k, "SAME", NO_PAD, ONE, ONE, 1, BLAS);
    GradCheck.assertValues(new double[] {4, 4, 2, 4, 4, 2, 2, 2, 1}, s, 0);
    float[] seq = new float[16];
    for (int i = 0; i < 16; i++) {
      seq[i] = i + 1;
    }
    Tensor x = Tensor.ofFloats(Shape.of(1, 1, 4, 4), seq);
    Tensor diff = Tensor.ofFloats(Shape.of(1, 1, 2, 2), new float[] {1, 0, 0, -1});
    Tensor d = Convolution.conv2d(x, diff, "valid", NO_PAD, new int[] {2, 2}, ONE, 1, BLAS);
    GradCheck.assertValues(new double[] {-5, -5, -5, -5}, d, 0);
  }

  @Test
  void matchesDirectConvolutionForEveryConfig() {
    for (Shape xs : List.of(Shape.of(2, 3, 7, 6), Shape.of(1, 2, 5, 9))) {
      Tensor x = GradCheck.random(DType.FLOAT32, xs, 1, -1, 1);
      Tensor w = GradCheck.random(DType.FLOAT32, Shape.of(4, xs.dim(1), 3, 2), 2, -1, 1);
      for (Config c : CONFIGS) {
        Tensor y = conv(x, w, c);
        double[] ref = direct(x, w, c, y.shape().dim(2), y.shape().dim(3));
        GradCheck.assertValues(ref, y, 1e-5);
      }
    }
  }

  @Test
  void outputSizesFollowMindSporesRules() {
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(1, 1, 7, 7));
    Tensor w = Tensor.zeros(DType.FLOAT32, Shape.of(1, 1, 3, 3));
    int[] s2 = {2, 2};
    int[] d2 = {2, 2};
    assertEquals(
        Shape.of(1, 1, 3, 3), Convolution.conv2d(x, w, "valid", NO_PAD, s2, ONE, 1, BLAS).shape());
    assertEquals(
        Shape.of(1, 1, 2, 2), Convolution.conv2d(x, w, "valid", NO_PAD, s2, d2, 1, BLAS).shape());
    assertEquals(
        Shape.of(1, 1, 4, 4), Convolution.conv2d(x, w, "same", NO_PAD, s2, d2, 1, BLAS).shape());
    assertEquals(
        Shape.of(1, 1, 4, 3),
        Convolution.conv2d(x, w, "pad", new int[] {1, 1, 0, 0}, s2, ONE, 1, BLAS).shape());
  }

  @Test
  void gradientsMatchCentralDifferences() {
    for (Shape xs : List.of(Shape.of(2, 2, 6, 5), Shape.of(1, 3, 5, 7))) {
      Tensor x = GradCheck.random(DType.FLOAT32, xs, 3, -1, 1);
      Shape wShape = Shape.of(3, xs.dim(1), 2, 3);
      Tensor w = GradCheck.random(DType.FLOAT32, wShape, 4, -1, 1);
      for (Config c : CONFIGS) {
        Tensor y = conv(x, w, c);
        Tensor dy = GradCheck.random(DType.FLOAT32, y.shape(), 5, -1, 1);
        Tensor dx =
            Convolution.conv2dBackpropInput(
                dy, w, xs, c.mode, c.pad, c.stride, c.dilation, 1, BLAS);
        Tensor dw =
            Convolution.conv2dBackpropFilter(
                dy, x, wShape, c.mode, c.pad, c.stride, c.dilation, 1, BLAS);
        // Convolution is linear in each argument, so a large step loses nothing but rounding.
        GradCheck.check(xx -> conv(xx, w, c), x, dy, dx, 1e-1, 2e-4);
        GradCheck.check(ww -> conv(x, ww, c), w, dy, dw, 1e-1, 2e-4);
      }
    }
  }

  @Test
  void otherFloatTypesRoundTrip() {
    Tensor x = Tensor.of(DType.FLOAT16, Shape.of(1, 1, 2, 2), List.of(1.0, 2.0, 3.0, 4.0));
    Tensor w = Tensor.of(DType.FLOAT16, Shape.of(1, 1, 1, 1), List.of(0.5));
    Tensor y = Convolution.conv2d(x, w, "valid", NO_PAD, ONE, ONE, 1, BLAS);
    assertEquals(DType.FLOAT16, y.dtype());
    GradCheck.assertValues(new double[] {0.5, 1, 1.5, 2}, y, 0);
  }

  @Test
  void groupedConvolutionIsOneConvolutionPerChannelGroup() {
    // group 2: input channels 0-1 with filters 0-2, channels 2-3 with filters 3-5; the gradients
    // split the same way. Checked against the two ungrouped convolutions, for every config.
    for (Config c : CONFIGS) {
      Tensor x = GradCheck.random(DType.FLOAT32, Shape.of(2, 4, 7, 6), 11, -1, 1);
      Tensor w = GradCheck.random(DType.FLOAT32, Shape.of(6, 2, 3, 2), 12, -1, 1);
      Tensor y = Convolution.conv2d(x, w, c.mode, c.pad, c.stride, c.dilation, 2, BLAS);
      List<Tensor> xs = Joining.split(x, 1, 2);
      List<Tensor> ws = Joining.split(w, 0, 2);
      Tensor expected =
          Joining.concat(List.of(conv(xs.get(0), ws.get(0), c), conv(xs.get(1), ws.get(1), c)), 1);
      assertEquals(expected.shape(), y.shape());
      GradCheck.assertValues(toDoubles(expected), y, 1e-5);
      Tensor dy = GradCheck.random(DType.FLOAT32, y.shape(), 13, -1, 1);
      List<Tensor> dys = Joining.split(dy, 1, 2);
      Tensor dx =
          Convolution.conv2dBackpropInput(
              dy, w, x.shape(), c.mode, c.pad, c.stride, c.dilation, 2, BLAS);
      Tensor dw =
          Convolution.conv2dBackpropFilter(
              dy, x, w.shape(), c.mode, c.pad, c.stride, c.dilation, 2, BLAS);
      Tensor dxExpected =
          Joining.concat(
              List.of(
                  Convolution.conv2dBackpropInput(
                      dys.get(0),
                      ws.get(0),
                      xs.get(0).shape(),
                      c.mode,
                      c.pad,
                      c.stride,
                      c.dilation,
                      1,
                      BLAS),
                  Convolution.conv2dBackpropInput(
                      dys.get(1),
                      ws.get(1),
                      xs.get(1).shape(),
                      c.mode,
                      c.pad,
                      c.stride,
                      c.dilation,
                      1,
                      BLAS)),
              1);
      Tensor dwExpected =
          Joining.concat(
              List.of(
                  Convolution.conv2dBackpropFilter(
                      dys.get(0),
                      xs.get(0),
                      ws.get(0).shape(),
                      c.mode,
                      c.pad,
                      c.stride,
                      c.dilation,
                      1,
                      BLAS),
                  Convolution.conv2dBackpropFilter(
                      dys.get(1),
                      xs.get(1),
                      ws.get(1).shape(),
                      c.mode,
                      c.pad,
                      c.stride,
                      c.dilation,
                      1,
                      BLAS)),
              0);
      GradCheck.assertValues(toDoubles(dxExpected), dx, 1e-5);
      GradCheck.assertValues(toDoubles(dwExpected), dw, 1e-5);
    }
  }

  private static double[] toDoubles(Tensor t) {
    float[] f = t.floats();
    double[] d = new double[f.length];
    for (int i = 0; i < f.length; i++) {
      d[i] = f[i];
    }
    return d;
  }

  @Test
  void rejectsUnsupportedArguments() {
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(1, 2, 4, 4));
    Tensor w = Tensor.zeros(DType.FLOAT32, Shape.of(3, 1, 3, 3));
    MsException g =
        assertThrows(
            MsException.class, () -> Convolution.conv2d(x, w, "valid", NO_PAD, ONE, ONE, 2, BLAS));
    assertEquals(
        "For 'Conv2D', 'out_channel' must be divisible by 'group', but got 'out_channel': 3 and"
            + " 'group': 2.",
        g.getMessage());
    Tensor w2 = Tensor.zeros(DType.FLOAT32, Shape.of(2, 2, 3, 3));
    assertThrows(
        MsException.class,
        () -> Convolution.conv2d(x, w2, "valid", new int[] {1, 1, 1, 1}, ONE, ONE, 1, BLAS));
    assertThrows(
        MsException.class, () -> Convolution.conv2d(x, w2, "full", NO_PAD, ONE, ONE, 1, BLAS));
    Tensor i = Tensor.zeros(DType.INT32, Shape.of(1, 2, 4, 4));
    MsException t =
        assertThrows(
            MsException.class, () -> Convolution.conv2d(i, w2, "valid", NO_PAD, ONE, ONE, 1, BLAS));
    assertEquals(MsException.Kind.TYPE_ERROR, t.kind());
  }
}
