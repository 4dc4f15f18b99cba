package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;

/**
 * MindSpore's 2-D {@code MatMul} primitive on host tensors, with its checks and error texts.
 *
 * <p>Float32 runs on the given {@link Blas} (OpenBLAS when available, the naive reference
 * otherwise); other types accumulate in double (integers in long, wrapping) and round to the input
 * type. Both inputs must have rank 2 and the same type. Example: a {@code [2, 3]} times a {@code
 * [3, 2]} float32 tensor is a {@code [2, 2]} float32 tensor.
 */
public final class MatMul {
  private MatMul() {}

  /** The type {@link #matmul} gives, with its errors; reads no values. */
  public static AbstractTensor matmulType(
      AbstractTensor x, AbstractTensor y, boolean transposeA, boolean transposeB) {
    if (x.rank() != 2 || y.rank() != 2) {
      throw MsException.valueError(
          "MatMul inputs should have the same dimension size and equal to 2.");
    }
    if (x.dtype() != y.dtype()) {
      throw MsException.typeError(
          "For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with type Tensor["
              + x.dtype()
              + "] and 'x2' with type Tensor["
              + y.dtype()
              + "].");
    }
    int m = transposeA ? x.shape().dim(1) : x.shape().dim(0);
    int k = transposeA ? x.shape().dim(0) : x.shape().dim(1);
    int k2 = transposeB ? y.shape().dim(1) : y.shape().dim(0);
    int n = transposeB ? y.shape().dim(0) : y.shape().dim(1);
    if (k != k2) {
      throw MsException.valueError(
          "For 'MatMul' the input dimensions must be equal, but got 'x1_col': "
              + k
              + " and 'x2_row': "
              + k2
              + ".");
    }
    return new AbstractTensor(Shape.of(m, n), x.dtype());
  }

  /** {@code op(x) @ op(y)} where {@code op} transposes when the flag is set. */
  public static Tensor matmul(
      Tensor x, Tensor y, boolean transposeA, boolean transposeB, Blas blas) {
    Shape out = matmulType(x.type(), y.type(), transposeA, transposeB).shape();
    int m = out.dim(0);
    int n = out.dim(1);
    int k = transposeA ? x.shape().dim(0) : x.shape().dim(1);
    if (x.dtype() == DType.FLOAT32) {
      float[] c = FloatPool.uninitialized(m * n); // beta = 0: sgemm writes every element
      if (m > 0 && n > 0) {
        blas.sgemm(
            transposeA,
            transposeB,
            m,
            n,
            k,
            1f,
            x.floats(),
            0,
            x.shape().dim(1),
            y.floats(),
            0,
            y.shape().dim(1),
            0f,
            c,
            0,
            n);
      }
      return Tensor.ofFloats(out, c);
    }
    if (x.dtype() == DType.BOOL) {
      throw MsException.typeError("For 'MatMul', the type of 'x1' can not be Bool.");
    }
    Tensor result = Tensor.zeros(x.dtype(), out);
    int lda = x.shape().dim(1);
    int ldb = y.shape().dim(1);
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        if (x.dtype().isFloat()) {
          double sum = 0;
          for (int p = 0; p < k; p++) {
            sum +=
                x.getDouble(transposeA ? p * lda + i : i * lda + p)
                    * y.getDouble(transposeB ? j * ldb + p : p * ldb + j);
          }
          result.setDouble(i * n + j, sum);
        } else {
          long sum = 0;
          for (int p = 0; p < k; p++) {
            sum +=
                x.getLong(transposeA ? p * lda + i : i * lda + p)
                    * y.getLong(transposeB ? j * ldb + p : p * ldb + j);
          }
          result.setLong(i * n + j, sum);
        }
      }
    }
    return result;
  }
}
