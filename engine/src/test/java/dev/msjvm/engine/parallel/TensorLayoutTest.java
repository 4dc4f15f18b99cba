package dev.msjvm.engine.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** DeviceMatrix coordinates and groups, TensorLayout slices, validation and printing. */
class TensorLayoutTest {

  private static final DeviceMatrix DM_2x4 = DeviceMatrix.of(2, 4);

  /** Axes of size 1 do not tell layouts apart (MindSpore drops them before comparing). */
  @Test
  void unitAxesDoNotTellLayoutsApart() {
    TensorLayout matmulInput = TensorLayout.of(DeviceMatrix.of(8, 1, 1), new int[] {2, 1}, 32, 16);
    TensorLayout castOutput = TensorLayout.of(DeviceMatrix.of(8, 1), new int[] {1, 0}, 32, 16);
    assertFalse(matmulInput.equals(castOutput));
    assertTrue(matmulInput.equalsWithoutUnitAxes(castOutput));
    assertTrue(castOutput.equalsWithoutUnitAxes(matmulInput));
    TensorLayout columns = TensorLayout.of(DeviceMatrix.of(1, 8), new int[] {1, 0}, 32, 16);
    assertFalse(columns.equalsWithoutUnitAxes(castOutput));
    TensorLayout whole = TensorLayout.of(DeviceMatrix.of(1, 1), new int[] {1, 0}, 32, 16);
    assertTrue(
        whole.equalsWithoutUnitAxes(
            TensorLayout.of(DeviceMatrix.of(1), new int[] {-1, -1}, 32, 16)));
  }

  /**
   * The seed's fc1 layout (split 4 ways, repeated twice): every rank's slice, gathered, is the
   * whole.
   */
  @Test
  void wholeFromUndoesSliceOf() {
    TensorLayout l = TensorLayout.of(DeviceMatrix.of(2, 4, 1), new int[] {1, 0}, 8, 3);
    float[] whole = new float[24];
    for (int i = 0; i < whole.length; i++) {
      whole[i] = i;
    }
    float[] gathered = new float[8 * 6];
    for (int r = 0; r < 8; r++) {
      System.arraycopy(l.sliceOf(whole, r), 0, gathered, r * 6, 6);
    }
    assertArrayEquals(whole, l.wholeFrom(gathered));
    assertThrows(MsException.class, () -> l.wholeFrom(new float[47]));
  }

  /**
   * MindSpore's default strategy maps a weight's dims to device axes of size 1: the weight is whole
   * on every rank (not sliced: each rank fills it whole, nothing is cut), yet laid out by an
   * operator (mapped: the default-strategy rule treats it as placed).
   */
  @Test
  void aDimOnAnAxisOfSizeOneIsNotSliced() {
    TensorLayout replicated = TensorLayout.of(DeviceMatrix.of(8, 1, 1), new int[] {0, 1}, 512, 784);
    assertFalse(replicated.isSliced());
    assertTrue(replicated.isMapped());
    assertEquals(replicated.shape(), replicated.sliceShape());
    TensorLayout rows = TensorLayout.of(DeviceMatrix.of(8, 1, 1), new int[] {2, 1}, 512, 784);
    assertTrue(rows.isSliced());
    TensorLayout whole = TensorLayout.of(DM_2x4, new int[] {-1, -1}, 8, 6);
    assertFalse(whole.isSliced());
    assertFalse(whole.isMapped());
  }

  @Test
  void deviceMatrixIsRowMajorWithTheLastAxisFastest() {
    assertEquals(List.of(1, 2), DM_2x4.coordinateOf(6));
    assertEquals(6, DM_2x4.rankAt(List.of(1, 2)));
    assertEquals(List.of(4, 5, 6, 7), DM_2x4.devicesAlongAxis(5, 1));
    assertEquals(List.of(1, 5), DM_2x4.devicesAlongAxis(5, 0));
    DeviceMatrix stage = new DeviceMatrix(List.of(2, 2), List.of(8, 9, 10, 11));
    assertEquals(List.of(9, 11), stage.devicesAlongAxis(11, 0));
    assertEquals("[2, 2] on ranks [8, 9, 10, 11]", stage.toString());
    assertEquals("[2, 4]", DM_2x4.toString());
  }

  @Test
  void deviceMatrixRejectsAMismatchedRankList() {
    MsException e =
        assertThrows(MsException.class, () -> new DeviceMatrix(List.of(2, 4), List.of(0, 1, 2)));
    assertEquals(
        "Device shape does not match the size of the device list! The device matrix [2, 4] holds"
            + " 8 devices, but the rank list [0, 1, 2] has 3",
        e.getMessage());
    assertThrows(MsException.class, () -> DM_2x4.coordinateOf(8));
  }

  @Test
  void layoutSlicesAndGroups() {
    TensorLayout l = TensorLayout.of(DM_2x4, new int[] {1, -1}, 8, 6);
    assertEquals(Shape.of(4, 6), l.sliceShape());
    assertEquals(List.of(2, 1), l.strategy());
    assertTrue(l.isSplit(0));
    assertFalse(l.isSplit(1));
    assertEquals(0, l.deviceAxisOf(0));
    assertEquals(-1, l.deviceAxisOf(1));
    assertEquals(List.of(1), l.replicatedAxes());
    assertEquals(List.of(4, 5, 6, 7), l.repeatedGroup(5));
    assertEquals(List.of(1, 5), l.groupForAxis(5, 0));
    assertEquals(
        List.of(new TensorLayout.SliceRange(4, 8), new TensorLayout.SliceRange(0, 6)),
        l.sliceRanges(5));
    assertEquals("((2, 4), (1, -1), (8, 6))", l.toString());
  }

  @Test
  void sliceOfCopiesTheRanksBlock() {
    TensorLayout l =
        TensorLayout.of(DM_2x4, new int[] {0, 1}, 4, 4); // dim 0 on axis 1 (4), dim 1 on axis 0 (2)
    float[] full = new float[16];
    for (int i = 0; i < 16; i++) {
      full[i] = i;
    }
    // rank 6 = (1, 2): rows [2, 3), columns [2, 4)
    assertArrayEquals(new float[] {10, 11}, l.sliceOf(full, 6));
    assertEquals(List.of(), l.replicatedAxes());
    assertEquals(List.of(6), l.repeatedGroup(6));
  }

  @Test
  void aliasesAndStrategiesPrintLikeMindSpore() {
    assertEquals(
        List.of(2, 0),
        TensorLayout.tensorMapFromAliases(List.of("dp", "sp", "mp"), List.of("dp", "mp")));
    assertEquals(
        List.of(-1, 1),
        TensorLayout.tensorMapFromAliases(List.of("dp", "sp", "mp"), List.of("None", "sp")));
    assertEquals(
        "((2, 4), (4, 1))", TensorLayout.strategyString(List.of(List.of(2, 4), List.of(4, 1))));
    assertEquals("((8,),)", TensorLayout.strategyString(List.of(List.of(8))));
  }

  static Stream<Arguments> invalidLayouts() {
    return Stream.of(
        Arguments.of(
            List.of(8),
            List.of(1, -1),
            Shape.of(32, 256),
            "The tensor map [1, -1] is invalid for the device matrix [8]: dimension 0 maps to 1,"
                + " but a value must be -1 (not split) or a device axis counted from the right, in"
                + " [0, 1)"),
        Arguments.of(
            List.of(2, 4),
            List.of(0, 0),
            Shape.of(32, 256),
            "The tensor map [0, 0] is invalid: dimensions 0 and 1 are both split along device axis"
                + " 1 (value 0); a device axis can split at most one dimension"),
        Arguments.of(
            List.of(8),
            List.of(0, -1),
            Shape.of(4, 256),
            "The tensor shape [4, 256] is not divisible by the layout: dimension 0 has size 4, but"
                + " the slice number is 8 (device axis 0 of the device matrix [8])"),
        Arguments.of(
            List.of(8),
            List.of(0),
            Shape.of(32, 256),
            "The tensor map [0] has 1 entries but the tensor shape [32, 256] has 2 dimensions:"
                + " tensor_map size must be equal to tensor_shape size"),
        Arguments.of(
            List.of(8),
            List.of(-2, 0),
            Shape.of(32, 256),
            "The tensor map [-2, 0] is invalid for the device matrix [8]: dimension 0 maps to -2,"
                + " but a value must be -1 (not split) or a device axis counted from the right, in"
                + " [0, 1)"));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("invalidLayouts")
  void invalidLayoutsSayWhy(List<Integer> dev, List<Integer> map, Shape shape, String message) {
    DeviceMatrix dm = DeviceMatrix.of(dev.stream().mapToInt(Integer::intValue).toArray());
    MsException e = assertThrows(MsException.class, () -> TensorLayout.of(dm, map, shape));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(message, e.getMessage());
  }

  @Test
  void redistributionRejectsLayoutsOfDifferentSizesOrRanks() {
    TensorLayout a = TensorLayout.of(DeviceMatrix.of(8), new int[] {0, -1}, 32, 256);
    TensorLayout b = TensorLayout.of(DeviceMatrix.of(8), new int[] {0, -1}, 8, 256);
    MsException e =
        assertThrows(MsException.class, () -> TensorRedistribution.plan(a, b, 0, false));
    assertEquals(
        "from shape size must be equal to to shape size! from shape size is 8192, to shape size"
            + " is 2048 (shapes [32, 256] and [8, 256])",
        e.getMessage());
    e = assertThrows(MsException.class, () -> TensorRedistribution.plan(a, a, 9, false));
    assertEquals(
        "Rank 9 is not in the current stage! The stage's ranks are [0, 1, 2, 3, 4, 5, 6, 7]",
        e.getMessage());
  }

  /** Probed on MindSpore 2.10 (five AllConcats emitted for dims 0, 1, 4, 3, 2). */
  @Test
  void robinHoodOrderMatchesMindSpore() {
    assertArrayEquals(new int[] {0, 1, 2}, RobinHoodOrder.of(3));
    assertArrayEquals(new int[] {0, 1, 3, 2}, RobinHoodOrder.of(4));
    assertArrayEquals(new int[] {0, 1, 4, 3, 2}, RobinHoodOrder.of(5));
    for (int n = 1; n <= 40; n++) {
      int[] sorted = RobinHoodOrder.of(n).clone();
      java.util.Arrays.sort(sorted);
      assertArrayEquals(java.util.stream.IntStream.range(0, n).toArray(), sorted, "n=" + n);
    }
  }

  @Test
  void costFollowsMindSporesFormulas() {
    // [4, 2] over 8 ranks, map (1, 0) -> nothing split: ConcatByAxis dim 0 over 4 reading an
    // [8, 128] slice, then dim 1 over 2 reading a [32, 128] slice.
    TensorLayout from = TensorLayout.of(DeviceMatrix.of(4, 2), new int[] {1, 0}, 32, 256);
    TensorLayout to = TensorLayout.of(DeviceMatrix.of(1, 8), new int[] {-1, -1}, 32, 256);
    RedistributionPlan plan = TensorRedistribution.plan(from, to, 0, false);
    assertEquals("[('AllConcat', [0, 2, 4, 6, 0]), ('AllConcat', [0, 1, 1])]", plan.toString());
    double s1 = 8 * 128;
    double s2 = 32 * 128;
    RedistributionCost expected =
        new RedistributionCost(
            s1 + (s2 + 2 * s2 * 2),
            s1 * 4 / 2 + s2 * 2 / 2,
            s1 / 2 + s2 / 2,
            s1 * 5 / 2 + s2 * 3 / 2,
            s1 * 4 + (2 * s2 * 2 + s2));
    assertEquals(expected, plan.cost());
    // An AllToAll permute reading a [4, 64] slice on 8 ranks, concat dim 0, no reshape.
    TensorLayout p = TensorLayout.of(DeviceMatrix.of(8), new int[] {0, -1}, 32, 64);
    TensorLayout q = TensorLayout.of(DeviceMatrix.of(8), new int[] {-1, 0}, 32, 64);
    assertEquals(
        new RedistributionCost(256, 512, 512, 1024, 256),
        TensorRedistribution.plan(p, q, 3, true).cost());
  }
}
