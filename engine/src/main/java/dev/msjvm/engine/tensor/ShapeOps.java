package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's shape primitives on host tensors ({@code Reshape}, {@code ExpandDims}, {@code
 * Squeeze}, {@code Transpose}, {@code Flatten}), with MindSpore 2.10's checks and texts. Results
 * are new tensors (values copied). Example: {@code reshape([2, 3] tensor, [3, -1])} has shape
 * {@code [3, 2]}.
 */
public final class ShapeOps {
  private ShapeOps() {}

  /** {@code x} with shape {@code proposed}; one {@code -1} is inferred. */
  public static Tensor reshape(Tensor x, List<Integer> proposed) {
    return copy(x, reshapeShape(x.shape(), proposed));
  }

  /** The shape {@link #reshape} gives, with its errors. */
  public static Shape reshapeShape(Shape x, List<Integer> proposed) {
    int infer = -1;
    long known = 1;
    for (int i = 0; i < proposed.size(); i++) {
      int d = proposed.get(i);
      if (d == -1) {
        if (infer >= 0) {
          throw MsException.valueError("only one dimension can be inferred");
        }
        infer = i;
      } else if (d < 0) {
        throw MsException.valueError("invalid proposed_shape dimension");
      } else {
        known *= d;
      }
    }
    long n = x.size();
    List<Integer> dims = new ArrayList<>(proposed);
    if (infer >= 0 && known != 0 && n % known == 0) {
      dims.set(infer, (int) (n / known));
    } else if (infer >= 0 || known != n) {
      throw MsException.valueError(
          "proposed_shape '"
              + MsException.vector(proposed)
              + "' is invalid for input of size "
              + n);
    }
    return new Shape(dims);
  }

  /** {@code x} with a dimension of size 1 inserted at {@code axis} (in {@code [-r-1, r+1)}). */
  public static Tensor expandDims(Tensor x, int axis) {
    return copy(x, expandDimsShape(x.shape(), axis));
  }

  /** The shape {@link #expandDims} gives, with its errors. */
  public static Shape expandDimsShape(Shape x, int axis) {
    int a = checkDim(axis, x.rank() + 1);
    List<Integer> dims = new ArrayList<>(x.dims());
    dims.add(a, 1);
    return new Shape(dims);
  }

  /**
   * {@code x} without its size-1 dimensions among {@code axes} (all size-1 dimensions when empty);
   * a named dimension of another size is kept.
   */
  public static Tensor squeeze(Tensor x, List<Integer> axes) {
    return copy(x, squeezeShape(x.shape(), axes));
  }

  /** The shape {@link #squeeze} gives, with its errors. */
  public static Shape squeezeShape(Shape x, List<Integer> axes) {
    int rank = x.rank();
    boolean[] drop = new boolean[rank];
    for (int axis : axes) {
      int a = checkDim(axis, Math.max(rank, 1));
      if (rank > 0 && x.dim(a) == 1) {
        drop[a] = true;
      }
    }
    List<Integer> dims = new ArrayList<>();
    for (int a = 0; a < rank; a++) {
      boolean d = axes.isEmpty() ? x.dim(a) == 1 : drop[a];
      if (!d) {
        dims.add(x.dim(a));
      }
    }
    return new Shape(dims);
  }

  /** {@code x} with its dimensions permuted: output dimension i is input dimension perm[i]. */
  public static Tensor transpose(Tensor x, List<Integer> perm) {
    int rank = x.shape().rank();
    int[] p = permutation(rank, perm);
    int[] in = x.shape().toArray();
    int[] inStrides = new int[rank];
    int s = 1;
    for (int a = rank - 1; a >= 0; a--) {
      inStrides[a] = s;
      s *= in[a];
    }
    List<Integer> outDims = transposeShape(x.shape(), perm).dims();
    Tensor out = Tensor.zeros(x.dtype(), new Shape(outDims));
    int n = out.size();
    int[] idx = new int[rank];
    int src = 0;
    boolean isFloat = x.dtype().isFloat();
    for (int i = 0; i < n; i++) {
      if (isFloat) {
        out.setDouble(i, x.getDouble(src));
      } else {
        out.setLong(i, x.getLong(src));
      }
      for (int d = rank - 1; d >= 0; d--) {
        idx[d]++;
        src += inStrides[p[d]];
        if (idx[d] < outDims.get(d)) {
          break;
        }
        src -= inStrides[p[d]] * idx[d];
        idx[d] = 0;
      }
    }
    return out;
  }

  /** The shape {@link #transpose} gives, with its errors. */
  public static Shape transposeShape(Shape x, List<Integer> perm) {
    int[] p = permutation(x.rank(), perm);
    List<Integer> dims = new ArrayList<>();
    for (int a : p) {
      dims.add(x.dim(a));
    }
    return new Shape(dims);
  }

  /** {@code perm} checked against {@code rank}, its negative entries made positive. */
  private static int[] permutation(int rank, List<Integer> perm) {
    int[] p = new int[rank];
    boolean[] used = new boolean[rank];
    for (int i = 0; i < perm.size(); i++) {
      int v = perm.get(i);
      int a = v < 0 ? v + rank : v;
      if (perm.size() != rank || a < 0 || a >= rank || used[a]) {
        throw MsException.valueError(
            "For 'Transpose' perms should all be unique dim, but" + v + " is not unique!");
      }
      used[a] = true;
      p[i] = a;
    }
    if (perm.size() != rank) {
      throw MsException.valueError(
          "For 'Transpose' perms should all be unique dim, but the size of perm is "
              + perm.size()
              + ".");
    }
    return p;
  }

  /** {@code x} as {@code [dim0, rest]}; a RuntimeError for a scalar. */
  public static Tensor flatten(Tensor x) {
    return copy(x, flattenShape(x.shape()));
  }

  /** The shape {@link #flatten} gives, with its error. */
  public static Shape flattenShape(Shape x) {
    if (x.rank() == 0) {
      throw MsException.runtimeError(
          "Unsupported input shape dimension. The shape should not be empty.");
    }
    int first = x.dim(0);
    int rest = first == 0 ? 0 : (int) (x.size() / first);
    if (first == 0) {
      rest = 1;
      for (int a = 1; a < x.rank(); a++) {
        rest *= x.dim(a);
      }
    }
    return Shape.of(first, rest);
  }

  private static int checkDim(int axis, int bound) {
    if (axis < -bound || axis >= bound) {
      throw MsException.valueError(
          "Dimension out of range (expected to be in range of ["
              + -bound
              + ", "
              + bound
              + "), but got "
              + axis
              + ")");
    }
    return axis < 0 ? axis + bound : axis;
  }

  private static Tensor copy(Tensor x, Shape shape) {
    Tensor out = Tensor.zeros(x.dtype(), shape);
    int n = x.size();
    boolean isFloat = x.dtype().isFloat();
    for (int i = 0; i < n; i++) {
      if (isFloat) {
        out.setDouble(i, x.getDouble(i));
      } else {
        out.setLong(i, x.getLong(i));
      }
    }
    return out;
  }

  /** {@code x} broadcast to {@code shape} (MindSpore's {@code BroadcastTo}; numpy's rules). */
  public static Tensor broadcastTo(Tensor x, Shape shape) {
    Shape.broadcast("BroadcastTo", x.shape(), shape);
    if (x.shape().equals(shape)) {
      return x;
    }
    int[] idx = Broadcast.indices(x.shape(), shape);
    Tensor out = Tensor.zeros(x.dtype(), shape);
    if (x.dtype() == DType.FLOAT32) {
      float[] src = x.floats();
      float[] dst = out.floats();
      for (int i = 0; i < idx.length; i++) {
        dst[i] = src[idx[i]];
      }
    } else if (x.dtype().isFloat()) {
      for (int i = 0; i < idx.length; i++) {
        out.setDouble(i, x.getDouble(idx[i]));
      }
    } else {
      for (int i = 0; i < idx.length; i++) {
        out.setLong(i, x.getLong(idx[i]));
      }
    }
    return out;
  }
}
