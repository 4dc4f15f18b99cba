package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * MindSpore's segment reductions {@code UnsortedSegmentSum/Prod/Max/Min(x, segment_ids,
 * num_segments)}: the output has shape {@code [num_segments] + x.shape[ids.rank:]}; row {@code s}
 * combines the slices of {@code x} whose id is {@code s}. A segment no id names holds the
 * reduction's identity as MindSpore's CPU kernels write it: 0, 1, the dtype's lowest finite value
 * (Max) or its largest (Min). Negative ids are skipped; an id of {@code num_segments} or more is
 * MindSpore's kernel error. Example: {@code UnsortedSegmentMax([[1,2],[3,-4],[5,6]], [0,2,0], 3)}
 * is {@code [[5,6],[lowest,lowest],[3,-4]]}.
 *
 * <p>The shape and dtype checks and their texts are MindSpore 2.10's (measured on its CPU wheel):
 * UnsortedSegmentSum's infer differs in wording and accepts int16 ids; the other three share one.
 */
public final class Segments {
  private Segments() {}

  /** The reduction of one segment operator. */
  public enum Reduction {
    SUM("UnsortedSegmentSum"),
    PROD("UnsortedSegmentProd"),
    MAX("UnsortedSegmentMax"),
    MIN("UnsortedSegmentMin");

    private final String op;

    Reduction(String op) {
      this.op = op;
    }

    /** MindSpore's primitive name. */
    public String op() {
      return op;
    }
  }

  /** The type {@link #reduce} gives, with MindSpore's errors; reads no values. */
  public static AbstractTensor type(
      Reduction r, AbstractTensor x, AbstractTensor ids, long numSegments) {
    String op = r.op();
    boolean sum = r == Reduction.SUM;
    DType it = ids.dtype();
    if (!(it == DType.INT32 || it == DType.INT64 || (sum && it == DType.INT16))) {
      throw MsException.typeError(
          sum
              ? "For primitive[UnsortedSegmentSum], the input argument[segment_ids type] must be a"
                  + " type of {Tensor[Int16], Tensor[Int32], Tensor[Int64]}, but got Tensor["
                  + it.mindsporeName()
                  + "]."
              : "For primitive["
                  + op
                  + "], the input argument[segment_ids] must be a type of {Tensor[Int32],"
                  + " Tensor[Int64]}, but got Tensor["
                  + it.mindsporeName()
                  + "].");
    }
    if (!(x.dtype().isFloat() || x.dtype().isInteger())) {
      throw MsException.typeError(
          "For primitive["
              + op
              + "], the input argument[input_x] must be a tensor of a number type, but got Tensor["
              + x.dtype().mindsporeName()
              + "].");
    }
    if (x.shape().rank() == 0) {
      throw MsException.valueError(
          "For primitive["
              + op
              + (sum ? "], the input_x size" : "], the input_x shape size")
              + " must be greater than 0, but got 0.");
    }
    if (numSegments <= 0) {
      throw MsException.valueError(
          "For primitive["
              + op
              + "], the num_segments's value must be greater than 0, but got "
              + numSegments
              + ".");
    }
    int k = ids.shape().rank();
    if (k > x.shape().rank()) {
      throw MsException.valueError(
          sum
              ? "For primitive[UnsortedSegmentSum], the x rank must be greater than or equal to"
                  + " segment_ids_shape rank which is "
                  + k
                  + " , but got "
                  + x.shape().rank()
                  + "."
              : "For " + op + ", invalid input_args and segment_ids shape size");
    }
    for (int d = 0; d < k; d++) {
      if (ids.shape().dim(d) != x.shape().dim(d)) {
        throw MsException.valueError(
            sum
                ? "For 'UnsortedSegmentSum', the whose shape of 'segment_ids' must equal to the"
                    + " shape of 'input_x', ids["
                    + d
                    + "] should be = input["
                    + d
                    + "]: "
                    + x.shape().dim(d)
                    + ", but got "
                    + ids.shape().dim(d)
                : "For "
                    + op
                    + ", the first shape of input_x should be equal to length of"
                    + " segments_id");
      }
    }
    List<Integer> dims = new ArrayList<>();
    dims.add(Math.toIntExact(numSegments));
    for (int d = k; d < x.shape().rank(); d++) {
      dims.add(x.shape().dim(d));
    }
    return x.withShape(new Shape(dims));
  }

  /** {@code r} over the segments {@code ids} names, into {@code numSegments} rows. */
  public static Tensor reduce(Reduction r, Tensor x, Tensor ids, long numSegments) {
    Shape outShape = type(r, x.type(), ids.type(), numSegments).shape();
    int rows = ids.size();
    int inner = rows == 0 ? 0 : Math.toIntExact(x.shape().size() / rows);
    boolean real = x.dtype().isFloat();
    Tensor out = Tensor.zeros(x.dtype(), outShape);
    double initD = identity(r, x.dtype());
    long initL = identityLong(r, x.dtype());
    for (int i = 0; i < out.size(); i++) {
      if (real) {
        out.setDouble(i, initD);
      } else {
        out.setLong(i, initL);
      }
    }
    for (int j = 0; j < rows; j++) {
      long s = ids.getLong(j);
      if (s < 0) {
        continue;
      }
      if (s >= numSegments) {
        throw MsException.runtimeError(
            "For '" + r.op() + "', segment_ids value should be [0, " + numSegments + ")");
      }
      for (int e = 0; e < inner; e++) {
        int src = j * inner + e;
        int dst = (int) s * inner + e;
        if (real) {
          out.setDouble(dst, combine(r, out.getDouble(dst), x.getDouble(src)));
        } else {
          out.setLong(dst, combine(r, out.getLong(dst), x.getLong(src)));
        }
      }
    }
    return out;
  }

  private static double combine(Reduction r, double acc, double v) {
    return switch (r) {
      case SUM -> acc + v;
      case PROD -> acc * v;
      case MAX -> v > acc || Double.isNaN(v) ? v : acc;
      case MIN -> v < acc || Double.isNaN(v) ? v : acc;
    };
  }

  private static long combine(Reduction r, long acc, long v) {
    return switch (r) {
      case SUM -> acc + v;
      case PROD -> acc * v;
      case MAX -> Math.max(acc, v);
      case MIN -> Math.min(acc, v);
    };
  }

  /** The value of an empty segment in a float dtype. */
  private static double identity(Reduction r, DType t) {
    double largest =
        switch (t) {
          case FLOAT16 -> 65504.0;
          case BFLOAT16 -> 0x1.fep127;
          case FLOAT32 -> Float.MAX_VALUE;
          default -> Double.MAX_VALUE;
        };
    return switch (r) {
      case SUM -> 0;
      case PROD -> 1;
      case MAX -> -largest;
      case MIN -> largest;
    };
  }

  /** The value of an empty segment in an integer dtype. */
  private static long identityLong(Reduction r, DType t) {
    return switch (r) {
      case SUM -> 0;
      case PROD -> 1;
      case MAX ->
          switch (t) {
            case UINT8 -> 0;
            case INT8 -> Byte.MIN_VALUE;
            case INT16 -> Short.MIN_VALUE;
            case INT32 -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
          };
      case MIN ->
          switch (t) {
            case UINT8 -> 255;
            case INT8 -> Byte.MAX_VALUE;
            case INT16 -> Short.MAX_VALUE;
            case INT32 -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
          };
    };
  }
}
