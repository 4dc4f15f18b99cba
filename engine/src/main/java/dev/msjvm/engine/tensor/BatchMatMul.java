package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's {@code BatchMatMul(transpose_a, transpose_b)}: a matrix product over the last two
 * dimensions, with the leading (batch) dimensions broadcast as NumPy does.
 *
 * <p>Both inputs need rank >= 2 and the same type. Float32 runs one {@link Blas} {@code sgemm} per
 * output batch; other float types accumulate in double, integers in long (wrapping), and round to
 * the input type. Example: {@code [2, 1, 2, 3] x [4, 3, 5]} gives {@code [2, 4, 2, 5]}.
 */
public final class BatchMatMul {
  private BatchMatMul() {}

  /** The type {@link #batchMatMul} gives, with its errors; reads no values. */
  public static AbstractTensor batchMatMulType(
      AbstractTensor x, AbstractTensor y, boolean transposeA, boolean transposeB) {
    int xr = x.rank();
    int yr = y.rank();
    if (xr < 2 || yr < 2) {
      throw MsException.valueError(
          "For 'BatchMatMul', input 'x' and 'y' must have rank >= 2, but got "
              + xr
              + " and "
              + yr
              + ".");
    }
    if (x.dtype() != y.dtype()) {
      throw MsException.typeError(
          "For 'BatchMatMul', the type of 'y' should be same as 'x', but got "
              + x.dtype().mindsporeName()
              + " and "
              + y.dtype().mindsporeName()
              + ".");
    }
    if (x.dtype() == DType.BOOL) {
      throw MsException.typeError("For 'BatchMatMul', the type of 'x' can not be Bool.");
    }
    int xRows = x.shape().dim(xr - 2);
    int xCols = x.shape().dim(xr - 1);
    int yRows = y.shape().dim(yr - 2);
    int yCols = y.shape().dim(yr - 1);
    int m = transposeA ? xCols : xRows;
    int k = transposeA ? xRows : xCols;
    int k2 = transposeB ? yCols : yRows;
    int n = transposeB ? yRows : yCols;
    if (k != k2) {
      throw MsException.valueError(
          "For 'BatchMatMul', the row of the input 'y' should be same as the col of the input 'x',"
              + " but got "
              + k2
              + " and "
              + k
              + ".");
    }
    Shape xb = new Shape(x.shape().dims().subList(0, xr - 2));
    Shape yb = new Shape(y.shape().dims().subList(0, yr - 2));
    Shape ob = Shape.broadcast("BatchMatMul", xb, yb);
    List<Integer> outDims = new ArrayList<>(ob.dims());
    outDims.add(m);
    outDims.add(n);
    Shape out = new Shape(outDims);
    return x.withShape(out);
  }

  /** {@code op(x) @ op(y)} per batch, {@code op} transposing the last two dims when set. */
  public static Tensor batchMatMul(
      Tensor x, Tensor y, boolean transposeA, boolean transposeB, Blas blas) {
    Shape out = batchMatMulType(x.type(), y.type(), transposeA, transposeB).shape();
    int xr = x.shape().rank();
    int yr = y.shape().rank();
    int xRows = x.shape().dim(xr - 2);
    int xCols = x.shape().dim(xr - 1);
    int yRows = y.shape().dim(yr - 2);
    int yCols = y.shape().dim(yr - 1);
    int m = out.dim(out.rank() - 2);
    int n = out.dim(out.rank() - 1);
    int k = transposeA ? xRows : xCols;
    Shape xb = new Shape(x.shape().dims().subList(0, xr - 2));
    Shape yb = new Shape(y.shape().dims().subList(0, yr - 2));
    Shape ob = new Shape(out.dims().subList(0, out.rank() - 2));
    int[] xi = Broadcast.indices(xb, ob);
    int[] yi = Broadcast.indices(yb, ob);
    int xs = xRows * xCols;
    int ys = yRows * yCols;
    int os = m * n;
    if (x.dtype() == DType.FLOAT32) {
      float[] c = FloatPool.zeroed((int) out.size());
      float[] a = x.floats();
      float[] b = y.floats();
      for (int p = 0; p < xi.length && os > 0; p++) {
        blas.sgemm(
            transposeA,
            transposeB,
            m,
            n,
            k,
            1f,
            a,
            xi[p] * xs,
            xCols,
            b,
            yi[p] * ys,
            yCols,
            0f,
            c,
            p * os,
            n);
      }
      return Tensor.ofFloats(out, c);
    }
    Tensor r = Tensor.zeros(x.dtype(), out);
    boolean f = x.dtype().isFloat();
    for (int p = 0; p < xi.length; p++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          double fs = 0;
          long ls = 0;
          for (int q = 0; q < k; q++) {
            int ia = xi[p] * xs + (transposeA ? q * xCols + i : i * xCols + q);
            int ib = yi[p] * ys + (transposeB ? j * yCols + q : q * yCols + j);
            if (f) {
              fs += x.getDouble(ia) * y.getDouble(ib);
            } else {
              ls += x.getLong(ia) * y.getLong(ib);
            }
          }
          if (f) {
            r.setDouble(p * os + i * n + j, fs);
          } else {
            r.setLong(p * os + i * n + j, ls);
          }
        }
      }
    }
    return r;
  }
}
