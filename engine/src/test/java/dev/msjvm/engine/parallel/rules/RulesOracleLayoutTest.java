package dev.msjvm.engine.parallel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Layout strategies ({@code in_layout}) through the partitioner's oracle. */
class RulesOracleLayoutTest {
  private static final List<Shape> IN = List.of(Shape.of(16, 8), Shape.of(8, 4));
  private static final List<Shape> OUT = List.of(Shape.of(16, 4));

  /** One tensor's entry: device matrix and per dimension its axes counted from the right. */
  private static List<Object> entry(List<Integer> dm, Integer... axes) {
    return List.of(dm, Arrays.stream(axes).map(a -> List.of(a)).toList());
  }

  private static NodeSharding shard(List<Object> x, List<Object> w) {
    Attrs attrs = Attrs.of("transpose_a", false, "transpose_b", false, "in_layout", List.of(x, w));
    return RulesOracle.INSTANCE.shard("MatMul", attrs, IN, OUT, Arrays.asList(null, null), 8);
  }

  @Test
  void aLayoutWithItsOwnArrangementRunsInIt() {
    // Layout((2, 4), ("dp", "mp")): x ("mp", "dp"), w ("dp", "None"): rows over the 4-axis, k over
    // the 2-axis (from the right: mp = 0, dp = 1).
    List<Integer> dm = List.of(2, 4);
    NodeSharding s = shard(entry(dm, 0, 1), entry(dm, 1, -1));
    assertEquals(List.of(0, 1), s.inputs().get(0).tensorMap());
    assertEquals(List.of(1, -1), s.inputs().get(1).tensorMap());
    TensorLayout out = s.outputs().get(0);
    assertEquals(List.of(0, -1), out.tensorMap(), "rows stay on the 4-axis, columns whole");
    NodeSharding.Partial p = s.partial().get(0);
    assertNotNull(p);
    assertEquals(List.of(0), p.deviceAxes(), "partial over dp, the left axis");
    assertEquals(List.of(0, 4), p.group(out.deviceMatrix(), 0), "rank 0 sums with rank 4");
    assertEquals(false, p.reduceScatter());
  }

  @Test
  void theSameLetterOnTwoAxesIsRefused() {
    // Layout((2, 2, 2), ("a", "b", "c")): k on "b" in x but on "c" in w (same split, other
    // devices).
    List<Integer> dm = List.of(2, 2, 2);
    MsException e = assertThrows(MsException.class, () -> shard(entry(dm, 2, 1), entry(dm, 0, -1)));
    assertTrue(e.getMessage().contains("gives the ranks other slices"), e.getMessage());
  }

  @Test
  void twoDimensionTensorParallelGathersTheActivationsAndReduceScattersTheColumns() {
    // Layout((2, 4), ("x", "y")), enable_nd_tp: x (None, ("x", "y")), w ("x", "y"); from the right
    // x = 1, y = 0.
    List<Integer> dm = List.of(2, 4);
    Attrs attrs =
        Attrs.of(
            "transpose_a",
            false,
            "transpose_b",
            false,
            "enable_nd_tp",
            true,
            "in_layout",
            List.of(multi(dm, List.of(List.of(-1), List.of(1, 0))), entry(dm, 1, 0)));
    List<Shape> in = List.of(Shape.of(16, 16), Shape.of(16, 8));
    List<Shape> outShape = List.of(Shape.of(16, 8));
    NodeSharding s =
        RulesOracle.INSTANCE.shard("MatMul", attrs, in, outShape, Arrays.asList(null, null), 8);
    assertEquals(Shape.of(16, 8), s.inputs().get(0).sliceShape(), "k gathered over y: split by x");
    assertEquals(Shape.of(8, 2), s.inputs().get(1).sliceShape());
    TensorLayout out = s.outputs().get(0);
    assertEquals(Shape.of(16, 1), out.sliceShape(), "columns split 8 ways, (y, x)");
    NodeSharding.Partial p = s.partial().get(0);
    assertEquals(1, p.scatterDim(), "a ReduceScatter along the columns");
    assertEquals(List.of(0), p.deviceAxes(), "over x, the left axis");
    assertEquals(List.of(1, 5), p.group(out.deviceMatrix(), 1), "rank 1 with rank 5");
    // The 3D form is refused with MindSpore's operator failure.
    Attrs threeD =
        Attrs.of(
            "enable_nd_tp",
            true,
            "in_layout",
            List.of(
                multi(dm, List.of(List.of(-1), List.of(1, 0))),
                multi(dm, List.of(List.of(1, 0), List.of(-1)))));
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                RulesOracle.INSTANCE.shard(
                    "MatMul", threeD, in, outShape, Arrays.asList(null, null), 8));
    assertTrue(e.getMessage().startsWith("Failure:operator MatMul init failed"), e.getMessage());
  }

  /** An entry whose dimensions each list their axes (counted from the right), outermost first. */
  private static List<Object> multi(List<Integer> dm, List<List<Integer>> axes) {
    return List.of(dm, axes);
  }

  @Test
  void aDimensionSplitOverAxesOutOfOrderTakesTheSlicesMindSporeGives() {
    // Layout((2, 2, 2), ("dp", "sp", "mp")): x ("mp", ("sp", "dp")), w (("sp", "dp"), "None"),
    // from the right dp = 2, sp = 1, mp = 0. The reduction dimension of both is cut 4 ways, slice
    // sp * 2 + dp: rank r = 4 dp + 2 sp + mp.
    List<Integer> dm = List.of(2, 2, 2);
    NodeSharding s =
        shard(
            multi(dm, List.of(List.of(0), List.of(1, 2))),
            multi(dm, List.of(List.of(1, 2), List.of(-1))));
    TensorLayout x = s.inputs().get(0);
    TensorLayout w = s.inputs().get(1);
    for (int r = 0; r < 8; r++) {
      int dp = r / 4;
      int sp = r / 2 % 2;
      int mp = r % 2;
      int k = sp * 2 + dp;
      assertEquals(
          List.of(
              new TensorLayout.SliceRange(mp * 8, mp * 8 + 8),
              new TensorLayout.SliceRange(k * 2, k * 2 + 2)),
          x.sliceRanges(r),
          "x on rank " + r);
      assertEquals(
          List.of(new TensorLayout.SliceRange(k * 2, k * 2 + 2), new TensorLayout.SliceRange(0, 4)),
          w.sliceRanges(r),
          "w on rank " + r);
    }
    // Reported as written: MindSpore's device matrix, the multi-axis dimension as a list.
    assertEquals(List.of(2, 2, 2), w.declared().deviceMatrix());
    assertEquals(List.of(List.of(1, 2), List.of(-1)), w.declared().tensorMap());
    assertEquals(List.of(List.of(0), List.of(1, 2)), x.declared().tensorMap());
  }

  @Test
  void anAxisUsedTwiceIsRefused() {
    List<Integer> dm = List.of(2, 2, 2);
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                shard(
                    multi(dm, List.of(List.of(0), List.of(0, 2))),
                    multi(dm, List.of(List.of(1), List.of(-1)))));
    assertTrue(e.getMessage().contains("twice or outside it"), e.getMessage());
  }
}
