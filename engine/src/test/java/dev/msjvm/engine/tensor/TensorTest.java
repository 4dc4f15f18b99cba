package dev.msjvm.engine.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TensorTest {
  @Test
  void nestedListsRoundTrip() {
    Tensor t = Tensor.of(DType.INT64, Shape.of(2, 3), List.of(1, 2, 3, 4, 5, 6));
    assertEquals(List.of(List.of(1L, 2L, 3L), List.of(4L, 5L, 6L)), t.toList());
    Tensor s = Tensor.of(DType.FLOAT32, Shape.scalar(), List.of(2.5));
    assertEquals(2.5, s.toList());
    Tensor b = Tensor.of(DType.BOOL, Shape.of(3), List.of(true, 0, 2.0));
    assertEquals(List.of(true, false, true), b.toList());
  }

  // numpy's astype semantics: truncation toward zero, wrap-around to the integer width.
  @ParameterizedTest
  @CsvSource({"INT32, -2.7, -2", "INT8, 200, -56", "UINT8, -1, 255", "INT16, 70000, 4464"})
  void castsTruncateAndWrap(DType dtype, double value, long expected) {
    Object v = value == Math.rint(value) ? (Object) (long) value : (Object) value;
    assertEquals(expected, Tensor.of(dtype, Shape.of(1), List.of(v)).getLong(0));
  }

  @Test
  void halfPrecisionValuesAreRoundedToTheirType() {
    // 0.1 is not representable; float16 keeps 0.0999755859375, bfloat16 0.10009765625.
    assertEquals(0.0999755859375, Tensor.of(DType.FLOAT16, Shape.of(1), List.of(0.1)).getDouble(0));
    assertEquals(0.10009765625, Tensor.of(DType.BFLOAT16, Shape.of(1), List.of(0.1)).getDouble(0));
    assertEquals((double) 0.1f, Tensor.of(DType.FLOAT32, Shape.of(1), List.of(0.1)).getDouble(0));
    assertEquals(65504.0, Tensor.of(DType.FLOAT16, Shape.of(1), List.of(65504)).getDouble(0));
    assertEquals(
        Double.POSITIVE_INFINITY,
        Tensor.of(DType.FLOAT16, Shape.of(1), List.of(70000)).getDouble(0));
  }

  @Test
  void bytesAreReadLittleEndianInTheTypesLayout() {
    ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    b.putFloat(1.5f).putFloat(-2f).putFloat(3.25f);
    Tensor t = Tensor.fromBytes(DType.FLOAT32, Shape.of(3), b.array());
    assertEquals(List.of(1.5, -2.0, 3.25), t.toList());
    Tensor i =
        Tensor.fromBytes(DType.INT16, Shape.of(2), new byte[] {1, 0, (byte) 0xff, (byte) 0xff});
    assertEquals(List.of(1L, -1L), i.toList());
    assertThrows(
        MsException.class, () -> Tensor.fromBytes(DType.FLOAT32, Shape.of(2), new byte[4]));
  }

  @Test
  void floatAstypeKeepsValuesAndNeverSharesStorage() {
    Tensor half = Tensor.of(DType.FLOAT16, Shape.of(3), List.of(0.1, -65504.0, 1e-7));
    Tensor f32 = half.astype(DType.FLOAT32);
    assertEquals(DType.FLOAT32, f32.dtype());
    assertEquals(half.toList(), f32.toList());
    Tensor same = f32.astype(DType.FLOAT32);
    assertEquals(f32.toList(), same.toList());
    assertEquals(false, same.sharesStorage(f32));
    Tensor f64 = f32.astype(DType.FLOAT64);
    assertEquals(f32.toList(), f64.toList());
    assertEquals(DType.FLOAT64, f64.dtype());
  }

  @Test
  void astypeConvertsEveryElement() {
    Tensor f = Tensor.of(DType.FLOAT32, Shape.of(3), List.of(1.9, -1.9, 0.0));
    assertEquals(List.of(1L, -1L, 0L), f.astype(DType.INT32).toList());
    assertEquals(List.of(true, true, false), f.astype(DType.BOOL).toList());
    assertEquals(DType.INT32, f.astype(DType.INT32).dtype());
  }

  @Test
  void wrongCountOrTypeIsAnError() {
    assertThrows(MsException.class, () -> Tensor.of(DType.INT32, Shape.of(2), List.of(1, 2, 3)));
    MsException e =
        assertThrows(MsException.class, () -> Tensor.of(DType.INT32, Shape.of(1), List.of("x")));
    assertEquals(MsException.Kind.TYPE_ERROR, e.kind());
  }
}
