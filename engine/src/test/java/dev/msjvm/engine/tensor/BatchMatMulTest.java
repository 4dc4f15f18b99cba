package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// BatchMatMul against MatMul on each broadcast batch, for every transpose combination and type.
class BatchMatMulTest {
  private static final NaiveBlas BLAS = new NaiveBlas();

  @Test
  void broadcastsBatchDims() {
    Tensor x = GradCheck.random(DType.FLOAT32, Shape.of(2, 1, 2, 3), 1, -1, 1);
    Tensor y = GradCheck.random(DType.FLOAT32, Shape.of(4, 3, 5), 2, -1, 1);
    Tensor r = BatchMatMul.batchMatMul(x, y, false, false, BLAS);
    assertEquals(Shape.of(2, 4, 2, 5), r.shape());
    Tensor x64 = x.astype(DType.FLOAT64);
    Tensor y64 = y.astype(DType.FLOAT64);
    Tensor r64 = BatchMatMul.batchMatMul(x64, y64, false, false, BLAS);
    assertEquals(DType.FLOAT64, r64.dtype());
    for (int b0 = 0; b0 < 2; b0++) {
      for (int b1 = 0; b1 < 4; b1++) {
        for (int i = 0; i < 2; i++) {
          for (int j = 0; j < 5; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) {
              s += x64.getDouble((b0 * 2 + i) * 3 + k) * y64.getDouble((b1 * 3 + k) * 5 + j);
            }
            int o = ((b0 * 4 + b1) * 2 + i) * 5 + j;
            assertEquals(s, r64.getDouble(o), 1e-12);
            assertEquals(s, r.getDouble(o), 1e-5);
          }
        }
      }
    }
  }

  @Test
  void transposesMatchMatMul() {
    Tensor x = GradCheck.random(DType.FLOAT32, Shape.of(3, 4, 2), 3, -1, 1);
    Tensor y = GradCheck.random(DType.FLOAT32, Shape.of(3, 4, 2), 4, -1, 1);
    for (boolean ta : new boolean[] {false, true}) {
      boolean tb = !ta;
      Tensor r = BatchMatMul.batchMatMul(x, y, ta, tb, BLAS);
      for (int b = 0; b < 3; b++) {
        Tensor xb = Joining.split(x, 0, 3).get(b);
        Tensor yb = Joining.split(y, 0, 3).get(b);
        Tensor mb =
            MatMul.matmul(
                ShapeOps.reshape(xb, List.of(4, 2)),
                ShapeOps.reshape(yb, List.of(4, 2)),
                ta,
                tb,
                BLAS);
        Tensor rb = Joining.split(r, 0, 3).get(b);
        GradCheck.assertValues(
            java.util.stream.IntStream.range(0, mb.size()).mapToDouble(mb::getDouble).toArray(),
            rb,
            1e-6);
      }
    }
  }

  @Test
  void integersAndErrors() {
    Tensor x = Tensor.of(DType.INT64, Shape.of(1, 1, 2), List.of(2, 3));
    Tensor y = Tensor.of(DType.INT64, Shape.of(2, 2, 1), List.of(1, 1, 10, 100));
    assertEquals(
        List.of(List.of(List.of(5L)), List.of(List.of(320L))),
        BatchMatMul.batchMatMul(x, y, false, false, BLAS).toList());
    MsException k =
        assertThrows(MsException.class, () -> BatchMatMul.batchMatMul(x, x, false, false, BLAS));
    assertEquals(MsException.Kind.VALUE_ERROR, k.kind());
    Tensor f = Tensor.zeros(DType.FLOAT32, Shape.of(1, 2, 1));
    assertEquals(
        MsException.Kind.TYPE_ERROR,
        assertThrows(MsException.class, () -> BatchMatMul.batchMatMul(x, f, false, false, BLAS))
            .kind());
    Tensor bad = Tensor.zeros(DType.INT64, Shape.of(3, 2, 1));
    Tensor x2 = Tensor.zeros(DType.INT64, Shape.of(2, 1, 2));
    assertThrows(MsException.class, () -> BatchMatMul.batchMatMul(x2, bad, false, false, BLAS));
  }
}
