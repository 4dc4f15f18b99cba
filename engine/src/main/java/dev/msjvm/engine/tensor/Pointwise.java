package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * Elementwise maps for operators declared as tables of scalar functions ({@link
 * dev.msjvm.engine.ops.ElementaryOps}): a float result is computed in double and rounded once on
 * store, an integer result in long and wrapped to its type, a bool result is "non-zero". Example:
 * {@code map(int8 [100], INT8, null, v -> v * 3)} is {@code [44]}.
 */
public final class Pointwise {
  private Pointwise() {}

  /**
   * {@code out}-typed {@code f(x)} (when {@code out} is a float or bool type, or {@code g} is null)
   * or {@code g(x)} (integer results) of every element.
   */
  public static Tensor map(Tensor x, DType out, DoubleUnaryOperator f, LongUnaryOperator g) {
    Tensor r = Tensor.zeros(out, x.shape());
    int n = r.size();
    if (g != null && !out.isFloat() && !x.dtype().isFloat()) {
      for (int i = 0; i < n; i++) {
        r.setLong(i, g.applyAsLong(x.getLong(i)));
      }
    } else {
      for (int i = 0; i < n; i++) {
        r.setDouble(i, f.applyAsDouble(x.getDouble(i)));
      }
    }
    return r;
  }

  /**
   * {@code f(x, y)} (a float {@code compute} type, both inputs first rounded to it, or a null
   * {@code g}) or {@code g(x, y)} (integer and bool compute types) of {@code x} and {@code y}
   * broadcast to {@code shape}, as an {@code out} tensor.
   */
  public static Tensor map2(
      Tensor x,
      Tensor y,
      DType compute,
      DType out,
      Shape shape,
      DoubleBinaryOperator f,
      LongBinaryOperator g) {
    Tensor r = Tensor.zeros(out, shape);
    int n = r.size();
    int[] xi = Broadcast.indices(x.shape(), shape);
    int[] yi = Broadcast.indices(y.shape(), shape);
    if (compute.isFloat() || g == null) {
      boolean round = compute.isFloat() && compute != DType.FLOAT64;
      for (int i = 0; i < n; i++) {
        double a = x.getDouble(xi[i]);
        double b = y.getDouble(yi[i]);
        if (round) {
          a = Tensor.roundFloat(compute, a);
          b = Tensor.roundFloat(compute, b);
        }
        r.setDouble(i, f.applyAsDouble(a, b));
      }
    } else {
      for (int i = 0; i < n; i++) {
        r.setLong(i, g.applyAsLong(x.getLong(xi[i]), y.getLong(yi[i])));
      }
    }
    return r;
  }

  /** {@code x} with the elements where {@code mask} (broadcast to {@code shape}) holds set to v. */
  public static Tensor fill(Tensor x, Tensor mask, Tensor value, Shape shape) {
    Tensor r = Tensor.zeros(x.dtype(), shape);
    int n = r.size();
    int[] xi = Broadcast.indices(x.shape(), shape);
    int[] mi = Broadcast.indices(mask.shape(), shape);
    boolean isFloat = x.dtype().isFloat();
    for (int i = 0; i < n; i++) {
      boolean set = mask.getDouble(mi[i]) != 0;
      if (isFloat) {
        r.setDouble(i, set ? value.getDouble(0) : x.getDouble(xi[i]));
      } else {
        r.setLong(i, set ? value.getLong(0) : x.getLong(xi[i]));
      }
    }
    return r;
  }
}
