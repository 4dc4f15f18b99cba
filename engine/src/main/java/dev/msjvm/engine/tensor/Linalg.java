package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;

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

  /** TraceV2's axes as non-negative dims, with MindSpore's checks; its output shape. */
  private static int[] traceAxes(Shape x, long axis1, long axis2) {
    int r = x.rank();
    if (r < 2) {
      throw MsException.runtimeError(
          "For Primitive[Tracev2], the dim of input 'x' should greater or equal to 2, but got 'x' at "
              + r
              + "-dimention");
    }
    for (String name : List.of("axis1", "axis2")) {
      long v = name.equals("axis1") ? axis1 : axis2;
      if (v < -r || v >= r) {
        throw MsException.valueError(
            "For primitive[TraceV2], the "
                + name
                + " must be in range of ["
                + -r
                + ", "
                + r
                + "), but got "
                + v
                + ".");
      }
    }
    int a1 = (int) (axis1 < 0 ? axis1 + r : axis1);
    int a2 = (int) (axis2 < 0 ? axis2 + r : axis2);
    if (a1 == a2) {
      throw MsException.runtimeError(
          "For Primitive[Tracev2], the value of 'axis1' and 'axis2' must be different, but got"
              + " 'axis1': "
              + a1
              + " and 'axis2': "
              + a2);
    }
    return new int[] {a1, a2};
  }

  /**
   * TraceV2's type: the input's shape without axis1 and axis2; {@code dtype} when given, else the
   * input's, small integers widened to int64 (MindSpore's infer).
   */
  public static AbstractTensor traceV2Type(AbstractTensor x, long axis1, long axis2, DType dtype) {
    int[] a = traceAxes(x.shape(), axis1, axis2);
    List<Integer> dims = new java.util.ArrayList<>();
    for (int d = 0; d < x.shape().rank(); d++) {
      if (d != a[0] && d != a[1]) {
        dims.add(x.shape().dim(d));
      }
    }
    DType out = dtype;
    if (out == null) {
      out =
          switch (x.dtype()) {
            case INT8, INT16, INT32, UINT8 -> DType.INT64;
            default -> x.dtype();
          };
    }
    return new AbstractTensor(new Shape(dims), out);
  }

  /** The output index of input element {@code i} on the diagonal {@code offset}, or -1. */
  private static int traceIndex(Shape x, int[] axes, long offset, int i) {
    int rest = 0;
    int row = 0;
    int col = 0;
    int stride = x.size() > 0 ? (int) x.size() : 1;
    for (int d = 0; d < x.rank(); d++) {
      stride /= x.dim(d);
      int c = i / stride % x.dim(d);
      if (d == axes[0]) {
        row = c;
      } else if (d == axes[1]) {
        col = c;
      } else {
        rest = rest * x.dim(d) + c;
      }
    }
    return col - row == offset ? rest : -1;
  }

  /** TraceV2: the sums of the {@code offset} diagonals of the (axis1, axis2) planes. */
  public static Tensor traceV2(Tensor x, long offset, long axis1, long axis2, DType dtype) {
    AbstractTensor t = traceV2Type(x.type(), axis1, axis2, dtype);
    int[] axes = traceAxes(x.shape(), axis1, axis2);
    boolean real = x.dtype().isFloat() || t.dtype().isFloat();
    double[] sums = new double[(int) t.shape().size()];
    long[] ints = new long[sums.length];
    for (int i = 0; i < x.size(); i++) {
      int o = traceIndex(x.shape(), axes, offset, i);
      if (o >= 0) {
        if (real) {
          sums[o] += x.getDouble(i);
        } else {
          ints[o] += x.getLong(i);
        }
      }
    }
    return Tensor.ofDoubles(t.dtype(), t.shape(), i -> real ? sums[i] : ints[i]);
  }

  /** TraceV2Grad: {@code dout} on the diagonals of a tensor of {@code shape}, zeros elsewhere. */
  public static Tensor traceV2Grad(
      Tensor dout, List<Integer> shape, DType type, long offset, long axis1, long axis2) {
    Shape x = new Shape(shape);
    int[] axes = traceAxes(x, axis1, axis2);
    Tensor out = Tensor.zeros(type, x);
    for (int i = 0; i < out.size(); i++) {
      int o = traceIndex(x, axes, offset, i);
      if (o >= 0) {
        out.setDouble(i, dout.getDouble(o));
      }
    }
    return out;
  }
}
