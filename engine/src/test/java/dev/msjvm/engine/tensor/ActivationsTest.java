package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Expected values and texts recorded from ops.Softmax/LogSoftmax/ZerosLike/OnesLike on MindSpore
// 2.10.0.
class ActivationsTest {
  private static final Tensor X =
      Tensor.of(DType.FLOAT32, Shape.of(2, 3), List.of(1.0, 2.0, 3.0, 4.0, 5.0, 7.0));

  private static double at(Tensor t, int i) {
    return t.getDouble(i);
  }

  @Test
  void softmaxIsStableAndFollowsTheAxis() {
    Tensor big = Tensor.of(DType.FLOAT32, Shape.of(3), List.of(1000.0, 1001.0, 1002.0));
    Tensor s = Activations.softmax("Softmax", big, -1, false);
    assertEquals(0.090031, at(s, 0), 1e-6);
    assertEquals(0.66524, at(s, 2), 1e-5);
    Tensor s0 = Activations.softmax("Softmax", X, 0, false);
    assertEquals(0.047426, at(s0, 0), 1e-6);
    assertEquals(0.98201, at(s0, 5), 1e-5);
    Tensor l = Activations.softmax("LogSoftmax", X, 1, true);
    assertEquals(-0.16984, at(l, 5), 1e-5);
    assertEquals(DType.FLOAT32, l.dtype());
  }

  @Test
  void errors() {
    Tensor i = Tensor.of(DType.INT32, Shape.of(2), List.of(1, 2));
    MsException e =
        assertThrows(MsException.class, () -> Activations.softmax("Softmax", i, -1, false));
    assertEquals(
        "For primitive[Softmax], the input argument[x] must be a type of {BFloat16, Float16,"
            + " Float32, Float64}, but got Int32.",
        e.getMessage());
    e = assertThrows(MsException.class, () -> Activations.softmax("Softmax", X, 2, false));
    assertEquals("For primitive[Softmax], the axis must be in [-2,2), but got 2.", e.getMessage());
    Tensor scalar = Tensor.of(DType.FLOAT32, Shape.scalar(), List.of(2.0));
    e = assertThrows(MsException.class, () -> Activations.softmax("Softmax", scalar, -1, false));
    assertEquals("For primitive[Softmax], the axis must be in [0,0), but got -1.", e.getMessage());
  }

  @Test
  void zerosAndOnesLike() {
    Tensor b = Tensor.of(DType.BOOL, Shape.of(2), List.of(true, false));
    assertEquals(List.of(false, false), Activations.zerosLike(b).toList());
    assertEquals(List.of(true, true), Activations.onesLike(b).toList());
    assertEquals(
        DType.INT32, Activations.onesLike(Tensor.of(DType.INT32, Shape.of(1), List.of(5))).dtype());
    assertEquals(
        List.of(1L),
        Activations.onesLike(Tensor.of(DType.INT32, Shape.of(1), List.of(5))).toList());
  }
}
