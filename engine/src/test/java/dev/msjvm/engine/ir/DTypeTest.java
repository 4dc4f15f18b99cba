package dev.msjvm.engine.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DTypeTest {
  // (Tensor([1], row) + Tensor([1], column)).dtype on MindSpore 2.10.0 (CPU), every pair.
  private static final List<DType> ORDER =
      List.of(
          DType.BOOL,
          DType.UINT8,
          DType.INT8,
          DType.INT16,
          DType.INT32,
          DType.INT64,
          DType.FLOAT16,
          DType.BFLOAT16,
          DType.FLOAT32,
          DType.FLOAT64);
  private static final String[] MINDSPORE_TABLE = {
    "Bool UInt8 Int8 Int16 Int32 Int64 Float16 BFloat16 Float32 Float64",
    "UInt8 UInt8 Int16 Int16 Int32 Int64 Float16 BFloat16 Float32 Float64",
    "Int8 Int16 Int8 Int16 Int32 Int64 Float16 BFloat16 Float32 Float64",
    "Int16 Int16 Int16 Int16 Int32 Int64 Float16 BFloat16 Float32 Float64",
    "Int32 Int32 Int32 Int32 Int32 Int64 Float16 BFloat16 Float32 Float64",
    "Int64 Int64 Int64 Int64 Int64 Int64 Float16 BFloat16 Float32 Float64",
    "Float16 Float16 Float16 Float16 Float16 Float16 Float16 Float32 Float32 Float64",
    "BFloat16 BFloat16 BFloat16 BFloat16 BFloat16 BFloat16 Float32 BFloat16 Float32 Float64",
    "Float32 Float32 Float32 Float32 Float32 Float32 Float32 Float32 Float32 Float64",
    "Float64 Float64 Float64 Float64 Float64 Float64 Float64 Float64 Float64 Float64",
  };

  @Test
  void tensorPromotionMatchesMindSpore() {
    for (int i = 0; i < ORDER.size(); i++) {
      String[] expected = MINDSPORE_TABLE[i].split(" ");
      for (int j = 0; j < ORDER.size(); j++) {
        DType got = DType.promote(ORDER.get(i), ORDER.get(j));
        assertEquals(expected[j], got.mindsporeName(), ORDER.get(i) + " + " + ORDER.get(j));
      }
    }
  }

  // (Tensor([1], t) + scalar).dtype for scalars True, 2, 2.5 on MindSpore 2.10.0.
  @Test
  void scalarPromotionMatchesMindSpore() {
    String[] expected = {
      "Bool Int64 Float32",
      "UInt8 UInt8 Float32",
      "Int8 Int8 Float32",
      "Int16 Int16 Float32",
      "Int32 Int32 Float32",
      "Int64 Int64 Float32",
      "Float16 Float16 Float16",
      "BFloat16 BFloat16 BFloat16",
      "Float32 Float32 Float32",
      "Float64 Float64 Float64",
    };
    for (int i = 0; i < ORDER.size(); i++) {
      DType t = ORDER.get(i);
      String got =
          DType.promoteWithScalar(t, true, false)
              + " "
              + DType.promoteWithScalar(t, false, true)
              + " "
              + DType.promoteWithScalar(t, false, false);
      assertEquals(expected[i], got, t.toString());
    }
  }
}
