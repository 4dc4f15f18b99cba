package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

// Expected slices are NumPy's for the same index expression; gradients are checked by central
// differences in float64 (the ops are linear, so the difference is exact up to rounding).
class IndexingTest {
  private static Tensor arange(DType t, int... dims) {
    Tensor x = Tensor.zeros(t, Shape.of(dims));
    for (int i = 0; i < x.size(); i++) {
      x.setLong(i, i);
    }
    return x;
  }

  private static Tensor ints(DType t, Shape s, long... v) {
    Tensor x = Tensor.zeros(t, s);
    for (int i = 0; i < v.length; i++) {
      x.setLong(i, v[i]);
    }
    return x;
  }

  @Test
  void gatherAlongAnAxis() {
    Tensor p = arange(DType.INT32, 2, 3);
    Tensor idx = ints(DType.INT64, Shape.of(2, 2), 2, 0, 1, 1);
    Tensor g = Indexing.gather(p, idx, 1);
    assertEquals(Shape.of(2, 2, 2), g.shape());
    assertEquals(
        List.of(
            List.of(List.of(2L, 0L), List.of(1L, 1L)), List.of(List.of(5L, 3L), List.of(4L, 4L))),
        g.toList());
    Tensor big = ints(DType.INT64, Shape.of(2), Long.MAX_VALUE, -3);
    assertEquals(
        List.of(-3L, Long.MAX_VALUE, -3L),
        Indexing.gather(big, ints(DType.INT32, Shape.of(3), 1, 0, 1), 0).toList());
    MsException e =
        assertThrows(
            MsException.class, () -> Indexing.gather(p, ints(DType.INT32, Shape.of(1), 3), 1));
    assertEquals(
        "For 'Gather', the 'input_indices' must be in the range [0, 3), but got 3.",
        e.getMessage());
  }

  @Test
  void gatherGradAccumulatesRepeatedIndices() {
    Tensor idx = ints(DType.INT32, Shape.of(3), 1, 1, 0);
    Tensor dy = Tensor.ofFloats(Shape.of(3, 2), new float[] {1, 2, 3, 4, 5, 6});
    Tensor dx = Indexing.gatherGrad(dy, idx, 0, Shape.of(3, 2));
    GradCheck.assertValues(new double[] {5, 6, 4, 6, 0, 0}, dx, 0);
    for (int axis : new int[] {0, 1, -1}) {
      Tensor p = GradCheck.random(DType.FLOAT64, Shape.of(3, 4, 2), 1, -1, 1);
      int dim = p.shape().dim(axis);
      Tensor i = ints(DType.INT64, Shape.of(2, 3), 0, dim - 1, 1, 0, 0, dim - 1);
      Tensor y = Indexing.gather(p, i, axis);
      Tensor w = GradCheck.random(DType.FLOAT64, y.shape(), 2, -1, 1);
      GradCheck.check(
          pp -> Indexing.gather(pp, i, axis),
          p,
          w,
          Indexing.gatherGrad(w, i, axis, p.shape()),
          1e-3,
          1e-9);
    }
  }

  @Test
  void oneHotOnEitherAxis() {
    Tensor idx = ints(DType.INT32, Shape.of(3), 0, 2, 5);
    Tensor on = Tensor.ofFloats(Shape.scalar(), new float[] {1});
    Tensor off = Tensor.ofFloats(Shape.scalar(), new float[] {0});
    Tensor last = Indexing.oneHot(idx, 3, on, off, -1);
    assertEquals(Shape.of(3, 3), last.shape());
    GradCheck.assertValues(new double[] {1, 0, 0, 0, 0, 1, 0, 0, 0}, last, 0);
    Tensor first = Indexing.oneHot(idx, 3, on, off, 0);
    GradCheck.assertValues(new double[] {1, 0, 0, 0, 0, 0, 0, 1, 0}, first, 0);
    Tensor ion = ints(DType.INT64, Shape.scalar(), 7);
    Tensor ioff = ints(DType.INT64, Shape.scalar(), -1);
    Tensor mid = Indexing.oneHot(ints(DType.INT64, Shape.of(2, 1), 1, 0), 2, ion, ioff, 1);
    assertEquals(
        List.of(List.of(List.of(-1L), List.of(7L)), List.of(List.of(7L), List.of(-1L))),
        mid.toList());
  }

  @Test
  void selectPicksAndBroadcasts() {
    Tensor cond = Tensor.of(DType.BOOL, Shape.of(2), List.of(true, false));
    Tensor x = ints(DType.INT64, Shape.of(2, 2), Long.MAX_VALUE, 1, 2, 3);
    Tensor y = ints(DType.INT64, Shape.of(2, 2), -1, -2, -3, -4);
    assertEquals(
        List.of(List.of(Long.MAX_VALUE, -2L), List.of(2L, -4L)),
        Indexing.select(cond, x, y).toList());
    assertThrows(MsException.class, () -> Indexing.select(x, x, y));
  }

  @Test
  void stridedSliceFollowsNumpy() {
    Tensor x = arange(DType.INT32, 2, 3, 4);
    // x[1:, ::-1, -3:-1]
    Tensor a =
        Indexing.stridedSlice(
            x, new int[] {1, 0, -3}, new int[] {2, 0, -1}, new int[] {1, -1, 1}, 2, 2, 0, 0, 0);
    assertEquals(Shape.of(1, 3, 2), a.shape());
    GradCheck.assertValues(new double[] {21, 22, 17, 18, 13, 14}, a, 0);
    // x[-1, 1:3]
    Tensor b =
        Indexing.stridedSlice(
            x, new int[] {-1, 1}, new int[] {0, 3}, new int[] {1, 1}, 0, 0, 0, 0, 1);
    assertEquals(Shape.of(2, 4), b.shape());
    GradCheck.assertValues(new double[] {16, 17, 18, 19, 20, 21, 22, 23}, b, 0);
    // x[..., 1]
    Tensor c =
        Indexing.stridedSlice(
            x, new int[] {0, 1}, new int[] {0, 2}, new int[] {1, 1}, 0, 0, 1, 0, 2);
    assertEquals(Shape.of(2, 3), c.shape());
    GradCheck.assertValues(new double[] {1, 5, 9, 13, 17, 21}, c, 0);
    // x[None, 0]
    Tensor d =
        Indexing.stridedSlice(
            x, new int[] {0, 0}, new int[] {0, 1}, new int[] {1, 1}, 0, 0, 0, 1, 2);
    assertEquals(Shape.of(1, 3, 4), d.shape());
    assertEquals(11.0, d.getDouble(11));
    Tensor v = arange(DType.INT64, 6);
    // v[::-2], v[-1:0:-2], v[-10:10], v[4:1]
    assertEquals(
        List.of(5L, 3L, 1L),
        Indexing.stridedSlice(v, new int[] {0}, new int[] {0}, new int[] {-2}, 1, 1, 0, 0, 0)
            .toList());
    assertEquals(
        List.of(5L, 3L, 1L),
        Indexing.stridedSlice(v, new int[] {-1}, new int[] {0}, new int[] {-2}, 0, 0, 0, 0, 0)
            .toList());
    assertEquals(
        6,
        Indexing.stridedSlice(v, new int[] {-10}, new int[] {10}, new int[] {1}, 0, 0, 0, 0, 0)
            .size());
    assertEquals(
        Shape.of(0),
        Indexing.stridedSlice(v, new int[] {4}, new int[] {1}, new int[] {1}, 0, 0, 0, 0, 0)
            .shape());
    // v[-2:-8:-3] (end clamps to before the start)
    assertEquals(
        List.of(4L, 1L),
        Indexing.stridedSlice(v, new int[] {-2}, new int[] {-8}, new int[] {-3}, 0, 0, 0, 0, 0)
            .toList());
    MsException zero =
        assertThrows(
            MsException.class,
            () ->
                Indexing.stridedSlice(
                    v, new int[] {0}, new int[] {1}, new int[] {0}, 0, 0, 0, 0, 0));
    assertEquals("For 'StridedSlice', the 'strides' cannot contain 0.", zero.getMessage());
    assertThrows(
        MsException.class,
        () -> Indexing.stridedSlice(v, new int[] {6}, new int[] {7}, new int[] {1}, 0, 0, 0, 0, 1));
  }

  @Test
  void stridedSliceGradScattersIntoZeros() {
    record Case(Shape shape, int[] b, int[] e, int[] s, int bm, int em, int el, int na, int sh) {}
    List<Case> cases =
        List.of(
            new Case(
                Shape.of(4, 5),
                new int[] {-1, 1},
                new int[] {0, 5},
                new int[] {-2, 2},
                0,
                0,
                0,
                0,
                0),
            new Case(
                Shape.of(2, 3, 4),
                new int[] {1, 0, -1},
                new int[] {2, 0, 0},
                new int[] {1, 1, -1},
                0,
                2,
                0,
                0,
                1),
            new Case(
                Shape.of(3, 2, 5),
                new int[] {0, 1},
                new int[] {0, -1},
                new int[] {1, 2},
                0,
                0,
                1,
                0,
                0));
    long seed = 20;
    for (Case c : cases) {
      Tensor x = GradCheck.random(DType.FLOAT64, c.shape, seed++, -1, 1);
      Tensor y = Indexing.stridedSlice(x, c.b, c.e, c.s, c.bm, c.em, c.el, c.na, c.sh);
      Tensor w = GradCheck.random(DType.FLOAT64, y.shape(), seed++, -1, 1);
      Indexing.SliceSpec spec =
          new Indexing.SliceSpec(
              KernelSupport.toList(c.b),
              KernelSupport.toList(c.e),
              KernelSupport.toList(c.s),
              c.bm,
              c.em,
              c.el,
              c.na,
              c.sh);
      Tensor dx = Indexing.stridedSliceGrad(w, c.shape, spec);
      GradCheck.check(
          xx -> Indexing.stridedSlice(xx, c.b, c.e, c.s, c.bm, c.em, c.el, c.na, c.sh),
          x,
          w,
          dx,
          1e-3,
          1e-9);
    }
  }
}
