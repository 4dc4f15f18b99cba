package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Expected values and texts recorded from ops.MatMul on MindSpore 2.10.0.
class MatMulTest {
  private static final NaiveBlas BLAS = new NaiveBlas();
  private static final Tensor A =
      Tensor.of(DType.FLOAT32, Shape.of(2, 3), List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0));
  private static final Tensor B =
      Tensor.of(DType.FLOAT32, Shape.of(3, 2), List.of(1.0, 0.0, 0.0, 1.0, 1.0, 1.0));

  @Test
  void float32WithAndWithoutTransposes() {
    assertEquals(
        List.of(List.of(4.0, 5.0), List.of(10.0, 11.0)),
        MatMul.matmul(A, B, false, false, BLAS).toList());
    assertEquals(
        List.of(List.of(17.0, 22.0, 27.0), List.of(22.0, 29.0, 36.0), List.of(27.0, 36.0, 45.0)),
        MatMul.matmul(A, A, true, false, BLAS).toList());
    assertEquals(
        List.of(List.of(14.0, 32.0), List.of(32.0, 77.0)),
        MatMul.matmul(A, A, false, true, BLAS).toList());
  }

  @Test
  void otherTypesKeepTheirType() {
    for (DType t : List.of(DType.INT32, DType.FLOAT16, DType.FLOAT64)) {
      Tensor x = Tensor.of(t, Shape.of(1, 2), List.of(1, 2));
      Tensor y = Tensor.of(t, Shape.of(2, 1), List.of(3, 4));
      Tensor r = MatMul.matmul(x, y, false, false, BLAS);
      assertEquals(t, r.dtype());
      assertEquals(11.0, r.getDouble(0));
    }
  }

  @Test
  void errorsUseMindSporesTexts() {
    MsException cols =
        assertThrows(MsException.class, () -> MatMul.matmul(A, A, false, false, BLAS));
    assertEquals(
        "For 'MatMul' the input dimensions must be equal, but got 'x1_col': 3 and 'x2_row': 2.",
        cols.getMessage());
    Tensor v = Tensor.of(DType.FLOAT32, Shape.of(2), List.of(1.0, 2.0));
    MsException rank =
        assertThrows(MsException.class, () -> MatMul.matmul(v, B, false, false, BLAS));
    assertEquals(
        "MatMul inputs should have the same dimension size and equal to 2.", rank.getMessage());
    Tensor h = Tensor.of(DType.FLOAT16, Shape.of(3, 2), List.of(1, 0, 0, 1, 1, 1));
    MsException type =
        assertThrows(MsException.class, () -> MatMul.matmul(A, h, false, false, BLAS));
    assertEquals(MsException.Kind.TYPE_ERROR, type.kind());
    assertEquals(
        "For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with type"
            + " Tensor[Float32] and 'x2' with type Tensor[Float16].",
        type.getMessage());
  }
}
