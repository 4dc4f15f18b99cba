package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.tensor.FloatDigits.Cutoff;
import dev.msjvm.engine.tensor.FloatDigits.Decimal;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * numpy 2.x's {@code str(ndarray)} with default print options, mirroring {@code
 * numpy/_core/arrayprint.py} ({@code _array2string}, {@code _formatArray}, {@code FloatingFormat},
 * {@code IntegerFormat}, {@code BoolFormat}) and the scalar {@code str} of {@code
 * numpy/_core/src/multiarray/scalartypes.c.src}. See {@link TensorFormat#str}.
 */
final class NumpyFormat {
  private static final int LINE_WIDTH = 75;
  private static final int THRESHOLD = 1000;
  private static final int EDGE_ITEMS = 3;
  private static final int PRECISION = 8;

  private NumpyFormat() {}

  static String str(Tensor t) {
    if (t.shape().rank() == 0) {
      return scalarStr(t);
    }
    if (t.size() == 0) {
      return "[]";
    }
    int[] dims = t.shape().toArray();
    boolean summarize = t.size() > THRESHOLD;
    IntFunction<String> format = formatFunction(t, leadingTrailing(dims, summarize));
    return new Layout(dims, summarize, format).recurse(0, 0, " ", LINE_WIDTH);
  }

  /** The type numpy formats in: MindSpore hands bfloat16 to numpy as float32. */
  private static DType numpyType(DType dtype) {
    return dtype == DType.BFLOAT16 ? DType.FLOAT32 : dtype;
  }

  private static double value(Tensor t, int i) {
    return t.getDouble(i);
  }

  // ---- 0-d arrays print as their scalar ----

  private static String scalarStr(Tensor t) {
    DType type = numpyType(t.dtype());
    if (type == DType.BOOL) {
      return t.getLong(0) != 0 ? "True" : "False";
    }
    if (!type.isFloat()) {
      return Long.toString(t.getLong(0));
    }
    double x = value(t, 0);
    if (Double.isNaN(x)) {
      return "nan";
    }
    String sign = FloatDigits.isNegative(x) ? "-" : "";
    if (Double.isInfinite(x)) {
      return sign + "inf";
    }
    if (x == 0) {
      return sign + "0.0";
    }
    double abs = Math.abs(x);
    // numpy 2 switches to scientific from 10^(decimal digits of the type) up.
    double upper =
        switch (type) {
          case FLOAT16 -> 1e3;
          case FLOAT32 -> 1e6;
          default -> 1e16;
        };
    Decimal d = FloatDigits.shortest(abs, type, Cutoff.NONE, 0);
    if (abs >= 1e-4 && abs < upper) {
      String frac = d.fracPart();
      return sign + d.intPart() + "." + (frac.isEmpty() ? "0" : frac);
    }
    String digits = d.digits();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + exponent(d.exp(), 2);
  }

  private static String exponent(int exp, int minDigits) {
    String e = Integer.toString(Math.abs(exp));
    return (exp < 0 ? "e-" : "e+") + "0".repeat(Math.max(0, minDigits - e.length())) + e;
  }

  // ---- which elements are shown (numpy's _leading_trailing) ----

  private static boolean summarized(boolean summarize, int dim) {
    return summarize && dim > 2 * EDGE_ITEMS;
  }

  /** Flat indices of the elements shown: per axis the first and last 3 when summarizing. */
  private static int[] leadingTrailing(int[] dims, boolean summarize) {
    List<Integer> out = new ArrayList<>();
    collect(dims, summarize, 0, 0, out);
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static void collect(
      int[] dims, boolean summarize, int axis, int offset, List<Integer> out) {
    if (axis == dims.length) {
      out.add(offset);
      return;
    }
    int stride = stride(dims, axis);
    int dim = dims[axis];
    for (int i = 0; i < dim; i++) {
      if (summarized(summarize, dim) && i == EDGE_ITEMS) {
        i = dim - EDGE_ITEMS;
      }
      collect(dims, summarize, axis + 1, offset + i * stride, out);
    }
  }

  private static int stride(int[] dims, int axis) {
    int s = 1;
    for (int a = axis + 1; a < dims.length; a++) {
      s *= dims[a];
    }
    return s;
  }

  // ---- element formats, chosen from the shown elements ----

  private static IntFunction<String> formatFunction(Tensor t, int[] shown) {
    DType type = numpyType(t.dtype());
    if (type == DType.BOOL) {
      return i -> t.getLong(i) != 0 ? " True" : "False";
    }
    if (!type.isFloat()) {
      long max = Long.MIN_VALUE;
      long min = Long.MAX_VALUE;
      for (int i : shown) {
        max = Math.max(max, t.getLong(i));
        min = Math.min(min, t.getLong(i));
      }
      int width = Math.max(Long.toString(max).length(), Long.toString(min).length());
      return i -> rightAlign(Long.toString(t.getLong(i)), width);
    }
    double[] values = new double[shown.length];
    for (int k = 0; k < shown.length; k++) {
      values[k] = value(t, shown[k]);
    }
    FloatingFormat f = FloatingFormat.fill(values, type);
    return i -> f.format(value(t, i));
  }

  /** numpy's {@code FloatingFormat} for floatmode 'maxprec', precision 8, sign '-'. */
  private record FloatingFormat(
      DType type, boolean expFormat, int precision, int expSize, int padLeft, int padRight) {

    static FloatingFormat fill(double[] values, DType type) {
      double max = 0;
      double min = Double.POSITIVE_INFINITY;
      boolean anyFinite = false;
      boolean anyNonFinite = false;
      boolean negInf = false;
      for (double v : values) {
        if (Double.isFinite(v)) {
          anyFinite = true;
          if (v != 0) {
            max = Math.max(max, Math.abs(v));
            min = Math.min(min, Math.abs(v));
          }
        } else {
          anyNonFinite = true;
          negInf |= v == Double.NEGATIVE_INFINITY;
        }
      }
      // numpy compares in the array's type: Python floats 1e-4 and 10**precision are cast to it.
      boolean expFormat =
          max > 0 && (max >= expCutoff(type) || min < tiny(type) || ratioAbove1000(max, min, type));
      int precision = 0;
      int expSize = -1;
      int padLeft = 0;
      int padRight = 0;
      if (anyFinite && expFormat) {
        for (double v : values) {
          if (Double.isFinite(v)) {
            Decimal d = digits(v, type, true, PRECISION);
            padLeft = Math.max(padLeft, FloatDigits.isNegative(v) ? 2 : 1);
            precision = Math.max(precision, d.digits().length() - 1);
            expSize = Math.max(expSize, Math.max(2, Integer.toString(Math.abs(d.exp())).length()));
          }
        }
        padRight = expSize + 2 + precision;
      } else if (anyFinite) {
        precision = PRECISION;
        for (double v : values) {
          if (Double.isFinite(v)) {
            Decimal d = digits(v, type, false, PRECISION);
            int intLen = d.intPart().length() + (FloatDigits.isNegative(v) ? 1 : 0);
            padLeft = Math.max(padLeft, intLen);
            padRight = Math.max(padRight, d.fracPart().length());
          }
        }
      }
      if (anyNonFinite) {
        int offset = padRight + 1;
        padLeft = Math.max(padLeft, Math.max(3 - offset, 3 + (negInf ? 1 : 0) - offset));
      }
      return new FloatingFormat(type, expFormat, precision, expSize, padLeft, padRight);
    }

    private static double expCutoff(DType type) {
      return switch (type) {
        case FLOAT16 -> 1e3;
        case FLOAT32 -> 1e6;
        default -> 1e8;
      };
    }

    /** {@code 0.0001} rounded to the type. */
    private static double tiny(DType type) {
      return switch (type) {
        case FLOAT16 -> Float.float16ToFloat(Float.floatToFloat16((float) 1e-4));
        case FLOAT32 -> (float) 1e-4;
        default -> 1e-4;
      };
    }

    /** {@code max / min > 1000} with the quotient rounded to the type, as numpy computes it. */
    private static boolean ratioAbove1000(double max, double min, DType type) {
      // 1000 has an even significand, so the quotient rounds above 1000 exactly when it exceeds
      // 1000 plus half a unit in the last place; both products are exact in double.
      return switch (type) {
        case FLOAT16 -> max > min * (1000 + 0.25);
        case FLOAT32 -> max > min * (1000 + Math.scalb(1.0, -15));
        default -> max / min > 1000;
      };
    }

    private static Decimal digits(double v, DType type, boolean scientific, int precision) {
      if (v == 0) {
        return new Decimal("0", 0);
      }
      Cutoff cutoff = scientific ? Cutoff.SIGNIFICANT : Cutoff.FRACTION;
      return FloatDigits.shortest(Math.abs(v), type, cutoff, precision);
    }

    String format(double v) {
      if (!Double.isFinite(v)) {
        String s = Double.isNaN(v) ? "nan" : v < 0 ? "-inf" : "inf";
        return rightAlign(s, padLeft + padRight + 1);
      }
      String sign = FloatDigits.isNegative(v) ? "-" : "";
      Decimal d = digits(v, type, expFormat, precision);
      if (expFormat) {
        if (d.digits().length() - 1 < precision) {
          // Dragon4's min_digits: more digits of the exact value, not zeros.
          d =
              Decimal.of(
                  new BigDecimal(Math.abs(v))
                      .round(new MathContext(precision + 1, RoundingMode.HALF_EVEN)));
        }
        String frac = d.digits().substring(1);
        frac += "0".repeat(precision - frac.length());
        String mantissa = rightAlign(sign + d.digits().charAt(0), padLeft) + "." + frac;
        return mantissa + exponent(d.exp(), expSize);
      }
      String frac = d.fracPart();
      return rightAlign(sign + d.intPart(), padLeft)
          + "."
          + frac
          + " ".repeat(padRight - frac.length());
    }
  }

  static String rightAlign(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }

  // ---- layout (numpy's _formatArray with separator ' ') ----

  private record Layout(int[] dims, boolean summarize, IntFunction<String> format) {

    String recurse(int axis, int offset, String hangingIndent, int currWidth) {
      if (axis == dims.length) {
        return format.apply(offset);
      }
      String nextIndent = hangingIndent + " ";
      int nextWidth = currWidth - 1; // room for the closing ']'
      int len = dims[axis];
      int stride = stride(dims, axis);
      boolean showSummary = summarized(summarize, len);
      int leading = showSummary ? EDGE_ITEMS : 0;
      int trailing = showSummary ? EDGE_ITEMS : len;
      StringBuilder s = new StringBuilder();
      int axesLeft = dims.length - axis;
      if (axesLeft == 1) {
        int elemWidth = currWidth - 1;
        String[] line = {hangingIndent};
        for (int i = 0; i < leading; i++) {
          String word = recurse(axis + 1, offset + i * stride, nextIndent, nextWidth);
          extendLine(s, line, word, elemWidth, hangingIndent);
          line[0] += " ";
        }
        if (showSummary) {
          extendLine(s, line, "...", elemWidth, hangingIndent);
          line[0] += " ";
        }
        for (int i = trailing; i > 1; i--) {
          String word = recurse(axis + 1, offset + (len - i) * stride, nextIndent, nextWidth);
          extendLine(s, line, word, elemWidth, hangingIndent);
          line[0] += " ";
        }
        String word = recurse(axis + 1, offset + (len - 1) * stride, nextIndent, nextWidth);
        extendLine(s, line, word, elemWidth, hangingIndent);
        s.append(line[0]);
      } else {
        String lineSep = "\n".repeat(axesLeft - 1);
        for (int i = 0; i < leading; i++) {
          s.append(hangingIndent)
              .append(recurse(axis + 1, offset + i * stride, nextIndent, nextWidth))
              .append(lineSep);
        }
        if (showSummary) {
          s.append(hangingIndent).append("...").append(lineSep);
        }
        for (int i = trailing; i > 1; i--) {
          s.append(hangingIndent)
              .append(recurse(axis + 1, offset + (len - i) * stride, nextIndent, nextWidth))
              .append(lineSep);
        }
        s.append(hangingIndent)
            .append(recurse(axis + 1, offset + (len - 1) * stride, nextIndent, nextWidth));
      }
      return "[" + s.substring(hangingIndent.length()) + "]";
    }

    /** numpy's {@code _extendLine}: wrap before {@code word} unless that cannot help. */
    private static void extendLine(
        StringBuilder s, String[] line, String word, int lineWidth, String nextLinePrefix) {
      boolean needsWrap = line[0].length() + word.length() > lineWidth;
      if (line[0].length() <= nextLinePrefix.length()) {
        needsWrap = false;
      }
      if (needsWrap) {
        s.append(line[0].stripTrailing()).append('\n');
        line[0] = nextLinePrefix;
      }
      line[0] += word;
    }
  }
}
