package dev.msjvm.engine.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RankRangeTest {
  @Test
  void equalsAndHashesAsTheListOfItsRanks() {
    for (int n : new int[] {0, 1, 8, 1024}) {
      List<Integer> plain = IntStream.range(0, n).boxed().toList();
      assertEquals(plain, RankRange.of(n));
      assertEquals(RankRange.of(n), plain);
      assertEquals(plain.hashCode(), RankRange.of(n).hashCode());
      assertEquals(RankRange.of(n), RankRange.of(n));
    }
    assertNotEquals(RankRange.of(4), RankRange.of(8));
    assertNotEquals(RankRange.of(3), List.of(0, 2, 1));
    assertEquals(2, RankRange.of(4).indexOf(2));
    assertEquals(-1, RankRange.of(4).indexOf(4));
    assertThrows(IndexOutOfBoundsException.class, () -> RankRange.of(4).get(4));
    assertThrows(UnsupportedOperationException.class, () -> RankRange.of(4).set(0, 1));
  }

  @Test
  void aDeviceMatrixOverAllRanksKeepsTheRangeAndEqualsOneOverAPlainList() {
    DeviceMatrix a = DeviceMatrix.of(2, 4);
    DeviceMatrix b = new DeviceMatrix(List.of(2, 4), List.of(0, 1, 2, 3, 4, 5, 6, 7));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals(List.of(4, 5, 6, 7), a.devicesAlongAxis(5, 1));
  }
}
