package dev.msjvm.engine.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShapeTest {
  @Test
  void basics() {
    Shape s = Shape.of(2, 3, 4);
    assertEquals(3, s.rank());
    assertEquals(24, s.size());
    assertEquals(4, s.dim(-1));
    assertEquals("[2, 3, 4]", s.toString());
    assertEquals(1, Shape.scalar().size());
    assertEquals(Shape.of(2, 3), Shape.of(2, 3));
    assertThrows(IllegalArgumentException.class, () -> Shape.of(2, -1));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "2,3 | 2,3 | [2, 3]",
        "2,1,3 | 4,1 | [2, 4, 3]",
        "3 | 2,3 | [2, 3]",
        " | 2,3 | [2, 3]",
        "5,1 | 1,6 | [5, 6]",
      })
  void broadcastShapes(String x, String y, String expected) {
    assertEquals(expected, Shape.broadcast("Add", parse(x), parse(y)).toString());
  }

  // Texts recorded from ops.Add on MindSpore 2.10.0 (including its index arithmetic).
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "2,3 | 2,4 | 3 | 3",
        "2,3,4 | 2,3,5 | 5 | 5",
        "3,2 | 4,2 | 2 | 2",
        "3 | 4 | 1 | 1",
        "2,1,3 | 4,5 | 4 | 3",
        "7,2,3 | 6,2,3 | 3 | 3",
      })
  void broadcastErrorsUseMindSporesText(String x, String y, int xi, int yi) {
    MsException e =
        assertThrows(MsException.class, () -> Shape.broadcast("Add", parse(x), parse(y)));
    assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    assertEquals(
        "For 'Add', input1.shape and input2.shape need to broadcast. The value of input1.shape["
            + xi
            + "] or input2.shape["
            + yi
            + "] must be 1 or -1 when they are not the same, but got input1.shape = "
            + parse(x)
            + " and input2.shape = "
            + parse(y),
        e.getMessage());
  }

  private static Shape parse(String s) {
    if (s == null || s.isBlank()) {
      return Shape.scalar();
    }
    String[] parts = s.trim().split(",");
    int[] dims = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      dims[i] = Integer.parseInt(parts[i].trim());
    }
    return Shape.of(dims);
  }
}
