package dev.msjvm.engine.ir;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.List;

/**
 * The dimensions of a tensor, outermost first; prints as MindSpore does ({@code [2, 3]}).
 *
 * <p>Invariant: every dimension is {@code >= 0} (dynamic shapes are not supported). A scalar has no
 * dimensions and one element. Example: {@code Shape.of(2, 3).size() == 6}.
 */
public record Shape(List<Integer> dims) {
  public Shape {
    dims = List.copyOf(dims);
    for (int d : dims) {
      if (d < 0) {
        throw new IllegalArgumentException("negative dimension in " + dims);
      }
    }
  }

  public static Shape of(int... dims) {
    List<Integer> list = new ArrayList<>(dims.length);
    for (int d : dims) {
      list.add(d);
    }
    return new Shape(list);
  }

  /** The shape of a scalar: no dimensions. */
  public static Shape scalar() {
    return new Shape(List.of());
  }

  public int rank() {
    return dims.size();
  }

  public int dim(int axis) {
    return dims.get(axis < 0 ? axis + dims.size() : axis);
  }

  /** Number of elements (1 for a scalar). */
  public long size() {
    long n = 1;
    for (int d : dims) {
      n *= d;
    }
    return n;
  }

  public int[] toArray() {
    return dims.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * The shape of an elementwise {@code op} on {@code x} and {@code y} under NumPy broadcasting,
   * with MindSpore's error when they do not broadcast ({@code CalBroadCastShape}, {@code
   * ops_utils/op_utils.cc}; its two indices are printed the way MindSpore computes them).
   */
  public static Shape broadcast(String op, Shape x, Shape y) {
    return broadcast(op, "input1", "input2", x, y);
  }

  /**
   * As {@link #broadcast(String, Shape, Shape)}, naming the inputs as the primitive does: the newer
   * primitives behind Tensor's operators ({@code AddExt}, {@code SubExt}, {@code FloorDiv}, {@code
   * NotEqual}) say {@code input} and {@code other} where the older ones say {@code input1} and
   * {@code input2}.
   */
  public static Shape broadcast(String op, String xName, String yName, Shape x, Shape y) {
    int xLen = x.rank();
    int yLen = y.rank();
    int outLen = Math.max(xLen, yLen);
    List<Integer> out = new ArrayList<>(outLen);
    for (int i = -outLen; i < 0; i++) {
      int xd = xLen + i >= 0 ? x.dims.get(xLen + i) : 1;
      int yd = yLen + i >= 0 ? y.dims.get(yLen + i) : 1;
      if (xd != yd && xd != 1 && yd != 1) {
        throw MsException.valueError(
            "For '"
                + op
                + "', "
                + xName
                + ".shape and "
                + yName
                + ".shape need to broadcast. The value of "
                + xName
                + ".shape["
                + (xLen + yLen + i)
                + "] or "
                + yName
                + ".shape["
                + (2 * yLen + i)
                + "] must be 1 or -1 when they are not the same, but got "
                + xName
                + ".shape = "
                + x
                + " and "
                + yName
                + ".shape = "
                + y);
      }
      out.add(xd == 1 ? yd : xd);
    }
    return new Shape(out);
  }

  @Override
  public String toString() {
    return dims.toString();
  }
}
