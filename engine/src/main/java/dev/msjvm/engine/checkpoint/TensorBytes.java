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
  /** Elements per chunk when a writer streams a tensor's bytes (4 MiB of float32). */
  public static final int CHUNK = 1 << 20;

  private TensorBytes() {}

  /** Writes the bytes of {@code t} to {@code out} a {@link #CHUNK} at a time. */
  public static void write(Tensor t, java.io.OutputStream out) throws java.io.IOException {
    int n = t.size();
    for (int from = 0; from < n; from += CHUNK) {
      out.write(of(t, from, Math.min(CHUNK, n - from)));
    }
  }

  public static byte[] of(Tensor t) {
    return of(t, 0, t.size());
  }

  /** The bytes of elements {@code [from, from + count)}: a writer's chunk of a large tensor. */
  public static byte[] of(Tensor t, int from, int count) {
    DType dtype = t.dtype();
    ByteBuffer b = ByteBuffer.allocate(Math.multiplyExact(count, dtype.itemSize()));
    b.order(ByteOrder.LITTLE_ENDIAN);
    for (int i = from; i < from + count; i++) {
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
        case COMPLEX64 -> b.putFloat((float) t.real(i)).putFloat((float) t.imag(i));
        case COMPLEX128 -> b.putDouble(t.real(i)).putDouble(t.imag(i));
      }
    }
    return b.array();
  }
}
