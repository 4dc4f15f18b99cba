package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Hand-checked cross-entropy values and central differences (float64) for both backprops.
class NnLossesTest {
  private static Tensor labels(DType t, long... v) {
    Tensor x = Tensor.zeros(t, Shape.of(v.length));
    for (int i = 0; i < v.length; i++) {
      x.setLong(i, v[i]);
    }
    return x;
  }

  @Test
  void denseLossAndBackprop() {
    Tensor logits = Tensor.ofFloats(Shape.of(1, 2), new float[] {0, 0});
    Tensor lab = Tensor.ofFloats(Shape.of(1, 2), new float[] {1, 0});
    NnLosses.LossAndGrad r = NnLosses.softmaxCrossEntropyWithLogits(logits, lab);
    assertEquals(Shape.of(1), r.loss().shape());
    GradCheck.assertValues(new double[] {Math.log(2)}, r.loss(), 1e-7);
    GradCheck.assertValues(new double[] {-0.5, 0.5}, r.backprop(), 1e-7);
    // Huge logits stay finite thanks to the max shift.
    Tensor big = Tensor.ofFloats(Shape.of(1, 2), new float[] {1000, 0});
    GradCheck.assertValues(
        new double[] {0}, NnLosses.softmaxCrossEntropyWithLogits(big, lab).loss(), 0);
  }

  @Test
  void sparseMeanLossAndGrad() {
    Tensor logits = Tensor.ofFloats(Shape.of(2, 2), new float[] {0, 0, 0, 0});
    Tensor lab = labels(DType.INT32, 0, 1);
    Tensor loss = NnLosses.sparseSoftmaxCrossEntropyWithLogits(logits, lab, false);
    assertEquals(Shape.scalar(), loss.shape());
    assertEquals(Math.log(2), loss.getDouble(0), 1e-7);
    GradCheck.assertValues(
        new double[] {-0.25, 0.25, 0.25, -0.25},
        NnLosses.sparseSoftmaxCrossEntropyWithLogitsGrad(logits, lab),
        1e-7);
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                NnLosses.sparseSoftmaxCrossEntropyWithLogits(
                    logits, labels(DType.INT64, 0, 2), false));
    assertEquals(
        "For 'SparseSoftmaxCrossEntropyWithLogits', the label must be in [0, 2), but got 2.",
        e.getMessage());
    assertEquals(
        MsException.Kind.TYPE_ERROR,
        assertThrows(
                MsException.class,
                () -> NnLosses.sparseSoftmaxCrossEntropyWithLogits(logits, logits, false))
            .kind());
  }

  @Test
  void gradientsMatchCentralDifferences() {
    long seed = 70;
    for (Shape s : List.of(Shape.of(3, 4), Shape.of(5, 2))) {
      int n = s.dim(0);
      int c = s.dim(1);
      Tensor logits = GradCheck.random(DType.FLOAT64, s, seed++, -3, 3);
      // Dense labels: each row a probability distribution.
      Tensor lab = GradCheck.random(DType.FLOAT64, s, seed++, 0, 1);
      for (int r = 0; r < n; r++) {
        double sum = 0;
        for (int k = 0; k < c; k++) {
          sum += lab.getDouble(r * c + k);
        }
        for (int k = 0; k < c; k++) {
          lab.setDouble(r * c + k, lab.getDouble(r * c + k) / sum);
        }
      }
      Tensor w = GradCheck.random(DType.FLOAT64, Shape.of(n), seed++, -1, 1);
      Tensor backprop = NnLosses.softmaxCrossEntropyWithLogits(logits, lab).backprop();
      Tensor expected = Tensor.zeros(DType.FLOAT64, s);
      for (int i = 0; i < expected.size(); i++) {
        expected.setDouble(i, backprop.getDouble(i) * w.getDouble(i / c));
      }
      GradCheck.check(
          l -> NnLosses.softmaxCrossEntropyWithLogits(l, lab).loss(),
          logits,
          w,
          expected,
          1e-6,
          1e-7);
      Tensor idx = labels(DType.INT64, new long[n]);
      for (int r = 0; r < n; r++) {
        idx.setLong(r, (r * 7 + 1) % c);
      }
      Tensor one = Tensor.zeros(DType.FLOAT64, Shape.scalar());
      one.setDouble(0, 1);
      GradCheck.check(
          l -> NnLosses.sparseSoftmaxCrossEntropyWithLogits(l, idx, false),
          logits,
          one,
          NnLosses.sparseSoftmaxCrossEntropyWithLogitsGrad(logits, idx),
          1e-6,
          1e-7);
    }
  }
}
