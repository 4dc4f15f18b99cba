package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Expected values and texts recorded from ops.ReduceSum/Mean/Max/Min on MindSpore 2.10.0.
class ReductionsTest {
  private static final Tensor X =
      Tensor.of(DType.FLOAT32, Shape.of(2, 3), List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0));

  @Test
  void axesAndKeepDims() {
    assertEquals(21.0, Reductions.reduce(Reductions.Op.SUM, X, List.of(), false).toList());
    assertEquals(
        List.of(6.0, 15.0), Reductions.reduce(Reductions.Op.SUM, X, List.of(1), false).toList());
    assertEquals(
        List.of(List.of(2.0), List.of(5.0)),
        Reductions.reduce(Reductions.Op.MEAN, X, List.of(-1), true).toList());
    assertEquals(
        List.of(4.0, 5.0, 6.0),
        Reductions.reduce(Reductions.Op.MAX, X, List.of(0), false).toList());
    assertEquals(1.0, Reductions.reduce(Reductions.Op.MIN, X, List.of(0, 1), false).toList());
  }

  @Test
  void integerRules() {
    Tensor i8 = Tensor.of(DType.INT8, Shape.of(1, 2), List.of(100, 100));
    assertEquals(
        List.of(-56L), Reductions.reduce(Reductions.Op.SUM, i8, List.of(1), false).toList());
    assertEquals(
        List.of(-28L), Reductions.reduce(Reductions.Op.MEAN, i8, List.of(1), false).toList());
    Tensor i = Tensor.of(DType.INT32, Shape.of(2, 3), List.of(1, 2, 3, 4, 5, 6));
    assertEquals(
        List.of(2L, 3L, 4L), Reductions.reduce(Reductions.Op.MEAN, i, List.of(0), false).toList());
    Tensor b = Tensor.of(DType.BOOL, Shape.of(2, 2), List.of(true, false, true, true));
    assertEquals(
        List.of(true, true), Reductions.reduce(Reductions.Op.SUM, b, List.of(0), false).toList());
  }

  @Test
  void errors() {
    MsException e =
        assertThrows(
            MsException.class, () -> Reductions.reduce(Reductions.Op.SUM, X, List.of(2), false));
    assertEquals(
        "For primitive[ReduceSum], the axis value must be in [-2,2), but got 2.", e.getMessage());
    e =
        assertThrows(
            MsException.class, () -> Reductions.reduce(Reductions.Op.MAX, X, List.of(0, 0), false));
    assertEquals("dim=0 appears multiple times in the list of dims", e.getMessage());
    Tensor b = Tensor.of(DType.BOOL, Shape.of(1), List.of(true));
    e =
        assertThrows(
            MsException.class, () -> Reductions.reduce(Reductions.Op.MEAN, b, List.of(), false));
    assertEquals("For 'ReduceMean', unsupported reduce operation for bool.", e.getMessage());
  }
}
