package dev.msjvm.engine.checkpoint;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A tensor's values as little-endian raw bytes in its type's layout (NumPy's {@code tobytes()},
 * what MindSpore puts in {@code TensorProto.tensor_content}); the inverse is {@link
 * Tensor#fromBytes}.
 *
 * <p>Example: an Int32 tensor {@code [1, 2]} is {@code 01 00 00 00 02 00 00 00}.
 */
public final class TensorBytes {
  private TensorBytes() {}

  public static byte[] of(Tensor t) {
    DType dtype = t.dtype();
    int n = t.size();
    ByteBuffer b = ByteBuffer.allocate(Math.multiplyExact(n, dtype.itemSize()));
    b.order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      switch (dtype) {
        case BOOL, UINT8, INT8 -> b.put((byte) t.getLong(i));
        case INT16 -> b.putShort((short) t.getLong(i));
        case INT32 -> b.putInt((int) t.getLong(i));
        case INT64 -> b.putLong(t.getLong(i));
        case FLOAT16 -> b.putShort(Float.floatToFloat16((float) t.getDouble(i)));
        // Stored values are already rounded to bfloat16, so the upper half is exact.
        case BFLOAT16 ->
            b.putShort((short) (Float.floatToRawIntBits((float) t.getDouble(i)) >>> 16));
        case FLOAT32 -> b.putFloat((float) t.getDouble(i));
        case FLOAT64 -> b.putDouble(t.getDouble(i));
      }
    }
    return b.array();
  }
}
