package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;

/**
 * Batched triangular matrices: MindSpore's {@code MatrixTriangularSolve} and {@code MatrixBandPart}
 * on the innermost two dimensions, with MindSpore 2.10's checks (CPU). Example: {@code
 * triangularSolve([[2, 0], [1, 3]], [[2, 4], [5, 6]], lower, no adjoint)} is {@code [[1, 2], [4/3,
 * 4/3]]}.
 */
public final class Linalg {
  private Linalg() {}

  /** The type of {@link #triangularSolve}: the right-hand side's. */
  public static AbstractTensor triangularSolveType(AbstractTensor matrix, AbstractTensor rhs) {
    String p = "For 'MatrixTriangularSolve', ";
    for (AbstractTensor t : new AbstractTensor[] {matrix, rhs}) {
      if (t.dtype() != DType.FLOAT32 && t.dtype() != DType.FLOAT64) {
        throw MsException.typeError(
            p
                + "the type of the inputs must be float32 or float64 (complex is not supported by"
                + " msjvm), but got "
                + t.dtype()
                + ".");
      }
    }
    if (matrix.dtype() != rhs.dtype()) {
      throw MsException.typeError(p + "the dtype of 'matrix' and 'rhs' must be the same.");
    }
    Shape m = matrix.shape();
    Shape b = rhs.shape();
    if (m.rank() < 2 || b.rank() != m.rank()) {
      throw MsException.valueError(
          p
              + "the rank of 'matrix' must be at least 2 and equal to the rank of 'rhs', but got "
              + m
              + " and "
              + b
              + ".");
    }
    int r = m.rank();
    boolean batchesAgree = true;
    for (int d = 0; d < r - 2; d++) {
      batchesAgree &= m.dim(d) == b.dim(d);
    }
    if (m.dim(r - 1) != m.dim(r - 2) || b.dim(r - 2) != m.dim(r - 1) || !batchesAgree) {
      throw MsException.valueError(
          p
              + "'matrix' must be square batches of the rows of 'rhs' (same batch dims), but got "
              + m
              + " and "
              + b
              + ".");
    }
    return rhs;
  }

  /**
   * Solves {@code op(A) X = B} for each innermost matrix, {@code op} the transpose when {@code
   * adjoint}; only the {@code lower} (or upper) triangle of A is read. Substitution in double,
   * rounded once on store; a zero pivot gives inf/nan as division does.
   */
  public static Tensor triangularSolve(Tensor a, Tensor b, boolean lower, boolean adjoint) {
    triangularSolveType(a.type(), b.type());
    int r = a.shape().rank();
    int n = a.shape().dim(r - 1);
    int k = b.shape().dim(r - 1);
    int batches = n == 0 ? 0 : a.size() / (n * n);
    Tensor out = Tensor.zeros(b.dtype(), b.shape());
    // Transposing a lower matrix makes it upper: substitution runs forward when op(A) is lower.
    boolean forward = lower != adjoint;
    double[] x = new double[n];
    for (int bt = 0; bt < batches; bt++) {
      int ab = bt * n * n;
      int bb = bt * n * k;
      for (int col = 0; col < k; col++) {
        for (int step = 0; step < n; step++) {
          int i = forward ? step : n - 1 - step;
          double s = b.getDouble(bb + i * k + col);
          for (int step2 = 0; step2 < step; step2++) {
            int j = forward ? step2 : n - 1 - step2;
            double aij = adjoint ? a.getDouble(ab + j * n + i) : a.getDouble(ab + i * n + j);
            s -= aij * x[j];
          }
          x[i] = s / a.getDouble(ab + i * n + i);
        }
        for (int i = 0; i < n; i++) {
          out.setDouble(bb + i * k + col, x[i]);
        }
      }
    }
    return out;
  }

  /**
   * MindSpore's MatrixBandPart: keeps element (i, j) of each innermost matrix where {@code lower <
   * 0 || i - j <= lower} and {@code upper < 0 || j - i <= upper}, zeros the rest.
   */
  public static Tensor bandPart(Tensor x, long lower, long upper) {
    bandPartType(x.type());
    int r = x.shape().rank();
    int rows = x.shape().dim(r - 2);
    int cols = x.shape().dim(r - 1);
    Tensor out = Tensor.zeros(x.dtype(), x.shape());
    for (int i = 0; i < x.size(); i++) {
      int row = i / cols % rows;
      int col = i % cols;
      if ((lower < 0 || row - col <= lower) && (upper < 0 || col - row <= upper)) {
        out.setDouble(i, x.getDouble(i));
      }
    }
    return out;
  }

  /** The type of {@link #bandPart}: its input's, of rank 2 or more. */
  /**
   * Triu ({@code upper}) or Tril of the last two dims: the elements with {@code col - row >=
   * diagonal} (Triu) or {@code <= diagonal} (Tril), zeros elsewhere.
   */
  public static Tensor triangle(Tensor x, long diagonal, boolean upper) {
    triangleType(upper ? "Triu" : "Tril", x.type());
    int r = x.shape().rank();
    int rows = x.shape().dim(r - 2);
    int cols = x.shape().dim(r - 1);
    Tensor out = Tensor.zeros(x.dtype(), x.shape());
    boolean isFloat = x.dtype().isFloat();
    for (int i = 0; i < x.size(); i++) {
      long d = (long) (i % cols) - (i / cols) % rows;
      if (upper ? d >= diagonal : d <= diagonal) {
        if (isFloat) {
          out.setDouble(i, x.getDouble(i));
        } else {
          out.setLong(i, x.getLong(i));
        }
      }
    }
    return out;
  }

  /** Triu's and Tril's type: the input's (rank 2 or more, MindSpore's texts). */
  public static AbstractTensor triangleType(String op, AbstractTensor x) {
    if (x.rank() < 2) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], "
              + (op.equals("Triu") ? "the rank of input" : "the x's rank")
              + " must be greater than or equal to 2, but got "
              + x.rank()
              + ".");
    }
    return x;
  }

  public static AbstractTensor bandPartType(AbstractTensor x) {
    if (x.rank() < 2) {
      throw MsException.valueError(
          "For 'MatrixBandPart', the rank of 'x' must be at least 2, but got " + x.rank() + ".");
    }
    return x;
  }
}
