package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's {@code ReduceSum}, {@code ReduceMean}, {@code ReduceMax}, {@code ReduceMin} and
 * {@code ReduceProd} on host tensors, with the checks and texts of MindSpore 2.10 (CPU).
 *
 * <p>The result keeps the input type: floats accumulate in double in row-major order of the input
 * (deterministic) and round once on store; integers accumulate in long and wrap (an int8 sum of
 * {@code [100, 100]} is {@code -56}); an integer mean divides that wrapped sum, truncating. A bool
 * sum is a logical or; a bool mean is a RuntimeError, a bool max/min a TypeError. An empty axis
 * list reduces every dimension. Example: {@code reduce(Op.SUM, float32 [[1, 2], [3, 4]], [1],
 * false)} is {@code [3, 7]}.
 */
public final class Reductions {
  private Reductions() {}

  /** The reduction kinds, by MindSpore primitive name. */
  public enum Op {
    SUM("ReduceSum"),
    MEAN("ReduceMean"),
    MAX("ReduceMax"),
    MIN("ReduceMin"),
    PROD("ReduceProd");

    private final String primitive;

    Op(String primitive) {
      this.primitive = primitive;
    }

    public String primitive() {
      return primitive;
    }

    /** The op with primitive name {@code name}, or a ValueError. */
    public static Op of(String name) {
      for (Op o : values()) {
        if (o.primitive.equals(name)) {
          return o;
        }
      }
      throw MsException.valueError("Unsupported reduction '" + name + "'.");
    }
  }

  /**
   * The type of {@link #cumSum}: its input's; bool and an axis outside {@code [-rank, rank)} are
   * MindSpore 2.10's TypeError and ValueError.
   */
  public static AbstractTensor cumSumType(AbstractTensor x, int axis) {
    if (x.dtype() == DType.BOOL) {
      throw MsException.typeError(
          "For primitive[CumSum], the input argument[x] must be a type of {Tensor[BFloat16],"
              + " Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32],"
              + " Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8],"
              + " Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}, but got"
              + " Tensor[Bool].");
    }
    checkAxis("CumSum", axis, x.rank());
    return x;
  }

  /** The type of {@link #cumProd}: its input's (no bool kernel; the axis as CumSum's). */
  public static AbstractTensor cumProdType(AbstractTensor x, int axis) {
    if (x.dtype() == DType.BOOL) {
      throw Elementwise.unsupported("CumProd", DType.BOOL, false);
    }
    checkAxis("CumProd", axis, x.rank());
    return x;
  }

  /**
   * MindSpore's ValueError for an {@code axis} outside {@code [-bound, bound)}: "For
   * primitive[ArgMinWithValue], the axis must be in [-1,1), but got 2."
   */
  public static void checkAxis(String primitive, int axis, int bound) {
    if (axis < -bound || axis >= bound) {
      throw MsException.valueError(
          "For primitive["
              + primitive
              + "], the axis must be in ["
              + -bound
              + ","
              + bound
              + "), but got "
              + axis
              + ".");
    }
  }

  /**
   * MindSpore's CumSum: running sums of {@code x} along {@code axis}; {@code exclusive} leaves out
   * each element itself (the first sum is 0), {@code reverse} runs from the end. Floats accumulate
   * in double and round on store; integers wrap to their type. Example: {@code cumSum([[1, 2, 3]],
   * 1, true, false)} is {@code [[0, 1, 3]]}.
   */
  public static Tensor cumSum(Tensor x, int axis, boolean exclusive, boolean reverse) {
    cumSumType(x.type(), axis);
    return scan(x, axis, exclusive, reverse, false);
  }

  /**
   * MindSpore's CumProd: running products of {@code x} along {@code axis}, as {@link #cumSum} (the
   * first exclusive product is 1).
   */
  public static Tensor cumProd(Tensor x, int axis, boolean exclusive, boolean reverse) {
    cumProdType(x.type(), axis);
    return scan(x, axis, exclusive, reverse, true);
  }

  /** The running sums ({@code product}: products) of {@code x} along {@code axis}. */
  private static Tensor scan(
      Tensor x, int axis, boolean exclusive, boolean reverse, boolean product) {
    Shape shape = x.shape();
    int a = axis < 0 ? axis + shape.rank() : axis;
    int len = shape.dim(a);
    int inner = 1;
    for (int d = a + 1; d < shape.rank(); d++) {
      inner *= shape.dim(d);
    }
    int outer = len == 0 || inner == 0 ? 0 : x.size() / (len * inner);
    Tensor r = Tensor.zeros(x.dtype(), shape);
    boolean isFloat = x.dtype().isFloat();
    for (int o = 0; o < outer; o++) {
      for (int in = 0; in < inner; in++) {
        double facc = product ? 1 : 0;
        long iacc = product ? 1 : 0;
        for (int k = 0; k < len; k++) {
          int i = (o * len + (reverse ? len - 1 - k : k)) * inner + in;
          if (isFloat) {
            double v = x.getDouble(i);
            double next = product ? facc * v : facc + v;
            r.setDouble(i, exclusive ? facc : next);
            facc = next;
          } else {
            long v = x.getLong(i);
            long next = product ? iacc * v : iacc + v;
            r.setLong(i, exclusive ? iacc : next);
            iacc = next;
          }
        }
      }
    }
    return r;
  }

  /** {@code op} over {@code axes} of {@code x}; errors name primitive {@code op.primitive()}. */
  public static Tensor reduce(Op op, Tensor x, List<Integer> axes, boolean keepDims) {
    return reduce(op, op.primitive(), x, axes, keepDims);
  }

  /**
   * {@code op} over {@code axes} of {@code x} (negative axes count from the end; none means all),
   * with errors naming {@code primitive} (e.g. {@code SumExt} for {@code ops.sum}).
   */
  public static Tensor reduce(
      Op op, String primitive, Tensor x, List<Integer> axes, boolean keepDims) {
    int rank = x.shape().rank();
    boolean[] reduced = normalizeAxes(primitive, rank, axes);
    int[] dims = x.shape().toArray();
    Tensor out =
        Tensor.zeros(x.dtype(), reduceType(op, primitive, x.type(), axes, keepDims).shape());
    int outSize = out.size();
    int n = x.size();
    long count = outSize == 0 ? 0 : n / outSize;
    // Map each input index to its output index; accumulate in input (row-major) order.
    int[] strides = new int[rank];
    int s = 1;
    for (int a = rank - 1; a >= 0; a--) {
      if (!reduced[a]) {
        strides[a] = s;
        s *= dims[a];
      }
    }
    boolean isFloat = x.dtype().isFloat();
    double[] dacc = isFloat ? new double[outSize] : null;
    long[] lacc = isFloat ? null : new long[outSize];
    boolean[] seen = new boolean[outSize];
    int[] idx = new int[rank];
    int o = 0;
    for (int i = 0; i < n; i++) {
      if (isFloat) {
        double v = x.getDouble(i);
        dacc[o] =
            switch (op) {
              case SUM, MEAN -> dacc[o] + v;
              case MAX -> !seen[o] || v > dacc[o] || Double.isNaN(v) ? v : dacc[o];
              case MIN -> !seen[o] || v < dacc[o] || Double.isNaN(v) ? v : dacc[o];
              case PROD -> seen[o] ? dacc[o] * v : v;
            };
      } else {
        long v = x.getLong(i);
        lacc[o] =
            switch (op) {
              case SUM, MEAN -> lacc[o] + v;
              case MAX -> !seen[o] || v > lacc[o] ? v : lacc[o];
              case MIN -> !seen[o] || v < lacc[o] ? v : lacc[o];
              case PROD -> seen[o] ? lacc[o] * v : v;
            };
      }
      seen[o] = true;
      for (int a = rank - 1; a >= 0; a--) {
        idx[a]++;
        o += strides[a];
        if (idx[a] < dims[a]) {
          break;
        }
        o -= strides[a] * idx[a];
        idx[a] = 0;
      }
    }
    for (int j = 0; j < outSize; j++) {
      if (op == Op.PROD && !seen[j]) {
        out.setLong(j, 1); // the empty product
        continue;
      }
      if (isFloat) {
        double v = dacc[j];
        if (op == Op.MEAN) {
          v /= count;
        }
        out.setDouble(j, v);
      } else {
        out.setLong(j, lacc[j]);
        if (op == Op.MEAN) {
          // The sum wraps to the input type before the division (int8 mean of [100, 100] is -28).
          out.setLong(j, count == 0 ? 0 : out.getLong(j) / count);
        }
      }
    }
    return out;
  }

  /** The type {@link #reduce} gives, with its errors; reads no values. */
  public static AbstractTensor reduceType(
      Op op, String primitive, AbstractTensor x, List<Integer> axes, boolean keepDims) {
    int rank = x.rank();
    boolean[] reduced = normalizeAxes(primitive, rank, axes);
    if (x.dtype() == DType.BOOL) {
      if (op == Op.MEAN) {
        throw MsException.runtimeError(
            "For '" + primitive + "', unsupported reduce operation for bool.");
      }
      if (op != Op.SUM && op != Op.PROD) {
        throw MsException.typeError(
            "Select CPU operator[" + primitive + "] fail! Unsupported data type!");
      }
    }
    List<Integer> outDims = new ArrayList<>();
    for (int a = 0; a < rank; a++) {
      if (!reduced[a]) {
        outDims.add(x.shape().dim(a));
      } else if (keepDims) {
        outDims.add(1);
      }
    }
    return x.withShape(new Shape(outDims));
  }

  /** Which dimensions {@code axes} names; all of them when empty. */
  static boolean[] normalizeAxes(String primitive, int rank, List<Integer> axes) {
    boolean[] reduced = new boolean[rank];
    if (axes.isEmpty()) {
      java.util.Arrays.fill(reduced, true);
      return reduced;
    }
    int bound = Math.max(rank, 1);
    for (int axis : axes) {
      if (axis < -bound || axis >= bound) {
        throw MsException.valueError(
            "For primitive["
                + primitive
                + "], the axis value must be in ["
                + -bound
                + ","
                + bound
                + "), but got "
                + axis
                + ".");
      }
      if (rank == 0) {
        continue;
      }
      int a = axis < 0 ? axis + rank : axis;
      if (reduced[a]) {
        throw MsException.runtimeError("dim=" + a + " appears multiple times in the list of dims");
      }
      reduced[a] = true;
    }
    return reduced;
  }

  /**
   * For each position of {@code x} less dimension {@code axis} (row-major), the index along {@code
   * axis} of the first maximum ({@code max}) or minimum; NaN never wins a comparison, so it is
   * chosen only where it comes first. A 0-d {@code x} has one position, index 0.
   */
  public static int[] argExtremum(Tensor x, int axis, boolean max) {
    int rank = x.shape().rank();
    if (rank == 0) {
      return new int[] {0};
    }
    int a = Math.floorMod(axis, rank);
    int n = x.shape().dim(a);
    int inner = 1;
    for (int d = a + 1; d < rank; d++) {
      inner *= x.shape().dim(d);
    }
    int positions = n == 0 ? 0 : x.size() / n;
    int[] best = new int[positions];
    for (int p = 0; p < positions; p++) {
      int base = (p / inner) * n * inner + p % inner;
      int k0 = 0;
      double v0 = x.getDouble(base);
      for (int k = 1; k < n; k++) {
        double v = x.getDouble(base + k * inner);
        if (max ? v > v0 : v < v0) {
          v0 = v;
          k0 = k;
        }
      }
      best[p] = k0;
    }
    return best;
  }

  /** The elements of {@code x} at {@code index} (one per position, as {@link #argExtremum}). */
  public static Tensor gatherAlong(Tensor x, int axis, int[] index, Shape out) {
    int rank = x.shape().rank();
    Tensor r = Tensor.zeros(x.dtype(), out);
    if (rank == 0) {
      r.setDouble(0, x.getDouble(0));
      return r;
    }
    int a = Math.floorMod(axis, rank);
    int n = x.shape().dim(a);
    int inner = 1;
    for (int d = a + 1; d < rank; d++) {
      inner *= x.shape().dim(d);
    }
    boolean isFloat = x.dtype().isFloat();
    for (int p = 0; p < index.length; p++) {
      int i = (p / inner) * n * inner + p % inner + index[p] * inner;
      if (isFloat) {
        r.setDouble(p, x.getDouble(i));
      } else {
        r.setLong(p, x.getLong(i));
      }
    }
    return r;
  }

  /** {@code values} as a tensor of integer type {@code dtype} and shape {@code shape}. */
  public static Tensor indices(int[] values, DType dtype, Shape shape) {
    Tensor r = Tensor.zeros(dtype, shape);
    for (int i = 0; i < values.length; i++) {
      r.setLong(i, values[i]);
    }
    return r;
  }
}
