package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's data-movement primitives that join, cut or repeat whole blocks: {@code Concat},
 * {@code Split}, {@code Tile} and Tile's gradient (the sum over tiles). They work for every dtype
 * and copy values exactly (int64 included). Example: {@code tile([1, 2], (2,))} is {@code [1, 2, 1,
 * 2]}.
 */
public final class Joining {
  private Joining() {}

  /** The type {@link #concat} gives, with its errors; reads no values. */
  public static AbstractTensor concatType(List<AbstractTensor> inputs, int axis) {
    if (inputs.isEmpty()) {
      throw MsException.valueError("For 'Concat', the input must not be empty.");
    }
    AbstractTensor first = inputs.get(0);
    int rank = first.rank();
    if (rank == 0) {
      throw MsException.valueError("For 'Concat', the input tensors must have rank >= 1.");
    }
    if (axis < -rank || axis >= rank) {
      // MindSpore 2.10's texts (ops/infer/concat.cc).
      throw MsException.valueError(
          "For primitive[Concat], the axis value must be in ["
              + -rank
              + ","
              + rank
              + "), but got "
              + axis
              + ".");
    }
    int a = axis < 0 ? axis + rank : axis;
    for (int t = 1; t < inputs.size(); t++) {
      AbstractTensor x = inputs.get(t);
      for (int d = 0; d < rank && x.shape().rank() == rank; d++) {
        if (d != a && x.shape().dim(d) != first.shape().dim(d)) {
          String all =
              MsException.vector(
                  inputs.stream().map(i -> MsException.vector(i.shape().dims())).toList());
          throw MsException.valueError(
              "For primitive[Concat], shapes of tensors must match except in given concat axis "
                  + a
                  + ", but got mismatch in "
                  + d
                  + "(all input shapes are "
                  + all
                  + ")!");
        }
      }
    }
    int total = 0;
    for (int t = 0; t < inputs.size(); t++) {
      AbstractTensor x = inputs.get(t);
      if (x.dtype() != first.dtype()) {
        throw MsException.typeError(
            "For 'Concat', all tensors must have the same type, but got "
                + first.dtype().mindsporeName()
                + " and "
                + x.dtype().mindsporeName()
                + ".");
      }
      if (x.shape().rank() != rank) {
        throw MsException.valueError(
            "For 'Concat', element"
                + t
                + " shape in input can not concat with element0 shape in input.");
      }
      for (int d = 0; d < rank; d++) {
        if (d != a && x.shape().dim(d) != first.shape().dim(d)) {
          throw MsException.valueError(
              "For 'Concat', element"
                  + t
                  + " shape in input can not concat with element0 shape in input.");
        }
      }
      total += x.shape().dim(a);
    }
    List<Integer> dims = new ArrayList<>(first.shape().dims());
    dims.set(a, total);
    return first.withShape(new Shape(dims));
  }

  /**
   * {@code Concat(axis)}: the inputs joined along {@code axis}; all other dimensions must match.
   */
  public static Tensor concat(List<Tensor> inputs, int axis) {
    List<AbstractTensor> types = new ArrayList<>(inputs.size());
    for (Tensor x : inputs) {
      types.add(x.type());
    }
    AbstractTensor type = concatType(types, axis);
    Tensor first = inputs.get(0);
    int rank = type.rank();
    int a = axis < 0 ? axis + rank : axis;
    int total = type.shape().dim(a);
    int[] dims = first.shape().toArray();
    int outer = KernelSupport.product(dims, 0, a);
    int inner = KernelSupport.product(dims, a + 1, rank);
    dims[a] = total;
    Tensor out = Tensor.zeros(first.dtype(), Shape.of(dims));
    int offset = 0;
    for (Tensor x : inputs) {
      int block = x.shape().dim(a) * inner;
      for (int o = 0; o < outer; o++) {
        for (int k = 0; k < block; k++) {
          KernelSupport.copy(x, o * block + k, out, o * total * inner + offset + k);
        }
      }
      offset += block;
    }
    return out;
  }

  /** The type of each of {@link #split}'s parts, with its errors; reads no values. */
  public static AbstractTensor splitType(AbstractTensor x, int axis, int outputNum) {
    int rank = x.rank();
    if (axis < -rank || axis >= rank) {
      // MindSpore 2.10's texts (ops/infer/split.cc and its dimension check).
      throw MsException.valueError(
          "Dimension out of range (expected to be in range of ["
              + -rank
              + ", "
              + rank
              + "), but got "
              + axis
              + ")");
    }
    int a = axis < 0 ? axis + rank : axis;
    int[] dims = x.shape().toArray();
    if (outputNum <= 0 || dims[a] % outputNum != 0) {
      throw MsException.valueError(
          "For 'Split', x_shape["
              + a
              + "] must be divisible by output_num = "
              + outputNum
              + ", but got "
              + dims[a]);
    }
    List<Integer> part = new ArrayList<>(x.shape().dims());
    part.set(a, dims[a] / outputNum);
    return x.withShape(new Shape(part));
  }

  /**
   * {@code Split(axis, output_num)}: {@code outputNum} equal parts of {@code x} along {@code axis}.
   */
  public static List<Tensor> split(Tensor x, int axis, int outputNum) {
    int rank = x.shape().rank();
    splitType(x.type(), axis, outputNum);
    int a = axis < 0 ? axis + rank : axis;
    int[] sizes = new int[outputNum];
    java.util.Arrays.fill(sizes, x.shape().dim(a) / outputNum);
    return splitSizes(x, a, sizes);
  }

  /**
   * {@code x} cut along {@code axis} (non-negative) into consecutive parts of {@code sizes}
   * (summing to the axis' extent): Split's equal parts, SplitV's given ones.
   */
  public static List<Tensor> splitSizes(Tensor x, int axis, int[] sizes) {
    int rank = x.shape().rank();
    int[] dims = x.shape().toArray();
    int outer = KernelSupport.product(dims, 0, axis);
    int inner = KernelSupport.product(dims, axis + 1, rank);
    List<Tensor> outs = new ArrayList<>(sizes.length);
    int start = 0;
    for (int part : sizes) {
      int[] partDims = dims.clone();
      partDims[axis] = part;
      Tensor out = Tensor.zeros(x.dtype(), Shape.of(partDims));
      int block = part * inner;
      for (int o = 0; o < outer; o++) {
        for (int k = 0; k < block; k++) {
          KernelSupport.copy(x, (o * dims[axis] + start) * inner + k, out, o * block + k);
        }
      }
      outs.add(out);
      start += part;
    }
    return outs;
  }

  /**
   * SplitV's part sizes along its non-negative {@code axis} (one {@code -1} takes the rest), with
   * the checks and texts of MindSpore 2.10's infer ({@code split_v.cc}).
   */
  public static int[] splitVSizes(Shape x, int axis, List<Integer> sizeSplits, int numSplit) {
    String prim = "For primitive[SplitV], the ";
    if (numSplit < 1) {
      throw MsException.valueError(
          prim + "num_split must be greater than or equal to 1, but got " + numSplit + ".");
    }
    if (numSplit != sizeSplits.size()) {
      throw MsException.valueError(
          prim
              + "attribute[num_split] must be equal to "
              + sizeSplits.size()
              + ", but got "
              + numSplit
              + ".");
    }
    int extent = x.dim(axis);
    int[] sizes = sizeSplits.stream().mapToInt(Integer::intValue).toArray();
    int rest = -1;
    int sum = 0;
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] == -1) {
        if (rest >= 0) {
          throw MsException.valueError(
              "For 'SplitV', 'size_splits' default value can contain only one -1, but got more"
                  + " than one.");
        }
        rest = i;
        continue;
      }
      if (sizes[i] < 0 || sizes[i] > extent) {
        throw MsException.valueError(
            prim
                + "elements of size_splits must be in [0,"
                + extent
                + "], but got "
                + sizes[i]
                + ".");
      }
      sum += sizes[i];
    }
    if (rest >= 0) {
      sizes[rest] = extent - sum;
    } else if (sum != extent) {
      throw MsException.valueError(
          prim
              + "attribute[sum of size_splits] must be equal to "
              + extent
              + ", but got "
              + sum
              + ".");
    }
    return sizes;
  }

  /**
   * {@code Tile(multiples)}: {@code x} repeated {@code multiples[d]} times along each dimension;
   * when {@code multiples} is longer than the rank, {@code x}'s shape is padded with leading 1s.
   */
  public static Tensor tile(Tensor x, int[] multiples) {
    Shape outShape = tileShape("Tile", x.shape(), multiples);
    int[] in = paddedDims("Tile", x.shape(), padMultiples(multiples, x.shape().rank()));
    int[] out = outShape.toArray();
    Tensor result = Tensor.zeros(x.dtype(), outShape);
    int[] src = sourceIndices(in, out);
    for (int i = 0; i < src.length; i++) {
      KernelSupport.copy(x, src[i], result, i);
    }
    return result;
  }

  /** The gradient of {@link #tile}: {@code dy} summed over the tiles, in {@code xShape}. */
  public static Tensor tileGrad(Tensor dy, Shape xShape, int[] multiples) {
    tileGradType(dy.type(), xShape, multiples);
    int[] in = paddedDims("TileGrad", xShape, padMultiples(multiples, xShape.rank()));
    int[] out = tileShape("TileGrad", xShape, multiples).toArray();
    Tensor dx = Tensor.zeros(dy.dtype(), xShape);
    int[] src = sourceIndices(in, out);
    for (int i = 0; i < src.length; i++) {
      KernelSupport.add(dy, i, dx, src[i]);
    }
    return dx;
  }

  /** The shape {@link #tile} gives {@code x} (primitive {@code name} in errors). */
  public static Shape tileShape(String name, Shape x, int[] multiples) {
    multiples = padMultiples(multiples, x.rank());
    int[] in = paddedDims(name, x, multiples);
    int[] out = new int[in.length];
    for (int d = 0; d < in.length; d++) {
      out[d] = in[d] * multiples[d];
    }
    return Shape.of(out);
  }

  /** The type {@link #tileGrad} gives, with its errors; reads no values. */
  public static AbstractTensor tileGradType(AbstractTensor dy, Shape xShape, int[] multiples) {
    KernelSupport.requireShape(
        "TileGrad", "dout", dy.shape(), tileShape("TileGrad", xShape, multiples));
    return dy.withShape(xShape);
  }

  /**
   * Fewer multiples than dimensions repeat the last dimensions (MindSpore pads with leading 1s).
   */
  private static int[] padMultiples(int[] multiples, int rank) {
    if (multiples.length >= rank) {
      return multiples;
    }
    int[] padded = new int[rank];
    java.util.Arrays.fill(padded, 1);
    System.arraycopy(multiples, 0, padded, rank - multiples.length, multiples.length);
    return padded;
  }

  private static int[] paddedDims(String op, Shape x, int[] multiples) {
    int rank = x.rank();
    if (multiples.length < rank) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the length of 'multiples' can not be smaller than the dimension of 'input_x',"
              + " but got length of 'multiples': "
              + multiples.length
              + " and dimension of 'input_x': "
              + rank
              + ".");
    }
    int[] in = new int[multiples.length];
    for (int d = 0; d < multiples.length; d++) {
      if (multiples[d] < 0) {
        throw MsException.valueError(
            "For '" + op + "', 'multiples' must be non-negative, but got " + multiples[d] + ".");
      }
      int xd = d - (multiples.length - rank);
      in[d] = xd >= 0 ? x.dim(xd) : 1;
    }
    return in;
  }

  /** For each output element (row-major), the input element a tiling copies there. */
  private static int[] sourceIndices(int[] in, int[] out) {
    int rank = in.length;
    int n = KernelSupport.product(out, 0, rank);
    int[] src = new int[n];
    int[] counter = new int[rank];
    for (int i = 0; i < n; i++) {
      int s = 0;
      for (int d = 0; d < rank; d++) {
        s = s * in[d] + counter[d] % in[d];
      }
      src[i] = s;
      for (int d = rank - 1; d >= 0; d--) {
        if (++counter[d] < out[d]) {
          break;
        }
        counter[d] = 0;
      }
    }
    return src;
  }
}
