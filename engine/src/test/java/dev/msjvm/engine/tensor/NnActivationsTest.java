package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

// Hand-checked activation gradients, GeLU's tanh approximation, and central differences in float64
// for every gradient kernel on two shapes.
class NnActivationsTest {
  private static final List<Shape> SHAPES = List.of(Shape.of(7), Shape.of(2, 3, 2));

  private static Tensor f32(float... v) {
    return Tensor.ofFloats(Shape.of(v.length), v);
  }

  private static Tensor map(Tensor x, DoubleUnaryOperator f) {
    Tensor y = Tensor.zeros(x.dtype(), x.shape());
    for (int i = 0; i < y.size(); i++) {
      y.setDouble(i, f.applyAsDouble(x.getDouble(i)));
    }
    return y;
  }

  @Test
  void handCheckedGradients() {
    GradCheck.assertValues(new double[] {0, 2}, NnActivations.reluGrad(f32(1, 2), f32(0, 3)), 0);
    GradCheck.assertValues(
        new double[] {0.5, 0}, NnActivations.sigmoidGrad(f32(0.5f, 1), f32(2, 5)), 0);
    GradCheck.assertValues(
        new double[] {0.75, 4}, NnActivations.tanhGrad(f32(0.5f, 0), f32(1, 4)), 0);
  }

  @Test
  void geluIsTheTanhApproximation() {
    Tensor y = NnActivations.gelu(f32(0, 1, -1, 3));
    GradCheck.assertValues(new double[] {0, 0.841192, -0.158808, 2.996363}, y, 1e-6);
    Tensor h = NnActivations.gelu(Tensor.of(DType.FLOAT16, Shape.of(1), List.of(1.0)));
    assertEquals(DType.FLOAT16, h.dtype());
    assertEquals(0.8413, h.getDouble(0), 1e-3);
  }

  @Test
  void elementwiseGradientsMatchCentralDifferences() {
    long seed = 40;
    for (Shape s : SHAPES) {
      Tensor x = GradCheck.random(DType.FLOAT64, s, seed++, -3, 3);
      Tensor dy = GradCheck.random(DType.FLOAT64, s, seed++, -1, 1);
      GradCheck.check(NnActivations::gelu, x, dy, NnActivations.geluGrad(dy, x), 1e-6, 1e-7);
      DoubleUnaryOperator sig = v -> 1 / (1 + Math.exp(-v));
      GradCheck.check(
          xx -> map(xx, sig), x, dy, NnActivations.sigmoidGrad(map(x, sig), dy), 1e-6, 1e-7);
      GradCheck.check(
          xx -> map(xx, Math::tanh),
          x,
          dy,
          NnActivations.tanhGrad(map(x, Math::tanh), dy),
          1e-6,
          1e-7);
      DoubleUnaryOperator relu = v -> Math.max(v, 0);
      GradCheck.check(
          xx -> map(xx, relu), x, dy, NnActivations.reluGrad(dy, map(x, relu)), 1e-6, 1e-7);
    }
  }

  @Test
  void dropoutKeepsScalesAndIsReproducible() {
    Tensor x = GradCheck.random(DType.FLOAT32, Shape.of(100, 50), 1, 1, 2);
    NnActivations.DropoutResult r = NnActivations.dropout(x, 0.8, new SplittableRandom(7));
    int kept = 0;
    for (int i = 0; i < x.size(); i++) {
      double m = r.mask().getDouble(i);
      assertTrue(m == 0 || m == 1);
      kept += (int) m;
      assertEquals(m == 1 ? x.getDouble(i) / 0.8 : 0, r.output().getDouble(i), 1e-6);
    }
    assertTrue(Math.abs(kept / 5000.0 - 0.8) < 0.03, "kept fraction " + kept / 5000.0);
    NnActivations.DropoutResult again = NnActivations.dropout(x, 0.8, new SplittableRandom(7));
    assertEquals(r.mask().toList(), again.mask().toList());
    NnActivations.DropoutResult all = NnActivations.dropout(x, 1.0, new SplittableRandom(7));
    assertEquals(x.toList(), all.output().toList());
    MsException e =
        assertThrows(MsException.class, () -> NnActivations.dropout(x, 0, new SplittableRandom(1)));
    assertEquals(
        "For 'Dropout', the 'keep_prob' must be in range (0, 1], but got 0.0.", e.getMessage());
  }

  @Test
  void dropoutGradMatchesCentralDifferences() {
    long seed = 50;
    for (Shape s : SHAPES) {
      Tensor x = GradCheck.random(DType.FLOAT64, s, seed++, -1, 1);
      Tensor mask = NnActivations.dropout(x, 0.6, new SplittableRandom(seed++)).mask();
      Tensor dy = GradCheck.random(DType.FLOAT64, s, seed++, -1, 1);
      // With the mask fixed, Dropout is x * mask / keep_prob.
      GradCheck.check(
          xx -> {
            Tensor y = Tensor.zeros(xx.dtype(), xx.shape());
            for (int i = 0; i < y.size(); i++) {
              y.setDouble(i, xx.getDouble(i) * mask.getDouble(i) / 0.6);
            }
            return y;
          },
          x,
          dy,
          NnActivations.dropoutGrad(dy, mask, 0.6),
          1e-6,
          1e-7);
    }
  }

  @Test
  void biasAddAndItsGradient() {
    Tensor x = Tensor.ofFloats(Shape.of(1, 2, 2), new float[] {1, 2, 3, 4});
    Tensor b = f32(10, 20);
    GradCheck.assertValues(new double[] {11, 12, 23, 24}, NnActivations.biasAdd(x, b), 0);
    GradCheck.assertValues(new double[] {3, 7}, NnActivations.biasAddGrad(x), 0);
    Tensor xi = Tensor.of(DType.INT32, Shape.of(2, 2), List.of(1, 2, 3, 4));
    Tensor bi = Tensor.of(DType.INT32, Shape.of(2), List.of(1, -1));
    assertEquals(List.of(List.of(2L, 1L), List.of(4L, 3L)), NnActivations.biasAdd(xi, bi).toList());
    assertEquals(List.of(4L, 6L), NnActivations.biasAddGrad(xi).toList());
    long seed = 60;
    for (Shape s : List.of(Shape.of(3, 4), Shape.of(2, 3, 2, 2))) {
      Tensor xx = GradCheck.random(DType.FLOAT64, s, seed++, -1, 1);
      Tensor bb = GradCheck.random(DType.FLOAT64, Shape.of(s.dim(1)), seed++, -1, 1);
      Tensor dy = GradCheck.random(DType.FLOAT64, s, seed++, -1, 1);
      GradCheck.check(
          bias -> NnActivations.biasAdd(xx, bias),
          bb,
          dy,
          NnActivations.biasAddGrad(dy),
          1e-6,
          1e-7);
    }
    assertThrows(MsException.class, () -> NnActivations.biasAdd(f32(1, 2), b));
    assertThrows(MsException.class, () -> NnActivations.biasAdd(x, f32(1, 2, 3)));
  }
}
