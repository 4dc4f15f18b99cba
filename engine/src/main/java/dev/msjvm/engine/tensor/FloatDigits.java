package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.DType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Decimal digits of binary floating-point values, computed exactly with {@link BigDecimal}.
 *
 * <p>Two families: the shortest digits that still identify the value in its own type, optionally
 * cut off at a digit position (numpy's Dragon4 in "unique" mode, {@code numpy/_core/src/multiarray/
 * dragon4.c}), and C's {@code printf} conversions {@code %.Ne} and {@code %g} (what MindSpore's C++
 * {@code std::ostream} prints). Both round the exact binary value, ties to even. Example: {@code
 * shortest(0.1f widened, FLOAT32, NONE, 0)} is digits {@code "1"}, exponent {@code -1}.
 */
final class FloatDigits {
  private FloatDigits() {}

  /** A positive decimal {@code d.ddd × 10^exp}; {@code digits} has no trailing zeros. */
  record Decimal(String digits, int exp) {
    static Decimal of(BigDecimal value) {
      BigDecimal v = value.stripTrailingZeros();
      return new Decimal(v.unscaledValue().toString(), v.precision() - v.scale() - 1);
    }

    /** The digits before the decimal point ({@code "0"} when there are none). */
    String intPart() {
      if (exp < 0) {
        return "0";
      }
      int n = Math.min(digits.length(), exp + 1);
      return digits.substring(0, n) + "0".repeat(exp + 1 - n);
    }

    /** The digits after the decimal point, without trailing zeros. */
    String fracPart() {
      if (exp < 0) {
        return "0".repeat(-exp - 1) + digits;
      }
      return digits.substring(Math.min(digits.length(), exp + 1));
    }
  }

  /** Where Dragon4 stops generating digits. */
  enum Cutoff {
    /** As many as needed to be unique. */
    NONE,
    /** At most {@code precision} digits after the decimal point. */
    FRACTION,
    /** At most {@code precision} digits after the first significant one. */
    SIGNIFICANT
  }

  /**
   * The shortest decimal that reads back as {@code v} in {@code type} (float16, float32 or
   * float64), or, when that needs more digits than {@code cutoff} allows, {@code v} rounded to the
   * cutoff. Among candidates of the shortest length the one closest to {@code v} wins, ties to an
   * even last digit.
   *
   * @param v finite and positive
   */
  static Decimal shortest(double v, DType type, Cutoff cutoff, int precision) {
    BigDecimal x = new BigDecimal(v);
    BigDecimal half = new BigDecimal("0.5");
    BigDecimal low = x.add(neighbour(v, type, false)).multiply(half);
    BigDecimal high = x.add(neighbour(v, type, true)).multiply(half);
    // As in numpy's Dragon4, the end points belong to the interval when the significand is even
    // (round half to even reads them back as v).
    boolean even = significandIsEven(v, type);
    int exp = x.precision() - x.scale() - 1;
    int maxDigits =
        switch (cutoff) {
          case NONE -> Integer.MAX_VALUE;
          case FRACTION -> exp + precision + 1;
          case SIGNIFICANT -> precision + 1;
        };
    if (maxDigits < 1) {
      return Decimal.of(x.setScale(precision, RoundingMode.HALF_EVEN));
    }
    for (int n = 1; ; n++) {
      int scale = n - 1 - exp;
      BigDecimal floor = x.setScale(scale, RoundingMode.FLOOR);
      if (floor.compareTo(x) == 0) {
        return Decimal.of(floor);
      }
      BigDecimal ceil = floor.add(BigDecimal.ONE.scaleByPowerOfTen(-scale));
      boolean floorOk = floor.compareTo(low) > (even ? -1 : 0);
      boolean ceilOk = ceil.compareTo(high) < (even ? 1 : 0);
      if (floorOk && ceilOk) {
        int c = x.subtract(floor).compareTo(ceil.subtract(x));
        boolean down = c < 0 || (c == 0 && !floor.unscaledValue().testBit(0));
        return Decimal.of(down ? floor : ceil);
      } else if (floorOk || ceilOk) {
        return Decimal.of(floorOk ? floor : ceil);
      } else if (n >= maxDigits) {
        return Decimal.of(x.setScale(scale, RoundingMode.HALF_EVEN));
      }
    }
  }

  private static boolean significandIsEven(double v, DType type) {
    return switch (type) {
      case FLOAT16 -> (Float.floatToFloat16((float) v) & 1) == 0;
      case FLOAT32 -> (Float.floatToRawIntBits((float) v) & 1) == 0;
      default -> (Double.doubleToRawLongBits(v) & 1) == 0;
    };
  }

  /** The next representable value of {@code type} below or above positive {@code v}. */
  private static BigDecimal neighbour(double v, DType type, boolean up) {
    double next =
        switch (type) {
          case FLOAT16 -> {
            short h = Float.floatToFloat16((float) v);
            yield h == 0x7bff && up
                ? Double.POSITIVE_INFINITY
                : Float.float16ToFloat((short) (up ? h + 1 : h - 1));
          }
          case FLOAT32 -> up ? Math.nextUp((float) v) : Math.nextDown((float) v);
          case FLOAT64 -> up ? Math.nextUp(v) : Math.nextDown(v);
          default -> throw new IllegalArgumentException("not a numpy float type: " + type);
        };
    if (Double.isInfinite(next)) {
      // Past the largest finite value: one more step of the size of the last one.
      BigDecimal x = new BigDecimal(v);
      return x.add(x.subtract(neighbour(v, type, false)));
    }
    return new BigDecimal(next);
  }

  /** C's {@code %.{precision}e} of {@code v}: {@code 1.50000000e+00}, {@code -nan}, {@code inf}. */
  static String printfE(double v, int precision) {
    String special = printfSpecial(v);
    if (special != null) {
      return special;
    }
    String sign = isNegative(v) ? "-" : "";
    if (v == 0) {
      return sign + "0." + "0".repeat(precision) + "e+00";
    }
    BigDecimal r =
        new BigDecimal(Math.abs(v)).round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
    int exp = r.precision() - r.scale() - 1;
    String digits = r.unscaledValue().toString();
    digits = digits + "0".repeat(precision + 1 - digits.length());
    String mantissa = precision == 0 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + cExponent(exp);
  }

  /** C's {@code %g} (precision 6) of {@code v}, which {@code std::ostream << double} prints. */
  static String printfG(double v) {
    String special = printfSpecial(v);
    if (special != null) {
      return special;
    }
    String sign = isNegative(v) ? "-" : "";
    if (v == 0) {
      return sign + "0";
    }
    BigDecimal r = new BigDecimal(Math.abs(v)).round(new MathContext(6, RoundingMode.HALF_EVEN));
    int exp = r.precision() - r.scale() - 1;
    if (exp >= -4 && exp < 6) {
      return sign + r.stripTrailingZeros().toPlainString();
    }
    String digits = Decimal.of(r).digits();
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return sign + mantissa + cExponent(exp);
  }

  private static String printfSpecial(double v) {
    if (Double.isNaN(v)) {
      return isNegative(v) ? "-nan" : "nan";
    }
    if (Double.isInfinite(v)) {
      return v < 0 ? "-inf" : "inf";
    }
    return null;
  }

  private static String cExponent(int exp) {
    String e = Integer.toString(Math.abs(exp));
    return (exp < 0 ? "e-" : "e+") + (e.length() < 2 ? "0" + e : e);
  }

  /** The sign bit, which also tells {@code -0.0} and negative NaNs apart. */
  static boolean isNegative(double v) {
    return Double.doubleToRawLongBits(v) < 0;
  }
}
