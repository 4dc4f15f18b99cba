package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;

/**
 * Plain loops over float32 storage for the common cases of {@link Elementwise}: two float32 inputs
 * of the same shape, or one of them a single element. Float arithmetic on floats rounds exactly as
 * computing in double and rounding to float32 does, so results match the general path.
 */
final class Float32Kernels {
  private Float32Kernels() {}

  /** The result, or null when the fast path does not apply. */
  static Tensor binary(Elementwise.Binary op, DType result, Tensor x, Tensor y, Shape out) {
    if (result != DType.FLOAT32 || x.dtype() != DType.FLOAT32 || y.dtype() != DType.FLOAT32) {
      return null;
    }
    float[] a = x.floats();
    float[] b = y.floats();
    int n = (int) out.size();
    if (!(a.length == n && (b.length == n || b.length == 1)) && !(b.length == n && a.length == 1)) {
      return null;
    }
    float[] r = FloatPool.uninitialized(n);
    boolean aOne = a.length == 1 && n != 1;
    boolean bOne = b.length == 1 && n != 1;
    switch (op) {
      case ADD -> {
        for (int i = 0; i < n; i++) {
          r[i] = a[aOne ? 0 : i] + b[bOne ? 0 : i];
        }
      }
      case SUB -> {
        for (int i = 0; i < n; i++) {
          r[i] = a[aOne ? 0 : i] - b[bOne ? 0 : i];
        }
      }
      case MUL -> {
        for (int i = 0; i < n; i++) {
          r[i] = a[aOne ? 0 : i] * b[bOne ? 0 : i];
        }
      }
      case REAL_DIV -> {
        for (int i = 0; i < n; i++) {
          r[i] = a[aOne ? 0 : i] / b[bOne ? 0 : i];
        }
      }
      default -> {
        for (int i = 0; i < n; i++) {
          r[i] = (float) Elementwise.floatOp(op, a[aOne ? 0 : i], b[bOne ? 0 : i]);
        }
      }
    }
    return Tensor.ofFloats(out, r);
  }
}
