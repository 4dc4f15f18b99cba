package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;

/**
 * Small helpers shared by the NN kernel families: exact element copies, axis normalisation and
 * dtype checks. Copies go through {@code long} for integer types so that int64 values beyond 2^53
 * survive, and through {@code double} for floats (exact for every float type).
 */
final class KernelSupport {
  private KernelSupport() {}

  /** {@code dst[j] = src[i]} without loss for any pair of equal dtypes. */
  static void copy(Tensor src, int i, Tensor dst, int j) {
    if (src.dtype().isFloat()) {
      dst.setDouble(j, src.getDouble(i));
    } else {
      dst.setLong(j, src.getLong(i));
    }
  }

  /** {@code dst[j] += src[i]} (integers wrap as the type does). */
  static void add(Tensor src, int i, Tensor dst, int j) {
    if (src.dtype().isFloat()) {
      dst.setDouble(j, dst.getDouble(j) + src.getDouble(i));
    } else {
      dst.setLong(j, dst.getLong(j) + src.getLong(i));
    }
  }

  /** {@code axis} in {@code [-rank, rank)} made non-negative, or MindSpore's range error. */
  static int axis(String op, String name, int axis, int rank) {
    if (axis < -rank || axis >= rank) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the '"
              + name
              + "' must be in range ["
              + -rank
              + ", "
              + rank
              + "), but got "
              + axis
              + ".");
    }
    return axis < 0 ? axis + rank : axis;
  }

  /** Throws MindSpore's type error unless {@code x} is a floating-point tensor. */
  static void requireFloat(String op, String name, Tensor x) {
    requireFloat(op, name, x.type());
  }

  /** {@link #requireFloat(String, String, Tensor)} on a type alone. */
  static void requireFloat(String op, String name, AbstractTensor x) {
    if (!x.dtype().isFloat()) {
      throw MsException.typeError(
          "For '"
              + op
              + "', the type of '"
              + name
              + "' must be in [Float16, Float32, Float64, BFloat16], but got "
              + x.dtype().mindsporeName()
              + ".");
    }
  }

  /** Throws unless {@code x} has exactly {@code shape}. */
  static void requireShape(String op, String name, Tensor x, Shape shape) {
    requireShape(op, name, x.shape(), shape);
  }

  /** {@link #requireShape(String, String, Tensor, Shape)} on a shape alone. */
  static void requireShape(String op, String name, Shape x, Shape shape) {
    if (!x.equals(shape)) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the shape of '"
              + name
              + "' must be "
              + shape
              + ", but got "
              + x
              + ".");
    }
  }

  /** {@code v} as a list. */
  static List<Integer> toList(int[] v) {
    List<Integer> out = new java.util.ArrayList<>(v.length);
    for (int x : v) {
      out.add(x);
    }
    return out;
  }

  /** Product of {@code dims[from..to)}. */
  static int product(int[] dims, int from, int to) {
    int p = 1;
    for (int a = from; a < to; a++) {
      p *= dims[a];
    }
    return p;
  }

  /** {@code x} as float32 (the same tensor when it already is). */
  static Tensor asFloat32(Tensor x) {
    return x.dtype() == DType.FLOAT32 ? x : x.astype(DType.FLOAT32);
  }
}
