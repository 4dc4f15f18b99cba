package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's TensorScatter{Update, Add, Sub, Mul, Div, Max, Min} and ScatterNd{Update, Add, Sub}
 * kernels: a copy of {@code x} with, for each index tuple of {@code indices} (its last dimension k
 * long), the slice {@code x[tuple]} combined with that tuple's updates, tuple after tuple (a
 * repeated tuple updates twice: the last Update wins, Adds accumulate). Checks and texts are
 * MindSpore 2.10's.
 *
 * <p>On a rank holding a block of {@code x} split along some of the k indexed dims, {@code offsets}
 * (the block's first index along each indexed dim) and {@code global} (those dims' whole sizes)
 * place each tuple: one outside the whole tensor is the error, one outside the block belongs to
 * another rank and is skipped. Example: Add of {@code [0, 1]} with 10 into a 3 x 4 zeros gives 10
 * at row 0, column 1.
 */
public final class Scatter {
  private Scatter() {}

  /** The combining operations, by MindSpore primitive name suffix. */
  public enum Mode {
    UPDATE,
    ADD,
    SUB,
    MUL,
    DIV,
    MAX,
    MIN;

    double apply(double old, double u) {
      return switch (this) {
        case UPDATE -> u;
        case ADD -> old + u;
        case SUB -> old - u;
        case MUL -> old * u;
        case DIV -> old / u;
        case MAX -> Math.max(old, u);
        case MIN -> Math.min(old, u);
      };
    }

    long apply(long old, long u) {
      return switch (this) {
        case UPDATE -> u;
        case ADD -> old + u;
        case SUB -> old - u;
        case MUL -> old * u;
        case DIV -> u == 0 ? 0 : old / u;
        case MAX -> Math.max(old, u);
        case MIN -> Math.min(old, u);
      };
    }
  }

  /** The output type: x's, after MindSpore's checks of the three inputs. */
  public static AbstractTensor type(
      String op, AbstractTensor x, AbstractTensor indices, AbstractTensor updates) {
    if (indices.dtype() != DType.INT32 && indices.dtype() != DType.INT64) {
      throw MsException.typeError(
          "For primitive["
              + op
              + "], the input[indices type] supports types: Int32, Int64. But got "
              + indices.dtype().mindsporeName()
              + ".");
    }
    if (x.dtype() != updates.dtype()) {
      throw MsException.typeError("For primitive[" + op + "], the input type must be same.");
    }
    Shape is = indices.shape();
    int k = is.rank() == 0 ? 0 : is.dim(is.rank() - 1);
    List<Integer> want = new ArrayList<>(is.dims().subList(0, Math.max(0, is.rank() - 1)));
    if (k <= x.rank()) {
      want.addAll(x.shape().dims().subList(k, x.rank()));
    }
    if (is.rank() == 0 || k > x.rank() || !updates.shape().dims().equals(want)) {
      throw MsException.valueError(
          "For "
              + op
              + ", updates_shape = indices_shape[:-1] + x_shape[indices_shape[-1]:], but got"
              + " x_shape: "
              + paren(x.shape())
              + ", indices_shape: "
              + paren(is)
              + ", updates_shape: "
              + paren(updates.shape())
              + ".");
    }
    return x;
  }

  /**
   * {@code x} scattered into by {@code mode}; {@code offsets}/{@code global} as the class says
   * (null: {@code x} is the whole tensor).
   */
  public static Tensor scatter(
      String op,
      Mode mode,
      Tensor x,
      Tensor indices,
      Tensor updates,
      List<Integer> offsets,
      List<Integer> global) {
    type(op, x.type(), indices.type(), updates.type());
    Shape is = indices.shape();
    int k = is.dim(is.rank() - 1);
    int tuples = k == 0 ? 0 : indices.size() / k;
    int inner = 1;
    for (int d = k; d < x.shape().rank(); d++) {
      inner *= x.shape().dim(d);
    }
    Tensor out = x.copy();
    boolean isFloat = x.dtype().isFloat();
    for (int t = 0; t < tuples; t++) {
      int flat = 0;
      boolean mine = true;
      for (int j = 0; j < k; j++) {
        long v = indices.getLong(t * k + j);
        int whole = global == null ? x.shape().dim(j) : global.get(j);
        if (v < 0 || v >= whole) {
          throw outOfRange(op, mode, indices, t, k, j, x.shape(), global);
        }
        long local = v - (offsets == null ? 0 : offsets.get(j));
        if (local < 0 || local >= x.shape().dim(j)) {
          mine = false;
          break;
        }
        flat = flat * x.shape().dim(j) + (int) local;
      }
      if (!mine) {
        continue;
      }
      for (int e = 0; e < inner; e++) {
        int o = flat * inner + e;
        int u = t * inner + e;
        if (isFloat) {
          out.setDouble(o, mode.apply(out.getDouble(o), updates.getDouble(u)));
        } else {
          out.setLong(o, mode.apply(out.getLong(o), updates.getLong(u)));
        }
      }
    }
    return out;
  }

  /** MindSpore's texts: Update's shape check, and the other kernels' range check. */
  private static MsException outOfRange(
      String op, Mode mode, Tensor indices, int t, int k, int j, Shape x, List<Integer> global) {
    List<String> tuple = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      tuple.add(String.valueOf(indices.getLong(t * k + i)));
    }
    if (mode == Mode.UPDATE) {
      return MsException.valueError(
          "For '"
              + op
              + "', indices out of range for input_x. Please check the indices which is [const"
              + " vector]{"
              + String.join(", ", tuple)
              + "}");
    }
    List<String> dims = new ArrayList<>();
    for (int d = 0; d < x.rank(); d++) {
      dims.add(String.valueOf(global != null && d < global.size() ? global.get(d) : x.dim(d)));
    }
    return MsException.runtimeError(
        "For '"
            + op
            + "', the "
            + j
            + "-th value of 'indices'["
            + String.join(", ", tuple)
            + "] is out of range["
            + String.join(", ", dims)
            + "].");
  }

  private static String paren(Shape s) {
    List<String> d = new ArrayList<>();
    for (int i = 0; i < s.rank(); i++) {
      d.add(String.valueOf(s.dim(i)));
    }
    return "(" + String.join(", ", d) + ")";
  }

  /**
   * GatherD's type: index's shape, x's dtype (MindSpore's checks of the dim, the ranks, the types).
   */
  public static AbstractTensor gatherDType(AbstractTensor x, int dim, AbstractTensor index) {
    if (index.dtype() != DType.INT32 && index.dtype() != DType.INT64) {
      throw MsException.typeError(
          "For primitive[GatherD], the input argument[index] must be a type of {Tensor[Int32],"
              + " Tensor[Int64]}, but got Tensor["
              + index.dtype().mindsporeName()
              + "].");
    }
    int rank = x.rank();
    if (dim < -rank || dim >= rank) {
      throw MsException.valueError(
          "For primitive[GatherD], the dim value must be in [-"
              + rank
              + ","
              + rank
              + "], but got "
              + dim
              + ".");
    }
    if (index.rank() != rank) {
      throw MsException.valueError(
          "For primitive[GatherD], the x_rank must be equal to "
              + index.rank()
              + ", but got "
              + rank
              + ".");
    }
    return index.withDtype(x.dtype());
  }

  /**
   * GatherD: {@code out[i...] = x[i with i[dim] replaced by index[i...]]} (a negative index counts
   * from the end of {@code whole}, the dim's whole size). On a rank holding the block of x that
   * starts at {@code offset} along dim (-1: x is whole there), an index outside the block gives 0
   * (the ranks' outputs then sum to the whole result).
   */
  public static Tensor gatherD(Tensor x, int dim, Tensor index, int offset, int whole) {
    AbstractTensor t = gatherDType(x.type(), dim, index.type());
    int rank = x.shape().rank();
    int d = Math.floorMod(dim, rank);
    int size = whole < 0 ? x.shape().dim(d) : whole;
    Tensor out = Tensor.zeros(t.dtype(), t.shape());
    int[] xs = strides(x.shape());
    int[] coord = new int[rank];
    boolean isFloat = x.dtype().isFloat();
    for (int i = 0; i < index.size(); i++) {
      unravel(i, index.shape(), coord);
      long v = index.getLong(i);
      if (v < -size || v >= size) {
        throw MsException.runtimeError(
            "For 'GatherD', the value of 'index' must be in [-"
                + size
                + ", "
                + size
                + "), but got: "
                + v);
      }
      long g = v < 0 ? v + size : v;
      long local = g - Math.max(offset, 0);
      if (local < 0 || local >= x.shape().dim(d)) {
        continue;
      }
      int flat = 0;
      for (int k = 0; k < rank; k++) {
        flat += (k == d ? (int) local : coord[k]) * xs[k];
      }
      if (isFloat) {
        out.setDouble(i, x.getDouble(flat));
      } else {
        out.setLong(i, x.getLong(flat));
      }
    }
    return out;
  }

  /**
   * GatherD's gradient: zeros of {@code shape} (x's, whole along dim) with each dout element added
   * where its index points.
   */
  public static Tensor gatherDGrad(Tensor dout, int dim, Tensor index, Shape shape) {
    int rank = shape.rank();
    int d = Math.floorMod(dim, rank);
    int size = shape.dim(d);
    Tensor out = Tensor.zeros(dout.dtype(), shape);
    int[] xs = strides(shape);
    int[] coord = new int[rank];
    for (int i = 0; i < index.size(); i++) {
      unravel(i, index.shape(), coord);
      long v = index.getLong(i);
      long local = v < 0 ? v + size : v;
      if (local < 0 || local >= size) {
        continue;
      }
      int flat = 0;
      for (int k = 0; k < rank; k++) {
        flat += (k == d ? (int) local : coord[k]) * xs[k];
      }
      out.setDouble(flat, out.getDouble(flat) + dout.getDouble(i));
    }
    return out;
  }

  private static int[] strides(Shape s) {
    int[] st = new int[s.rank()];
    int acc = 1;
    for (int k = s.rank() - 1; k >= 0; k--) {
      st[k] = acc;
      acc *= s.dim(k);
    }
    return st;
  }

  private static void unravel(int i, Shape s, int[] coord) {
    for (int k = s.rank() - 1; k >= 0; k--) {
      coord[k] = i % s.dim(k);
      i /= s.dim(k);
    }
  }
}
