package dev.msjvm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadLimitTest {
  @Test
  void byteSizeIsExactOrMinusOne() {
    assertEquals(24, ReadLimit.byteSize(List.of(2, 3), 4));
    assertEquals(8, ReadLimit.byteSize(List.of(), 8)); // a scalar
    assertEquals(0, ReadLimit.byteSize(List.of(Long.MAX_VALUE, Long.MAX_VALUE, 0L), 8));
    assertEquals(-1, ReadLimit.byteSize(List.of(0L, -1L), 1));
    long d = Integer.MAX_VALUE;
    // (2^31 - 1)^3 wraps a long to 4611686024869838847; the wrapped value must not pass.
    assertEquals(-1, ReadLimit.byteSize(List.of(d, d, d), 1));
    assertEquals(-1, ReadLimit.byteSize(List.of(1L << 61), 8));
  }

  @Test
  void refusalsSayWhatWasDeclaredAgainstWhat() {
    ReadLimit limit = new ReadLimit(100);
    assertNull(limit.refusal(100, 100));
    assertEquals("300 bytes, but only 28 are left", limit.refusal(300, 28));
    assertEquals(
        "200 bytes, over the limit of 100 bytes set by msjvm.maxReadBytes",
        limit.refusal(200, 1000));
    assertEquals("a size that does not fit in 63 bits", limit.refusal(-5, 1000));
    assertEquals(
        "3000000000 bytes, more than one array can hold (2147483639)",
        ReadLimit.none().refusal(3_000_000_000L, 4_000_000_000L));
  }

  @Test
  void theSystemPropertySetsTheDefaultLimit() {
    String before = System.getProperty(ReadLimit.PROPERTY);
    try {
      System.clearProperty(ReadLimit.PROPERTY);
      assertEquals(ReadLimit.none(), ReadLimit.fromSystemProperty());
      System.setProperty(ReadLimit.PROPERTY, "4096");
      assertEquals(new ReadLimit(4096), ReadLimit.fromSystemProperty());
      System.setProperty(ReadLimit.PROPERTY, "4k");
      MsException e = assertThrows(MsException.class, ReadLimit::fromSystemProperty);
      assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
      assertEquals(
          "The system property msjvm.maxReadBytes must be a positive number of bytes, but got"
              + " '4k'.",
          e.getMessage());
    } finally {
      if (before == null) {
        System.clearProperty(ReadLimit.PROPERTY);
      } else {
        System.setProperty(ReadLimit.PROPERTY, before);
      }
    }
  }
}
