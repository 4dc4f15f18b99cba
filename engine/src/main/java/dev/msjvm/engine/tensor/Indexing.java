package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's index-driven primitives: {@code Gather} (and its gradient, an {@code
 * UnsortedSegmentSum} into zeros), {@code OneHot}, {@code Select}, and {@code StridedSlice} (and
 * its gradient, a scatter into zeros). They work for every dtype and copy values exactly.
 *
 * <p>StridedSlice follows NumPy/TensorFlow slicing: negative {@code begin}/{@code end} count from
 * the end, out-of-range bounds clamp, negative strides walk backwards, {@code begin_mask}/{@code
 * end_mask} bits take the full extent, {@code shrink_axis_mask} bits take one element and drop the
 * dimension, {@code ellipsis_mask} (one bit) expands to the unnamed dimensions and {@code
 * new_axis_mask} bits insert a dimension of size 1. Example: {@code stridedSlice([0..5], [-1], [0],
 * [-2], 0, 0, 0, 0, 0)} is {@code [5, 3, 1]}.
 */
public final class Indexing {
  private Indexing() {}

  /**
   * {@code Gather(params, indices, axis)}: shape {@code params.shape[:axis] + indices.shape +
   * params.shape[axis+1:]}. An index outside {@code [0, params.shape[axis])} is an error, as on
   * MindSpore's CPU backend.
   */
  public static Tensor gather(Tensor params, Tensor indices, int axis) {
    return gather(params, indices, axis, -1);
  }

  /**
   * {@link #gather} on one rank's slice of a table split along {@code axis}, the slice starting at
   * row {@code offset} of the whole table: an index {@code i} picks local row {@code i - offset},
   * and an index outside the slice gives zeros (the rank holding it supplies the row; the ranks'
   * results are summed). {@code offset < 0}: the whole table, out-of-range indices an error.
   */
  public static Tensor gather(Tensor params, Tensor indices, int axis, int offset) {
    return gather(params, indices, axis, offset, 0);
  }

  /**
   * {@link #gather} with {@code batchDims} leading dimensions shared by the table and the indices
   * (MindSpore's {@code batch_dims}): batch {@code b} gathers its own table slice with its own
   * indices; the shape is {@code params.shape[:axis] + indices.shape[batchDims:] +
   * params.shape[axis+1:]}.
   */
  public static Tensor gather(Tensor params, Tensor indices, int axis, int offset, int batchDims) {
    int[] g = gatherGeometry("Gather", params.shape(), indices.type(), axis, batchDims);
    int outer = g[0];
    int dim = g[1];
    int inner = g[2];
    int batches = g[4];
    int count = indices.size() / batches;
    int perBatch = outer / batches;
    Tensor out =
        Tensor.zeros(params.dtype(), gatherShape(params.shape(), indices.shape(), g[3], g[5]));
    for (int o = 0; o < outer; o++) {
      int b = o / perBatch;
      for (int j = 0; j < count; j++) {
        long idx = indices.getLong(b * count + j) - Math.max(offset, 0);
        if (offset >= 0 && (idx < 0 || idx >= dim)) {
          continue;
        }
        if (idx < 0 || idx >= dim) {
          throw MsException.valueError(
              "For 'Gather', the 'input_indices' must be in the range [0, "
                  + dim
                  + "), but got "
                  + idx
                  + ".");
        }
        for (int k = 0; k < inner; k++) {
          KernelSupport.copy(
              params, (o * dim + (int) idx) * inner + k, out, (o * count + j) * inner + k);
        }
      }
    }
    return out;
  }

  /**
   * The gradient of {@link #gather}: {@code dy} scatter-added into zeros of {@code paramsShape}
   * (UnsortedSegmentSum semantics: repeated indices accumulate, out-of-range ones are dropped).
   */
  public static Tensor gatherGrad(Tensor dy, Tensor indices, int axis, Shape paramsShape) {
    return gatherGrad(dy, indices, axis, paramsShape, 0);
  }

  /** {@link #gatherGrad} of a gather with {@code batchDims} batch dimensions. */
  public static Tensor gatherGrad(
      Tensor dy, Tensor indices, int axis, Shape paramsShape, int batchDims) {
    gatherGradType(dy.type(), indices.type(), axis, paramsShape, batchDims);
    int[] g = gatherGeometry("GatherGrad", paramsShape, indices.type(), axis, batchDims);
    int outer = g[0];
    int dim = g[1];
    int inner = g[2];
    int batches = g[4];
    int count = indices.size() / batches;
    int perBatch = outer / batches;
    Tensor dx = Tensor.zeros(dy.dtype(), paramsShape);
    for (int o = 0; o < outer; o++) {
      int b = o / perBatch;
      for (int j = 0; j < count; j++) {
        long idx = indices.getLong(b * count + j);
        if (idx < 0 || idx >= dim) {
          continue;
        }
        for (int k = 0; k < inner; k++) {
          KernelSupport.add(dy, (o * count + j) * inner + k, dx, (o * dim + (int) idx) * inner + k);
        }
      }
    }
    return dx;
  }

  /**
   * {@code OneHot(indices, depth, on_value, off_value, axis)}: a new dimension of size {@code
   * depth} at {@code axis} ({@code -1} is last) holding {@code on} where it equals the index and
   * {@code off} elsewhere; out-of-range indices give all {@code off}. The result has {@code on}'s
   * dtype.
   */
  public static Tensor oneHot(Tensor indices, int depth, Tensor on, Tensor off, int axis) {
    return oneHot(indices, depth, on, off, axis, 0);
  }

  /**
   * {@link #oneHot(Tensor, int, Tensor, Tensor, int)} of the classes {@code [offset, offset +
   * depth)}: a rank's block when the depth is split; an index outside it gives off_value.
   */
  public static Tensor oneHot(
      Tensor indices, int depth, Tensor on, Tensor off, int axis, int offset) {
    Shape outShape = oneHotType(indices.type(), depth, on.type(), off.type(), axis).shape();
    int rank = indices.shape().rank();
    int a = axis == -1 ? rank : axis;
    int[] dims = indices.shape().toArray();
    int outer = KernelSupport.product(dims, 0, a);
    int inner = KernelSupport.product(dims, a, rank);
    Tensor out = Tensor.zeros(on.dtype(), outShape);
    for (int o = 0; o < outer; o++) {
      for (int d = 0; d < depth; d++) {
        for (int k = 0; k < inner; k++) {
          long idx = indices.getLong(o * inner + k) - offset;
          KernelSupport.copy(idx == d ? on : off, 0, out, (o * depth + d) * inner + k);
        }
      }
    }
    return out;
  }

  /**
   * {@code Select(cond, x, y)}: {@code x} where {@code cond} is true, else {@code y} (broadcast).
   */
  public static Tensor select(Tensor cond, Tensor x, Tensor y) {
    AbstractTensor type = selectType(cond.type(), x.type(), y.type());
    x = x.dtype() == type.dtype() ? x : x.astype(type.dtype());
    y = y.dtype() == type.dtype() ? y : y.astype(type.dtype());
    Shape out = type.shape();
    int[] ci = Broadcast.indices(cond.shape(), out);
    int[] xi = Broadcast.indices(x.shape(), out);
    int[] yi = Broadcast.indices(y.shape(), out);
    Tensor r = Tensor.zeros(x.dtype(), out);
    for (int i = 0; i < ci.length; i++) {
      if (cond.getLong(ci[i]) != 0) {
        KernelSupport.copy(x, xi[i], r, i);
      } else {
        KernelSupport.copy(y, yi[i], r, i);
      }
    }
    return r;
  }

  /**
   * What StridedSlice takes besides its input: {@code begin}, {@code end}, {@code strides} and the
   * five masks (bit i for entry i), as MindSpore's attributes name them.
   */
  public record SliceSpec(
      List<Integer> begin,
      List<Integer> end,
      List<Integer> strides,
      int beginMask,
      int endMask,
      int ellipsisMask,
      int newAxisMask,
      int shrinkAxisMask) {
    public SliceSpec {
      begin = List.copyOf(begin);
      end = List.copyOf(end);
      strides = List.copyOf(strides);
    }

    /** The slice this spec takes of a tensor of shape {@code x}, with MindSpore's errors. */
    private Slice on(Shape x) {
      return slice(
          x,
          toArray(begin),
          toArray(end),
          toArray(strides),
          beginMask,
          endMask,
          ellipsisMask,
          newAxisMask,
          shrinkAxisMask);
    }

    private static int[] toArray(List<Integer> v) {
      return v.stream().mapToInt(Integer::intValue).toArray();
    }
  }

  /** {@code StridedSlice(x, begin, end, strides)} with its five masks (bit i for entry i). */
  public static Tensor stridedSlice(
      Tensor x,
      int[] begin,
      int[] end,
      int[] strides,
      int beginMask,
      int endMask,
      int ellipsisMask,
      int newAxisMask,
      int shrinkAxisMask) {
    return stridedSlice(
        x,
        new SliceSpec(
            KernelSupport.toList(begin),
            KernelSupport.toList(end),
            KernelSupport.toList(strides),
            beginMask,
            endMask,
            ellipsisMask,
            newAxisMask,
            shrinkAxisMask));
  }

  /** {@code StridedSlice(x)} as {@code spec} says. */
  public static Tensor stridedSlice(Tensor x, SliceSpec spec) {
    Slice s = spec.on(x.shape());
    int[] src = s.sourceIndices();
    Tensor out = Tensor.zeros(x.dtype(), s.outShape);
    for (int i = 0; i < src.length; i++) {
      KernelSupport.copy(x, src[i], out, i);
    }
    return out;
  }

  /** The type {@link #stridedSlice} gives, with its errors; reads no values. */
  public static AbstractTensor stridedSliceType(AbstractTensor x, SliceSpec spec) {
    return x.withShape(spec.on(x.shape()).outShape);
  }

  /** The gradient of {@link #stridedSlice}: {@code dy} written into zeros of {@code xShape}. */
  public static Tensor stridedSliceGrad(Tensor dy, Shape xShape, SliceSpec spec) {
    stridedSliceGradType(dy.type(), xShape, spec);
    int[] src = spec.on(xShape).sourceIndices();
    Tensor dx = Tensor.zeros(dy.dtype(), xShape);
    for (int i = 0; i < src.length; i++) {
      KernelSupport.copy(dy, i, dx, src[i]);
    }
    return dx;
  }

  /** The type {@link #stridedSliceGrad} gives ({@code xShape}), checking {@code dy}'s shape. */
  public static AbstractTensor stridedSliceGradType(
      AbstractTensor dy, Shape xShape, SliceSpec spec) {
    KernelSupport.requireShape("StridedSliceGrad", "dy", dy.shape(), spec.on(xShape).outShape);
    return dy.withShape(xShape);
  }

  /** A resolved slice: per input dimension a start, step and count, and the output shape. */
  private record Slice(int[] dims, int[] start, int[] step, int[] count, Shape outShape) {
    /** The input element behind each output element, row-major. */
    int[] sourceIndices() {
      int rank = dims.length;
      int n = KernelSupport.product(count, 0, rank);
      int[] instride = new int[rank];
      for (int d = rank - 1, s = 1; d >= 0; d--) {
        instride[d] = s;
        s *= dims[d];
      }
      int[] src = new int[n];
      int[] counter = new int[rank];
      for (int i = 0; i < n; i++) {
        int p = 0;
        for (int d = 0; d < rank; d++) {
          p += (start[d] + counter[d] * step[d]) * instride[d];
        }
        src[i] = p;
        for (int d = rank - 1; d >= 0; d--) {
          if (++counter[d] < count[d]) {
            break;
          }
          counter[d] = 0;
        }
      }
      return src;
    }
  }

  private static Slice slice(
      Shape x,
      int[] begin,
      int[] end,
      int[] strides,
      int beginMask,
      int endMask,
      int ellipsisMask,
      int newAxisMask,
      int shrinkAxisMask) {
    int sparse = begin.length;
    if (end.length != sparse || strides.length != sparse) {
      throw MsException.valueError(
          "For 'StridedSlice', 'begin', 'end' and 'strides' must have the same length, but got "
              + sparse
              + ", "
              + end.length
              + " and "
              + strides.length
              + ".");
    }
    if (Integer.bitCount(ellipsisMask & ((1 << sparse) - 1)) > 1) {
      throw MsException.valueError(
          "For 'StridedSlice', only one bit of 'ellipsis_mask' may be set.");
    }
    int rank = x.rank();
    int[] dims = x.toArray();
    int[] start = new int[rank];
    int[] step = new int[rank];
    int[] count = new int[rank];
    List<Integer> out = new ArrayList<>();
    int full = 0; // next input dimension
    // Entries past the sparse spec behave as a trailing ellipsis: whole dimensions.
    for (int i = 0; i <= sparse; i++) {
      boolean ellipsis = i == sparse || (ellipsisMask >> i & 1) != 0;
      if (ellipsis) {
        int named = 0;
        for (int j = i + 1; j < sparse; j++) {
          named += (newAxisMask >> j & 1) != 0 ? 0 : 1;
        }
        int stop = i == sparse ? rank : rank - named;
        for (; full < stop; full++) {
          start[full] = 0;
          step[full] = 1;
          count[full] = dims[full];
          out.add(dims[full]);
        }
        continue;
      }
      if ((newAxisMask >> i & 1) != 0) {
        out.add(1);
        continue;
      }
      if (full >= rank) {
        throw MsException.valueError(
            "For 'StridedSlice', the length of 'begin' is larger than the rank of 'x' " + x + ".");
      }
      int dim = dims[full];
      int st = strides[i];
      if (st == 0) {
        throw MsException.valueError("For 'StridedSlice', the 'strides' cannot contain 0.");
      }
      if ((shrinkAxisMask >> i & 1) != 0) {
        int b = begin[i] < 0 ? begin[i] + dim : begin[i];
        if (b < 0 || b >= dim) {
          throw MsException.valueError(
              "For 'StridedSlice', the index "
                  + begin[i]
                  + " of a shrunk axis is out of range for dimension "
                  + dim
                  + ".");
        }
        start[full] = b;
        step[full] = 1;
        count[full] = 1;
        full++;
        continue;
      }
      boolean bm = (beginMask >> i & 1) != 0;
      boolean em = (endMask >> i & 1) != 0;
      int lo = st > 0 ? 0 : -1;
      int hi = st > 0 ? dim : dim - 1;
      int b = bm ? (st > 0 ? 0 : dim - 1) : clamp(begin[i] < 0 ? begin[i] + dim : begin[i], lo, hi);
      int e = em ? (st > 0 ? dim : -1) : clamp(end[i] < 0 ? end[i] + dim : end[i], lo, hi);
      int n = st > 0 ? Math.ceilDiv(e - b, st) : Math.ceilDiv(b - e, -st);
      start[full] = b;
      step[full] = st;
      count[full] = Math.max(0, n);
      out.add(count[full]);
      full++;
    }
    return new Slice(dims, start, step, count, new Shape(out));
  }

  private static int clamp(int v, int lo, int hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  /** The type {@link #gather} gives, with its errors (not the index range); reads no values. */
  public static AbstractTensor gatherType(AbstractTensor params, AbstractTensor indices, int axis) {
    return gatherType(params, indices, axis, 0);
  }

  /** {@link #gatherType} with {@code batchDims} batch dimensions. */
  public static AbstractTensor gatherType(
      AbstractTensor params, AbstractTensor indices, int axis, int batchDims) {
    int[] g = gatherGeometry("Gather", params.shape(), indices, axis, batchDims);
    return params.withShape(gatherShape(params.shape(), indices.shape(), g[3], g[5]));
  }

  /** The type {@link #gatherGrad} gives, with its errors; reads no values. */
  public static AbstractTensor gatherGradType(
      AbstractTensor dy, AbstractTensor indices, int axis, Shape paramsShape) {
    return gatherGradType(dy, indices, axis, paramsShape, 0);
  }

  /** {@link #gatherGradType} with {@code batchDims} batch dimensions. */
  public static AbstractTensor gatherGradType(
      AbstractTensor dy, AbstractTensor indices, int axis, Shape paramsShape, int batchDims) {
    int[] g = gatherGeometry("GatherGrad", paramsShape, indices, axis, batchDims);
    KernelSupport.requireShape(
        "GatherGrad", "dout", dy.shape(), gatherShape(paramsShape, indices.shape(), g[3], g[5]));
    return dy.withShape(paramsShape);
  }

  /**
   * GatherNd: for each index tuple in the last dimension of {@code indices} ({@code k} values), the
   * slice {@code params[i0, ..., ik-1]}; the shape is {@code indices.shape[:-1] +
   * params.shape[k:]}. An index outside {@code params} is MindSpore's RuntimeError.
   */
  public static Tensor gatherNd(Tensor params, Tensor indices) {
    AbstractTensor type = gatherNdType(params.type(), indices.type());
    Shape ps = params.shape();
    Shape is = indices.shape();
    int k = is.rank() == 0 ? 1 : is.dim(is.rank() - 1);
    int inner = (int) (ps.size() / Math.max(1, prefixSize(ps, k)));
    int count = (int) prefixSize(is, Math.max(0, is.rank() - 1));
    Tensor out = Tensor.zeros(params.dtype(), type.shape());
    for (int j = 0; j < count; j++) {
      int at = ndOffset("GatherNd", indices, j, k, ps);
      for (int e = 0; e < inner; e++) {
        KernelSupport.copy(params, at * inner + e, out, j * inner + e);
      }
    }
    return out;
  }

  /** The type {@link #gatherNd} gives, with its errors; reads no values. */
  public static AbstractTensor gatherNdType(AbstractTensor params, AbstractTensor indices) {
    if (indices.dtype() != DType.INT32 && indices.dtype() != DType.INT64) {
      throw MsException.typeError(
          "\n----------------------------------------------------\n- Kernel select failed:\n"
              + "----------------------------------------------------\n"
              + "Select CPU operator[GatherNd] fail! Unsupported data type!\n"
              + "The supported data types are "
              + GATHER_ND_TYPES
              + ", but get input["
              + params.dtype().mindsporeName()
              + " "
              + indices.dtype().mindsporeName()
              + " ] and output["
              + params.dtype().mindsporeName()
              + " ]");
    }
    Shape is = indices.shape();
    int k = is.rank() == 0 ? 1 : is.dim(is.rank() - 1);
    if (k > params.shape().rank()) {
      throw MsException.valueError(
          "For primitive[GatherNd], the In GatherNd, the input of indices data must be greater"
              + " than or equal to "
              + k
              + ", but got "
              + params.shape().rank()
              + ".");
    }
    List<Integer> out =
        new ArrayList<>(is.rank() == 0 ? List.of() : is.dims().subList(0, is.rank() - 1));
    out.addAll(params.shape().dims().subList(k, params.shape().rank()));
    return params.withShape(new Shape(out));
  }

  /** The element types MindSpore's CPU GatherNd kernel lists, in its order. */
  private static final String GATHER_ND_TYPES = gatherNdTypes();

  private static String gatherNdTypes() {
    List<String> values =
        List.of(
            "Float16", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
            "Float32", "Float64");
    StringBuilder b = new StringBuilder();
    for (String v : values) {
      b.append("input[").append(v).append(" Int32], output[").append(v).append("]; ");
    }
    b.append("input[Bool Int32], output[Bool]; input[Bool Int64], output[Bool]; ");
    b.append("input[Complex64 Int32], output[Complex64]; ");
    b.append("input[Complex128 Int32], output[Complex128]; ");
    for (String v : values) {
      b.append("input[").append(v).append(" Int64], output[").append(v).append("]; ");
    }
    b.append("input[Complex64 Int64], output[Complex64]; ");
    b.append("input[Complex128 Int64], output[Complex128]; ");
    return b.toString();
  }

  /**
   * ScatterNd: {@code updates} added into zeros of {@code shape} at the index tuples of {@code
   * indices} (repeated tuples accumulate); {@code updates.shape} must be {@code indices.shape[:-1]
   * + shape[k:]}.
   */
  public static Tensor scatterNd(Tensor indices, Tensor updates, Shape shape) {
    scatterNdType(indices.type(), updates.type(), shape);
    Shape is = indices.shape();
    int k = is.rank() == 0 ? 0 : is.dim(is.rank() - 1);
    int inner = (int) (shape.size() / Math.max(1, prefixSize(shape, k)));
    int count = (int) prefixSize(is, Math.max(0, is.rank() - 1));
    Tensor out = Tensor.zeros(updates.dtype(), shape);
    for (int j = 0; j < count; j++) {
      int at = 0;
      for (int d = 0; d < k; d++) {
        long v = indices.getLong(j * k + d);
        if (v < 0) {
          throw MsException.runtimeError(
              "For 'ScatterNd', each element in 'indice' must be greater than or equal to 0, but"
                  + " got "
                  + v);
        }
        if (v >= shape.dim(d)) {
          throw MsException.runtimeError(
              "For 'ScatterNd', each element in 'indices' should be smaller than the value of"
                  + " shape, but got "
                  + v
                  + " and got the value of shape "
                  + shape.dim(d));
        }
        at = at * shape.dim(d) + (int) v;
      }
      for (int e = 0; e < inner; e++) {
        KernelSupport.add(updates, j * inner + e, out, at * inner + e);
      }
    }
    return out;
  }

  /** The type {@link #scatterNd} gives, with its errors; reads no values. */
  public static AbstractTensor scatterNdType(
      AbstractTensor indices, AbstractTensor updates, Shape shape) {
    Shape is = indices.shape();
    int k = is.rank() == 0 ? 0 : is.dim(is.rank() - 1);
    List<Integer> want =
        new ArrayList<>(is.rank() == 0 ? List.of() : is.dims().subList(0, is.rank() - 1));
    if (k <= shape.rank()) {
      want.addAll(shape.dims().subList(k, shape.rank()));
    }
    if (k > shape.rank() || !updates.shape().dims().equals(want)) {
      throw MsException.valueError(
          "For 'ScatterNd', if the last dimension of 'indices' is 'N', the shape of 'updates'"
              + " should be the concatenation of 'indices.shape[:-1]' and 'shape[N:]'. but got"
              + " 'indices.shape' is ("
              + tupleText(is.dims())
              + ", 'updates.shape' is ("
              + tupleText(updates.shape().dims())
              + ", 'shape' is ("
              + trailingComma(shape)
              + ").");
    }
    return updates.withShape(shape);
  }

  /** A shape as MindSpore prints a tuple: {@code (1, 1)}. */
  private static String tupleText(List<Integer> dims) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < dims.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(dims.get(i));
    }
    return b.append(')').toString();
  }

  /**
   * Each dimension followed by a comma, as ScatterNd's message prints its shape: {@code 3, 4, }.
   */
  private static String trailingComma(Shape s) {
    StringBuilder b = new StringBuilder();
    for (int d : s.dims()) {
      b.append(d).append(", ");
    }
    return b.toString();
  }

  /** The product of the first {@code k} dimensions of {@code s}. */
  private static long prefixSize(Shape s, int k) {
    long n = 1;
    for (int d = 0; d < k; d++) {
      n *= s.dim(d);
    }
    return n;
  }

  /** The flat offset (in slices of {@code params.shape[k:]}) of index tuple {@code j}. */
  private static int ndOffset(String op, Tensor indices, int j, int k, Shape ps) {
    int at = 0;
    boolean ok = true;
    for (int d = 0; d < k; d++) {
      long v = indices.getLong(j * k + d);
      ok &= v >= 0 && v < ps.dim(d);
      at = at * ps.dim(d) + (int) v;
    }
    if (!ok) {
      List<Long> tuple = new ArrayList<>();
      for (int d = 0; d < k; d++) {
        tuple.add(indices.getLong(j * k + d));
      }
      throw MsException.runtimeError(
          "For '"
              + op
              + "', the indices["
              + j
              + "]: "
              + MsException.vector(tuple)
              + ", does not index into input_shape: "
              + MsException.vector(ps.dims())
              + ".");
    }
    return at;
  }

  /** The type {@link #oneHot} gives, with its errors; reads no values. */
  public static AbstractTensor oneHotType(
      AbstractTensor indices, int depth, AbstractTensor on, AbstractTensor off, int axis) {
    if (indices.dtype().isFloat() || indices.dtype() == DType.BOOL) {
      throw MsException.typeError(
          "For primitive[OneHot], the input argument[indices] must be a type of {Tensor[Int32],"
              + " Tensor[Int64]}, but got Tensor["
              + indices.dtype().mindsporeName()
              + "].");
    }
    if (depth < 0) {
      throw MsException.valueError(
          "For primitive[OneHot], the depth value must be greater than or equal to 0, but got "
              + depth
              + ".");
    }
    if (on.dtype() != off.dtype() || on.shape().size() != 1 || off.shape().size() != 1) {
      throw MsException.typeError(
          "For 'OneHot', 'on_value' and 'off_value' must be scalars of the same type.");
    }
    int rank = indices.rank();
    if (axis < -1 || axis > rank) {
      throw MsException.valueError(
          "For 'OneHot', the 'axis' must be in range [-1, " + rank + "], but got " + axis + ".");
    }
    List<Integer> outDims = new ArrayList<>(indices.shape().dims());
    outDims.add(axis == -1 ? rank : axis, depth);
    return on.withShape(new Shape(outDims));
  }

  /** The type {@link #select} gives, with its errors; reads no values. */
  public static AbstractTensor selectType(AbstractTensor cond, AbstractTensor x, AbstractTensor y) {
    if (cond.dtype() != DType.BOOL) {
      // MindSpore 2.10's CPU text for a non-bool condition.
      throw MsException.typeError("Select CPU operator[Select] fail! Unsupported data type!");
    }
    Shape out =
        Shape.broadcast("Select", cond.shape(), Shape.broadcast("Select", x.shape(), y.shape()));
    // Measured on MindSpore 2.10: mixed input types are promoted as for arithmetic.
    return new AbstractTensor(out, DType.promote(x.dtype(), y.dtype()));
  }

  /**
   * {outer (the table's dims before the axis), the axis's size, inner (the dims after it), the
   * axis, the batches (the product of the first {@code batchDims} dims), {@code batchDims}
   * normalised}, with MindSpore 2.10's errors.
   */
  private static int[] gatherGeometry(
      String op, Shape params, AbstractTensor indices, int axis, int batchDims) {
    if (indices.dtype().isFloat() || indices.dtype() == DType.BOOL) {
      throw MsException.typeError(
          "For '"
              + op
              + "', the type of 'input_indices' must be Int32 or Int64, but got "
              + indices.dtype().mindsporeName()
              + ".");
    }
    int rank = params.rank();
    if (op.equals("Gather") && (axis < -rank || axis >= rank)) {
      // MindSpore 2.10's text (note the closed interval it prints).
      throw MsException.valueError(
          "For primitive[Gather], the axis must be in ["
              + -rank
              + ","
              + rank
              + "], but got "
              + axis
              + ".");
    }
    int a = KernelSupport.axis(op, "axis", axis, Math.max(rank, 1));
    int[] dims = params.toArray();
    if (rank == 0) {
      throw MsException.valueError("For '" + op + "', 'input_params' must have rank >= 1.");
    }
    int bd = batchDims;
    if (bd != 0) {
      if (bd < -rank || bd >= rank) {
        throw MsException.valueError(
            "For primitive[Gather], the batch_dims must be in ["
                + -rank
                + ","
                + rank
                + "), but got "
                + batchDims
                + ".");
      }
      bd = bd < 0 ? bd + indices.shape().rank() : bd;
      if (a < bd) {
        throw MsException.valueError(
            "For primitive[Gather], the axis must be greater than or equal to "
                + bd
                + ", but got "
                + a
                + ".");
      }
      for (int d = 0; d < bd; d++) {
        if (d >= indices.shape().rank() || dims[d] != indices.shape().dim(d)) {
          throw MsException.runtimeError(
              "For 'Gather', params.shape["
                  + d
                  + "] should be equal to indices.shape["
                  + d
                  + "] but got param.shape: "
                  + MsException.vector(params.dims())
                  + ", indices.shape: "
                  + MsException.vector(indices.shape().dims()));
        }
      }
    }
    return new int[] {
      KernelSupport.product(dims, 0, a),
      dims[a],
      KernelSupport.product(dims, a + 1, rank),
      a,
      KernelSupport.product(dims, 0, bd),
      bd
    };
  }

  private static Shape gatherShape(Shape params, Shape indices, int axis, int batchDims) {
    List<Integer> dims = new ArrayList<>(params.dims().subList(0, axis));
    dims.addAll(indices.dims().subList(batchDims, indices.rank()));
    dims.addAll(params.dims().subList(axis + 1, params.rank()));
    return new Shape(dims);
  }
}
