package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Hand-checked pooling values and central differences (float64 inputs, so the tiny step never
// crosses a tie) for both gradients under VALID/SAME, strides and rectangular kernels.
class PoolingTest {
  private static Tensor seq(int h, int w) {
    float[] v = new float[h * w];
    for (int i = 0; i < v.length; i++) {
      v[i] = i + 1;
    }
    return Tensor.ofFloats(Shape.of(1, 1, h, w), v);
  }

  @Test
  void validWindows() {
    Tensor x = seq(4, 4);
    int[] k = {2, 2};
    GradCheck.assertValues(new double[] {6, 8, 14, 16}, Pooling.maxPool(x, k, k, "VALID"), 0);
    GradCheck.assertValues(
        new double[] {3.5, 5.5, 11.5, 13.5}, Pooling.avgPool(x, k, k, "valid"), 0);
    assertEquals(
        Shape.of(1, 1, 2, 1),
        Pooling.maxPool(x, new int[] {3, 3}, new int[] {1, 2}, "VALID").shape());
  }

  @Test
  void sameWindowsPadBottomRightAndAverageOnlyValidElements() {
    Tensor x = seq(3, 3);
    int[] k = {2, 2};
    int[] s = {1, 1};
    GradCheck.assertValues(
        new double[] {5, 6, 6, 8, 9, 9, 8, 9, 9}, Pooling.maxPool(x, k, s, "SAME"), 0);
    GradCheck.assertValues(
        new double[] {3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9}, Pooling.avgPool(x, k, s, "SAME"), 0);
    // 3x3 kernel, stride 2 on 5x5: total padding 2, one on each side.
    Tensor y = Pooling.avgPool(seq(5, 5), new int[] {3, 3}, new int[] {2, 2}, "SAME");
    assertEquals(Shape.of(1, 1, 3, 3), y.shape());
    assertEquals((1 + 2 + 6 + 7) / 4.0, y.getDouble(0));
  }

  @Test
  void maxPoolGradRoutesToTheFirstMaximum() {
    Tensor x = Tensor.ofFloats(Shape.of(1, 1, 2, 2), new float[] {7, 7, 7, 7});
    Tensor dy = Tensor.ofFloats(Shape.of(1, 1, 1, 1), new float[] {3});
    int[] k = {2, 2};
    GradCheck.assertValues(new double[] {3, 0, 0, 0}, Pooling.maxPoolGrad(x, dy, k, k, "VALID"), 0);
  }

  @Test
  void gradientsMatchCentralDifferences() {
    record Case(Shape shape, int[] k, int[] s, String mode) {}
    List<Case> cases =
        List.of(
            new Case(Shape.of(2, 3, 5, 5), new int[] {3, 3}, new int[] {2, 2}, "SAME"),
            new Case(Shape.of(1, 2, 6, 7), new int[] {2, 3}, new int[] {2, 1}, "VALID"),
            new Case(Shape.of(1, 1, 4, 6), new int[] {3, 2}, new int[] {1, 3}, "SAME"),
            new Case(Shape.of(2, 1, 5, 4), new int[] {2, 2}, new int[] {3, 3}, "VALID"));
    long seed = 10;
    for (Case c : cases) {
      Tensor x = GradCheck.random(DType.FLOAT64, c.shape, seed++, -1, 1);
      Tensor y = Pooling.maxPool(x, c.k, c.s, c.mode);
      Tensor dy = GradCheck.random(DType.FLOAT64, y.shape(), seed++, -1, 1);
      GradCheck.check(
          xx -> Pooling.maxPool(xx, c.k, c.s, c.mode),
          x,
          dy,
          Pooling.maxPoolGrad(x, dy, c.k, c.s, c.mode),
          1e-6,
          1e-6);
      GradCheck.check(
          xx -> Pooling.avgPool(xx, c.k, c.s, c.mode),
          x,
          dy,
          Pooling.avgPoolGrad(x, dy, c.k, c.s, c.mode),
          1e-6,
          1e-6);
    }
  }

  @Test
  void errors() {
    Tensor x = seq(2, 2);
    int[] k = {3, 3};
    MsException big = assertThrows(MsException.class, () -> Pooling.maxPool(x, k, k, "VALID"));
    assertEquals(MsException.Kind.VALUE_ERROR, big.kind());
    assertThrows(MsException.class, () -> Pooling.avgPool(x, k, k, "FULL"));
    Tensor i = Tensor.zeros(DType.INT32, Shape.of(1, 1, 2, 2));
    MsException t = assertThrows(MsException.class, () -> Pooling.maxPool(i, k, k, "SAME"));
    assertEquals(MsException.Kind.TYPE_ERROR, t.kind());
  }
}
