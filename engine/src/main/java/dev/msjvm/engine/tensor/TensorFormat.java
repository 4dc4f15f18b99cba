package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.DType;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The two ways MindSpore 2.10 prints a tensor: {@code str(t)} and {@code repr(t)}, character for
 * character.
 *
 * <p>{@link #str} is numpy 2.x's {@code str(t.asnumpy())} with default print options (precision 8,
 * floatmode 'maxprec', line width 75, summarized with {@code ...} past 1000 elements, 3 edge
 * items): shortest round-trip digits in the array's own type, capped at 8 fractional digits,
 * scientific notation when a non-zero magnitude is below 1e-4, at or above 10^min(8, type digits)
 * or spread more than 1000-fold; a 0-d tensor prints as numpy's scalar ({@code 2.5}, {@code True}).
 * {@link #repr} is MindSpore's C++ {@code TensorStringifier} ({@code mindspore/core/include/ir/
 * tensor.h}) inside {@code Tensor(shape=..., dtype=..., value=...)}: float16 as {@code %11.4e},
 * float32/float64 as {@code %15.8e}, bfloat16 and scalars as {@code %g}, integers right-aligned to
 * the widest shown, any axis longer than 6 (1-D: 1000) cut to its first and last 3 entries, and a
 * 1-D line break every 12 floats or bools or 24 integers or bfloat16s, with no line width limit.
 *
 * <p>Corners: bfloat16 {@code str} is numpy's str of the float32 array of the same values (what
 * MindSpore's {@code asnumpy} yields with the numpy it was built for; with numpy 2.x it raises).
 * NaN payloads are not printed, only the sign ({@code -nan} in {@code repr}). Example: {@code
 * repr(Tensor.of(INT64, Shape.of(3), List.of(1, 2, 3)))} is {@code Tensor(shape=[3], dtype=Int64,
 * value= [1, 2, 3])}, its {@code str} is {@code [1 2 3]}.
 */
public final class TensorFormat {
  // MindSpore's kThreshold, kThreshold1D and the per-kind 1-D line break counts (tensor.h).
  private static final int THRESHOLD = 6;
  private static final int THRESHOLD_1D = 1000;
  private static final int EDGE = THRESHOLD / 2;

  private TensorFormat() {}

  /** numpy's {@code str(t.asnumpy())}, as MindSpore's {@code Tensor.__str__} returns. */
  public static String str(Tensor t) {
    return NumpyFormat.str(t);
  }

  /** MindSpore 2.10's {@code repr(t)}. */
  public static String repr(Tensor t) {
    return stringified(t, true);
  }

  /**
   * What MindSpore's {@code Print} operator writes for {@code t} in a graph: a 0-d tensor as its
   * value alone, others as {@link #repr}'s text without the commas between elements and rows (the
   * C++ stringifier's {@code use_comma} false) and without the space after a 1-D {@code value=}.
   * Example: {@code Tensor(shape=[3], dtype=Int32, value=[ 1 22 3])}.
   */
  public static String printed(Tensor t) {
    return t.shape().rank() == 0 ? reprValue(t, false) : stringified(t, false);
  }

  private static String stringified(Tensor t, boolean comma) {
    int rank = t.shape().rank();
    return "Tensor(shape="
        + t.shape()
        + ", dtype="
        + t.dtype().mindsporeName()
        + ", value="
        + (rank > 1 ? "\n" : comma ? " " : "")
        + reprValue(t, comma)
        + ")";
  }

  private static String reprValue(Tensor t, boolean comma) {
    if (t.size() == 0) {
      return "";
    }
    if (t.shape().rank() == 0) {
      return scalarText(t);
    }
    DType dtype = t.dtype();
    boolean padded =
        dtype != DType.BOOL && !dtype.isComplex() && (dtype == DType.BFLOAT16 || !dtype.isFloat());
    int width = 0;
    if (padded) {
      // Integers and bfloat16 are right-aligned to the widest element shown.
      int[] max = {0};
      new Walk(t, comma, s -> {}, i -> max[0] = Math.max(max[0], elementText(t, i).length())).run();
      width = max[0];
    }
    StringBuilder out = new StringBuilder();
    int w = width;
    new Walk(
            t,
            comma,
            out::append,
            i -> out.append(NumpyFormat.rightAlign(elementText(t, i), padded ? w : 0)))
        .run();
    return out.toString();
  }

  /** A 0-d tensor's value: {@code std::ostream <<} with default flags. */
  private static String scalarText(Tensor t) {
    return switch (t.dtype()) {
      case BOOL -> t.getLong(0) != 0 ? "True" : "False";
      case FLOAT16, BFLOAT16, FLOAT32, FLOAT64 -> FloatDigits.printfG(rawDouble(t, 0));
      case COMPLEX64, COMPLEX128 -> complexText(t, 0);
      default -> Long.toString(t.getLong(0));
    };
  }

  /** One element of a tensor with at least one dimension, before integer padding. */
  private static String elementText(Tensor t, int i) {
    return switch (t.dtype()) {
      case BOOL -> t.getLong(i) != 0 ? " True" : "False";
      case FLOAT16 -> NumpyFormat.rightAlign(FloatDigits.printfE(rawDouble(t, i), 4), 11);
      case FLOAT32, FLOAT64 -> NumpyFormat.rightAlign(FloatDigits.printfE(rawDouble(t, i), 8), 15);
      case BFLOAT16 -> FloatDigits.printfG(rawDouble(t, i));
      case COMPLEX64, COMPLEX128 -> complexText(t, i);
      default -> Long.toString(t.getLong(i));
    };
  }

  /**
   * A complex element as {@code std::complex}'s stringifier writes it: {@code 1+2j}, {@code 3-1j}.
   */
  private static String complexText(Tensor t, int i) {
    String im = FloatDigits.printfG(t.imag(i));
    return FloatDigits.printfG(t.real(i)) + (im.startsWith("-") ? "" : "+") + im + "j";
  }

  /** Element {@code i} widened to double with the sign bit of a NaN kept. */
  private static double rawDouble(Tensor t, int i) {
    if (t.dtype() == DType.FLOAT64) {
      return t.getDouble(i);
    }
    float f = t.floats()[i];
    boolean negativeNan = Float.isNaN(f) && Float.floatToRawIntBits(f) < 0;
    return negativeNan ? Double.longBitsToDouble(0xfff8000000000000L) : f;
  }

  /**
   * MindSpore's {@code SummaryStringRecursive}: walks the shown elements in order, sending text to
   * {@code text} and element indices to {@code element}; {@code comma}: separated by commas.
   */
  private record Walk(Tensor t, boolean comma, Consumer<String> text, IntConsumer element) {
    void run() {
      recurse(0, 0);
    }

    private int recurse(int depth, int cursor) {
      int rank = t.shape().rank();
      int num = t.shape().dim(depth);
      text.accept("[");
      if (depth == rank - 1) {
        if ((num > THRESHOLD && rank > 1) || (num > THRESHOLD_1D && rank == 1)) {
          row(cursor, 0, EDGE);
          text.accept(" ... ");
          row(cursor, num - EDGE, num);
        } else {
          row(cursor, 0, num);
        }
        cursor += num;
      } else {
        String indent = "\n" + " ".repeat(depth + 1);
        for (int i = 0; i < Math.min(EDGE, num); i++) {
          if (i > 0) {
            text.accept(sep() + indent);
          }
          cursor = recurse(depth + 1, cursor);
        }
        if (num > THRESHOLD) {
          text.accept(sep() + indent + "...");
          long inner = 1;
          for (int a = depth + 1; a < rank; a++) {
            inner *= t.shape().dim(a);
          }
          cursor += (int) (inner * (num - THRESHOLD));
        }
        for (int i = 0; i < Math.min(num - EDGE, EDGE); i++) {
          // No comma right after the "..." line.
          text.accept((i != 0 || num <= THRESHOLD ? sep() : "") + indent);
          cursor = recurse(depth + 1, cursor);
        }
      }
      text.accept("]");
      return cursor;
    }

    private String sep() {
      return comma ? "," : "";
    }

    /** Elements {@code start..end-1} of the row at {@code cursor}, comma separated. */
    private void row(int cursor, int start, int end) {
      boolean oneDim = t.shape().rank() == 1;
      DType dtype = t.dtype();
      int lineBreakEvery =
          dtype == DType.BOOL
              ? 2 * THRESHOLD
              : dtype.isFloat() && dtype != DType.BFLOAT16 ? 2 * THRESHOLD : 4 * THRESHOLD;
      for (int i = start; i < end; i++) {
        element.accept(cursor + i);
        if (i != end - 1) {
          text.accept(comma ? ", " : " ");
        }
        if (oneDim && end - start > EDGE && (i + 1) % lineBreakEvery == 0) {
          text.accept("\n ");
        }
      }
    }
  }
}
