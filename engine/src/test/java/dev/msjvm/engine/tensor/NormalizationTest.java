package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Hand-checked BatchNorm/LayerNorm values (momentum convention of the primitive, unbiased moving
// variance by default) and central differences in float64 for every gradient.
class NormalizationTest {
  private static final double EPS = 1e-5;

  private static Tensor f64(Shape s, double... v) {
    Tensor t = Tensor.zeros(DType.FLOAT64, s);
    for (int i = 0; i < v.length; i++) {
      t.setDouble(i, v[i]);
    }
    return t;
  }

  @Test
  void batchNormTrainingUsesBatchStatsAndUpdatesMovingOnes() {
    Tensor x = Tensor.ofFloats(Shape.of(2, 1), new float[] {1, 3});
    Tensor one = Tensor.ofFloats(Shape.of(1), new float[] {1});
    Tensor zero = Tensor.ofFloats(Shape.of(1), new float[] {0});
    Normalization.BatchNormResult r =
        Normalization.batchNorm(x, one, zero, zero, one, true, 0, 0.1);
    GradCheck.assertValues(new double[] {-1, 1}, r.y(), 1e-7);
    GradCheck.assertValues(new double[] {2}, r.batchMean(), 0);
    GradCheck.assertValues(new double[] {1}, r.batchVariance(), 0);
    // moving = 0.9 * moving + 0.1 * batch, with the unbiased batch variance 2/(2-1) * 1 as
    // MindSpore 2.10 (CPU and GPU) does.
    GradCheck.assertValues(new double[] {0.2}, r.movingMean(), 1e-7);
    GradCheck.assertValues(new double[] {1.1}, r.movingVariance(), 1e-7);
    // The overload can take the biased variance instead.
    Normalization.BatchNormResult b =
        Normalization.batchNorm(
            x, one, zero, zero, one, true, 0, 0.1, false, Normalization.Sums.LOCAL);
    GradCheck.assertValues(new double[] {1.0}, b.movingVariance(), 1e-7);
    assertEquals(DType.FLOAT32, r.y().dtype());
  }

  @Test
  void batchNormTakesThreeDimensionalInputPerChannel() {
    // [N=2, C=1, L=2]: channel statistics over N and L, as nn.BatchNorm1d feeds it in training.
    Tensor x = Tensor.ofFloats(Shape.of(2, 1, 2), new float[] {1, 3, 5, 7});
    Tensor one = Tensor.ofFloats(Shape.of(1), new float[] {1});
    Tensor zero = Tensor.ofFloats(Shape.of(1), new float[] {0});
    Normalization.BatchNormResult r =
        Normalization.batchNorm(x, one, zero, zero, one, true, 0, 0.5);
    GradCheck.assertValues(new double[] {4}, r.batchMean(), 0);
    GradCheck.assertValues(new double[] {5}, r.batchVariance(), 0);
    GradCheck.assertValues(new double[] {2}, r.movingMean(), 1e-7);
    // unbiased: 0.5 * 1 + 0.5 * (5 * 4/3)
    GradCheck.assertValues(new double[] {0.5 + 0.5 * 20.0 / 3}, r.movingVariance(), 1e-6);
    double s = 1 / Math.sqrt(5);
    GradCheck.assertValues(new double[] {-3 * s, -s, s, 3 * s}, r.y(), 1e-6);
    Tensor x5 = Tensor.ofFloats(Shape.of(1, 1, 1, 1, 1), new float[] {1});
    assertThrows(
        MsException.class, () -> Normalization.batchNorm(x5, one, zero, zero, one, true, 0, 0.5));
  }

  @Test
  void batchNormInferenceUsesMovingStats() {
    Tensor x = Tensor.ofFloats(Shape.of(1, 2, 1, 2), new float[] {1, 2, 3, 4});
    Tensor scale = Tensor.ofFloats(Shape.of(2), new float[] {2, 1});
    Tensor bias = Tensor.ofFloats(Shape.of(2), new float[] {0, 1});
    Tensor mean = Tensor.ofFloats(Shape.of(2), new float[] {1, 3});
    Tensor var = Tensor.ofFloats(Shape.of(2), new float[] {4, 1});
    Normalization.BatchNormResult r =
        Normalization.batchNorm(x, scale, bias, mean, var, false, 0, 0.1);
    GradCheck.assertValues(new double[] {0, 1, 1, 2}, r.y(), 1e-7);
    assertEquals(mean, r.movingMean());
  }

  /**
   * A script's SyncBatchNorm scales dscale/dbias by 1/device_num (the group's mean, MindSpore's
   * SyncBNGrad split); dx is the same either way.
   */
  @Test
  void batchNormGradScalesOnlyTheParameterGradients() {
    Shape s = Shape.of(2, 3, 2, 2);
    Tensor x = GradCheck.random(DType.FLOAT64, s, 1, -2, 2);
    Tensor scale = GradCheck.random(DType.FLOAT64, Shape.of(3), 2, 0.5, 2);
    Tensor dy = GradCheck.random(DType.FLOAT64, s, 6, -1, 1);
    Tensor mean = GradCheck.random(DType.FLOAT64, Shape.of(3), 4, -1, 1);
    Tensor var = GradCheck.random(DType.FLOAT64, Shape.of(3), 5, 0.5, 2);
    Normalization.NormGrads whole =
        Normalization.batchNormGrad(
            dy, x, scale, mean, var, true, EPS, Normalization.Sums.LOCAL, 1);
    Normalization.NormGrads quarter =
        Normalization.batchNormGrad(
            dy, x, scale, mean, var, true, EPS, Normalization.Sums.LOCAL, 0.25);
    for (int i = 0; i < x.size(); i++) {
      assertEquals(whole.dx().getDouble(i), quarter.dx().getDouble(i), 0);
    }
    for (int c = 0; c < 3; c++) {
      assertEquals(whole.dscale().getDouble(c) * 0.25, quarter.dscale().getDouble(c), 1e-15);
      assertEquals(whole.dbias().getDouble(c) * 0.25, quarter.dbias().getDouble(c), 1e-15);
    }
  }

  @Test
  void batchNormGradientsMatchCentralDifferences() {
    for (Shape s : List.of(Shape.of(4, 3), Shape.of(2, 3, 2, 2))) {
      Tensor x = GradCheck.random(DType.FLOAT64, s, 1, -2, 2);
      Tensor scale = GradCheck.random(DType.FLOAT64, Shape.of(3), 2, 0.5, 1.5);
      Tensor bias = GradCheck.random(DType.FLOAT64, Shape.of(3), 3, -1, 1);
      Tensor mm = GradCheck.random(DType.FLOAT64, Shape.of(3), 4, -1, 1);
      Tensor mv = GradCheck.random(DType.FLOAT64, Shape.of(3), 5, 0.5, 2);
      Tensor dy = GradCheck.random(DType.FLOAT64, s, 6, -1, 1);
      for (boolean training : new boolean[] {true, false}) {
        Normalization.BatchNormResult r =
            Normalization.batchNorm(x, scale, bias, mm, mv, training, EPS, 0.1);
        Normalization.NormGrads g =
            Normalization.batchNormGrad(
                dy, x, scale, r.batchMean(), r.batchVariance(), training, EPS);
        GradCheck.check(
            xx -> Normalization.batchNorm(xx, scale, bias, mm, mv, training, EPS, 0.1).y(),
            x,
            dy,
            g.dx(),
            1e-6,
            1e-6);
        GradCheck.check(
            sc -> Normalization.batchNorm(x, sc, bias, mm, mv, training, EPS, 0.1).y(),
            scale,
            dy,
            g.dscale(),
            1e-6,
            1e-6);
        GradCheck.check(
            b -> Normalization.batchNorm(x, scale, b, mm, mv, training, EPS, 0.1).y(),
            bias,
            dy,
            g.dbias(),
            1e-6,
            1e-6);
      }
    }
  }

  @Test
  void layerNormValues() {
    Tensor x = f64(Shape.of(1, 2), 1, 3);
    Tensor gamma = f64(Shape.of(2), 1, 1);
    Tensor beta = f64(Shape.of(2), 0, 0);
    Normalization.LayerNormResult r = Normalization.layerNorm(x, gamma, beta, 1, 1, 0);
    GradCheck.assertValues(new double[] {-1, 1}, r.y(), 1e-12);
    assertEquals(Shape.of(1, 1), r.mean().shape());
    GradCheck.assertValues(new double[] {2}, r.mean(), 0);
    GradCheck.assertValues(new double[] {1}, r.rstd(), 0);
    Tensor x3 = f64(Shape.of(2, 1, 2), 0, 2, 4, 8);
    Normalization.LayerNormResult r3 =
        Normalization.layerNorm(x3, f64(Shape.of(2), 2, 1), f64(Shape.of(2), 0, 1), -2, -1, 0);
    assertEquals(Shape.of(2, 1, 1), r3.mean().shape());
    GradCheck.assertValues(new double[] {-2, 2, -2, 2}, r3.y(), 1e-12);
    GradCheck.assertValues(new double[] {1, 0.5}, r3.rstd(), 1e-12);
  }

  @Test
  void layerNormGradientsMatchCentralDifferences() {
    record Case(Shape shape, int normAxis, int paramsAxis) {}
    for (Case c :
        List.of(
            new Case(Shape.of(3, 4), 1, 1),
            new Case(Shape.of(2, 3, 4), 1, 2),
            new Case(Shape.of(2, 3, 4), -1, -1),
            new Case(Shape.of(2, 2, 3), 2, 1))) {
      int rank = c.shape.rank();
      Shape ps = new Shape(c.shape.dims().subList(Math.floorMod(c.paramsAxis, rank), rank));
      Tensor x = GradCheck.random(DType.FLOAT64, c.shape, 7, -2, 2);
      Tensor gamma = GradCheck.random(DType.FLOAT64, ps, 8, 0.5, 1.5);
      Tensor beta = GradCheck.random(DType.FLOAT64, ps, 9, -1, 1);
      Tensor dy = GradCheck.random(DType.FLOAT64, c.shape, 10, -1, 1);
      Normalization.LayerNormResult r =
          Normalization.layerNorm(x, gamma, beta, c.normAxis, c.paramsAxis, EPS);
      Normalization.NormGrads g =
          Normalization.layerNormGrad(x, dy, r.mean(), r.rstd(), gamma, c.normAxis, c.paramsAxis);
      GradCheck.check(
          xx -> Normalization.layerNorm(xx, gamma, beta, c.normAxis, c.paramsAxis, EPS).y(),
          x,
          dy,
          g.dx(),
          1e-6,
          1e-6);
      GradCheck.check(
          gg -> Normalization.layerNorm(x, gg, beta, c.normAxis, c.paramsAxis, EPS).y(),
          gamma,
          dy,
          g.dscale(),
          1e-6,
          1e-6);
      GradCheck.check(
          bb -> Normalization.layerNorm(x, gamma, bb, c.normAxis, c.paramsAxis, EPS).y(),
          beta,
          dy,
          g.dbias(),
          1e-6,
          1e-6);
    }
  }

  @Test
  void errors() {
    Tensor x = Tensor.zeros(DType.FLOAT32, Shape.of(2, 3));
    Tensor c2 = Tensor.zeros(DType.FLOAT32, Shape.of(2));
    assertThrows(
        MsException.class, () -> Normalization.batchNorm(x, c2, c2, c2, c2, true, EPS, 0.1));
    Tensor x3 = Tensor.zeros(DType.FLOAT32, Shape.of(2, 3, 4));
    assertThrows(
        MsException.class, () -> Normalization.batchNorm(x3, c2, c2, c2, c2, true, EPS, 0.1));
    assertThrows(MsException.class, () -> Normalization.layerNorm(x, c2, c2, 1, 1, EPS));
    assertThrows(MsException.class, () -> Normalization.layerNorm(x, c2, c2, 2, 1, EPS));
  }
}
