package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Concat/Split/Tile values as NumPy gives them; TileGrad by central differences in float64.
class JoiningTest {
  private static Tensor arange(DType t, int... dims) {
    Tensor x = Tensor.zeros(t, Shape.of(dims));
    for (int i = 0; i < x.size(); i++) {
      x.setLong(i, i);
    }
    return x;
  }

  @Test
  void concatAndSplitAreInverse() {
    Tensor a = arange(DType.INT64, 2, 1);
    Tensor b = arange(DType.INT64, 2, 2);
    Tensor c = Joining.concat(List.of(a, b), -1);
    assertEquals(List.of(List.of(0L, 0L, 1L), List.of(1L, 2L, 3L)), c.toList());
    Tensor r = Joining.concat(List.of(b, b, b), 0);
    assertEquals(Shape.of(6, 2), r.shape());
    List<Tensor> parts = Joining.split(r, 0, 3);
    assertEquals(3, parts.size());
    for (Tensor p : parts) {
      assertEquals(b.toList(), p.toList());
    }
    Tensor x = arange(DType.FLOAT32, 2, 4);
    List<Tensor> cols = Joining.split(x, 1, 2);
    assertEquals(List.of(List.of(0.0, 1.0), List.of(4.0, 5.0)), cols.get(0).toList());
    assertEquals(x.toList(), Joining.concat(cols, 1).toList());
  }

  @Test
  void concatAndSplitErrors() {
    Tensor a = arange(DType.INT64, 2, 1);
    Tensor b = arange(DType.INT64, 3, 1);
    MsException e = assertThrows(MsException.class, () -> Joining.concat(List.of(a, b), 1));
    // MindSpore 2.10's text (recorded in conformance case ops_more_b).
    assertEquals(
        "For primitive[Concat], shapes of tensors must match except in given concat axis 1, but"
            + " got mismatch in 0(all input shapes are [const vector]{[const vector]{2, 1},"
            + " [const vector]{3, 1}})!",
        e.getMessage());
    Tensor f = arange(DType.FLOAT32, 2, 1);
    assertEquals(
        MsException.Kind.TYPE_ERROR,
        assertThrows(MsException.class, () -> Joining.concat(List.of(a, f), 0)).kind());
    assertThrows(MsException.class, () -> Joining.split(b, 0, 2));
    assertThrows(MsException.class, () -> Joining.concat(List.of(a), 2));
  }

  @Test
  void tileRepeatsAndPadsTheRank() {
    Tensor x = arange(DType.INT32, 2);
    assertEquals(List.of(0L, 1L, 0L, 1L), Joining.tile(x, new int[] {2}).toList());
    Tensor t = Joining.tile(x, new int[] {2, 1});
    assertEquals(List.of(List.of(0L, 1L), List.of(0L, 1L)), t.toList());
    Tensor m = Joining.tile(arange(DType.FLOAT32, 2, 2), new int[] {1, 2});
    GradCheck.assertValues(new double[] {0, 1, 0, 1, 2, 3, 2, 3}, m, 0);
    // Fewer multiples than dimensions tile the last dimensions, as MindSpore 2.10 does.
    assertEquals(Shape.of(2, 8), Joining.tile(m, new int[] {2}).shape());
  }

  @Test
  void tileGradSumsOverTiles() {
    Tensor dy = Tensor.ofFloats(Shape.of(4), new float[] {1, 2, 3, 4});
    GradCheck.assertValues(
        new double[] {4, 6}, Joining.tileGrad(dy, Shape.of(2), new int[] {2}), 0);
    record Case(Shape shape, int[] multiples) {}
    long seed = 30;
    for (Case c :
        List.of(
            new Case(Shape.of(2, 3), new int[] {3, 2}),
            new Case(Shape.of(3, 1, 2), new int[] {2, 1, 4, 1}))) {
      Tensor x = GradCheck.random(DType.FLOAT64, c.shape, seed++, -1, 1);
      Tensor y = Joining.tile(x, c.multiples);
      Tensor w = GradCheck.random(DType.FLOAT64, y.shape(), seed++, -1, 1);
      GradCheck.check(
          xx -> Joining.tile(xx, c.multiples),
          x,
          w,
          Joining.tileGrad(w, c.shape, c.multiples),
          1e-3,
          1e-9);
    }
  }
}
