package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Expected shapes and texts recorded from MindSpore 2.10.0's shape primitives.
class ShapeOpsTest {
  private static final Tensor X =
      Tensor.of(DType.FLOAT32, Shape.of(2, 3), List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0));

  @Test
  void reshapeInfersOneDimension() {
    assertEquals(Shape.of(3, 2), ShapeOps.reshape(X, List.of(3, -1)).shape());
    MsException e = assertThrows(MsException.class, () -> ShapeOps.reshape(X, List.of(-1, 4)));
    assertEquals(
        "proposed_shape '[const vector]{-1, 4}' is invalid for input of size 6", e.getMessage());
    e = assertThrows(MsException.class, () -> ShapeOps.reshape(X, List.of(-1, -1)));
    assertEquals("only one dimension can be inferred", e.getMessage());
    e = assertThrows(MsException.class, () -> ShapeOps.reshape(X, List.of(-2, 3)));
    assertEquals("invalid proposed_shape dimension", e.getMessage());
  }

  @Test
  void transposeExpandSqueezeFlatten() {
    assertEquals(
        List.of(List.of(1.0, 4.0), List.of(2.0, 5.0), List.of(3.0, 6.0)),
        ShapeOps.transpose(X, List.of(1, 0)).toList());
    Tensor e = ShapeOps.expandDims(X, -1);
    assertEquals(Shape.of(2, 3, 1), e.shape());
    assertEquals(Shape.of(2, 3), ShapeOps.squeeze(e, List.of()).shape());
    assertEquals(Shape.of(2, 3), ShapeOps.flatten(e).shape());
  }
}
