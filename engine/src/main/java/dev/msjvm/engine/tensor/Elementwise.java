package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;

/**
 * Eager elementwise kernels on host tensors, with NumPy broadcasting and MindSpore 2.10's result
 * types (measured on the CPU wheel; see ElementwiseTest and its golden file).
 *
 * <p>Inputs are first cast to the computation type ({@link DType#promote}, or {@link
 * DType#promoteWithScalar} for a Python scalar, which is cast too: {@code int8 + 300} wraps 300 to
 * 44), then combined in {@code long} (integers, wrapping) or {@code double} (floats, rounded to the
 * result type on store). Example: {@code binary(Binary.REAL_DIV, int32 [7], int32 [2])} is float32
 * {@code [3.5]}.
 */
public final class Elementwise {
  private Elementwise() {}

  /** Two-input ops, by MindSpore primitive name. */
  public enum Binary {
    ADD("Add"),
    SUB("Sub"),
    MUL("Mul"),
    REAL_DIV("RealDiv"),
    MAXIMUM("Maximum"),
    MINIMUM("Minimum"),
    POW("Pow"),
    FLOOR_DIV("FloorDiv"),
    FLOOR_MOD("FloorMod"),
    IGAMMA("Igamma"),
    IGAMMAC("Igammac"),
    IGAMMA_GRAD_A("IgammaGradA"),
    ZETA("Zeta"),
    GCD("Gcd"),
    LCM("Lcm"),
    EQUAL("Equal"),
    NOT_EQUAL("NotEqual"),
    LESS("Less"),
    LESS_EQUAL("LessEqual"),
    GREATER("Greater"),
    GREATER_EQUAL("GreaterEqual");

    private final String primitive;

    Binary(String primitive) {
      this.primitive = primitive;
    }

    public String primitive() {
      return primitive;
    }

    boolean isComparison() {
      return ordinal() >= EQUAL.ordinal();
    }

    /**
     * The op with MindSpore primitive name {@code name}, or a ValueError. Also accepts the
     * primitives behind Tensor's operators in MindSpore 2.10 ({@code AddExt} for {@code +}, {@code
     * SubExt} for {@code -}, {@code Div} for {@code /}), which compute the same.
     */
    public static Binary of(String name) {
      switch (name) {
        case "AddExt":
          return ADD;
        case "SubExt":
          return SUB;
        case "Div":
          return REAL_DIV;
        default:
          break;
      }
      for (Binary b : values()) {
        if (b.primitive.equals(name)) {
          return b;
        }
      }
      throw MsException.valueError("Unsupported elementwise binary operator '" + name + "'.");
    }

    /** How primitive {@code name}'s errors call its two inputs. */
    static String[] argumentNames(String name) {
      return switch (name) {
        case "AddExt", "SubExt", "FloorDiv", "NotEqual" -> new String[] {"input", "other"};
        case "Igamma", "Igammac", "IgammaGradA" -> new String[] {"a", "x"};
        case "Zeta" -> new String[] {"x", "q"};
        case "Gcd", "Lcm" -> new String[] {"x1", "x2"};
        default -> new String[] {"input1", "input2"};
      };
    }
  }

  /** One-input ops, by MindSpore primitive name. */
  public enum Unary {
    NEG("Neg"),
    ABS("Abs"),
    EXP("Exp"),
    LOG("Log"),
    SQRT("Sqrt"),
    SQUARE("Square"),
    RELU("ReLU"),
    SIGMOID("Sigmoid"),
    TANH("Tanh"),
    ERF("Erf"),
    ERFC("Erfc"),
    FLOOR("Floor"),
    CEIL("Ceil"),
    ROUND("Round"),
    TRUNC("Trunc"),
    SIGN("Sign"),
    LOG1P("Log1p"),
    EXPM1("Expm1"),
    SIN("Sin"),
    COS("Cos"),
    RECIPROCAL("Reciprocal"),
    RSQRT("Rsqrt"),
    IS_NAN("IsNan"),
    IS_INF("IsInf"),
    IS_FINITE("IsFinite"),
    LGAMMA("Lgamma"),
    DIGAMMA("Digamma");

    private final String primitive;

    Unary(String primitive) {
      this.primitive = primitive;
    }

    public String primitive() {
      return primitive;
    }

    /** The op with MindSpore primitive name {@code name}, or a ValueError. */
    public static Unary of(String name) {
      for (Unary u : values()) {
        if (u.primitive.equals(name)) {
          return u;
        }
      }
      throw MsException.valueError("Unsupported elementwise unary operator '" + name + "'.");
    }
  }

  /** {@code x op y} for two tensors. */
  public static Tensor binary(Binary op, Tensor x, Tensor y) {
    return binary(op.primitive, x, y);
  }

  /**
   * {@code x op y} for the MindSpore primitive named {@code primitive} (see {@link Binary#of});
   * shape errors name that primitive and its inputs as MindSpore does.
   */
  public static Tensor binary(String primitive, Tensor x, Tensor y) {
    Binary op = Binary.of(primitive);
    String[] names = Binary.argumentNames(primitive);
    Shape out = Shape.broadcast(primitive, names[0], names[1], x.shape(), y.shape());
    checkSpecial(op, names, x.dtype(), y.dtype());
    DType compute = DType.promote(x.dtype(), y.dtype());
    return apply(op, compute, x, y, out);
  }

  /** The type of {@link #binary}'s result, with its errors; reads no values. */
  public static AbstractTensor binaryType(String primitive, AbstractTensor x, AbstractTensor y) {
    Binary op = Binary.of(primitive);
    String[] names = Binary.argumentNames(primitive);
    Shape out = Shape.broadcast(primitive, names[0], names[1], x.shape(), y.shape());
    checkSpecial(op, names, x.dtype(), y.dtype());
    return new AbstractTensor(out, resultType(op, DType.promote(x.dtype(), y.dtype())));
  }

  /**
   * MindSpore 2.10's input checks of the ops that take no promotion: Igamma, Igammac, IgammaGradA
   * and Zeta take float32 or float64 of one type; Gcd takes int16/int32/int64 and Lcm int32/int64
   * (either may mix widths, promoted).
   */
  private static void checkSpecial(Binary op, String[] names, DType x, DType y) {
    switch (op) {
      case IGAMMA, IGAMMAC, IGAMMA_GRAD_A, ZETA -> {
        // Zeta checks q first (measured)
        int first = op == Binary.ZETA ? 1 : 0;
        for (int k = 0; k < 2; k++) {
          int i = k == 0 ? first : 1 - first;
          DType t = i == 0 ? x : y;
          if (t != DType.FLOAT32 && t != DType.FLOAT64) {
            throw MsException.typeError(
                "For primitive["
                    + op.primitive
                    + "], the input argument["
                    + names[i]
                    + "] must be a type of {Tensor[Float32], Tensor[Float64]}, but got Tensor["
                    + t.mindsporeName()
                    + "].");
          }
        }
        if (x != y) {
          throw MsException.typeError(
              "For primitive[" + op.primitive + "], the input type must be same.");
        }
      }
      case GCD -> {
        for (DType t : new DType[] {x, y}) {
          if (t != DType.INT16 && t != DType.INT32 && t != DType.INT64) {
            throw MsException.typeError(
                "For Primitive[Gcd], the type of the input tensor must be [Int16, Int32, Int64],"
                    + " but got "
                    + t.mindsporeName()
                    + "!");
          }
        }
      }
      case LCM -> {
        for (int i = 0; i < 2; i++) {
          DType t = i == 0 ? x : y;
          if (t != DType.INT32 && t != DType.INT64) {
            throw MsException.typeError(
                "For primitive[Lcm], the input argument["
                    + names[i]
                    + "] must be a type of {Tensor[Int32], Tensor[Int64]}, but got Tensor["
                    + t.mindsporeName()
                    + "].");
          }
        }
      }
      default -> {}
    }
  }

  /** Complex's kernel: {@code re + i im}, broadcast to {@code type} (its output type). */
  public static Tensor complex(Tensor re, Tensor im, AbstractTensor type) {
    int[] ri = Broadcast.indices(re.shape(), type.shape());
    int[] ii = Broadcast.indices(im.shape(), type.shape());
    double[] r = new double[ri.length];
    double[] m = new double[ri.length];
    for (int k = 0; k < ri.length; k++) {
      r[k] = re.getDouble(ri[k]);
      m[k] = im.getDouble(ii[k]);
    }
    return Tensor.ofComplex(type.dtype(), type.shape(), r, m);
  }

  /** The type of {@link #binaryScalar}'s result, with its errors; reads no values. */
  public static AbstractTensor binaryScalarType(Binary op, AbstractTensor x, Object scalar) {
    return x.withDtype(resultType(op, scalarCompute(op, x.dtype(), scalar)));
  }

  /** The type of {@link #unary}'s result, with its errors; reads no values. */
  public static AbstractTensor unaryType(Unary op, AbstractTensor x) {
    return x.withDtype(unaryResult(op, x.dtype()));
  }

  /**
   * {@code x op scalar} (or {@code scalar op x} when {@code scalarOnLeft}) for a Python bool, int
   * (Integer/Long) or float (Double/Float).
   */
  public static Tensor binaryScalar(Binary op, Tensor x, Object scalar, boolean scalarOnLeft) {
    boolean isBool = scalar instanceof Boolean;
    boolean isInt = scalar instanceof Integer || scalar instanceof Long;
    DType compute = scalarCompute(op, x.dtype(), scalar);
    Tensor s = Tensor.zeros(compute, Shape.scalar());
    if (isBool) {
      s.setLong(0, (Boolean) scalar ? 1 : 0);
    } else if (isInt) {
      s.setLong(0, ((Number) scalar).longValue());
    } else {
      s.setDouble(0, ((Number) scalar).doubleValue());
    }
    return scalarOnLeft ? apply(op, compute, s, x, x.shape()) : apply(op, compute, x, s, x.shape());
  }

  /** The type {@code tensor op scalar} computes in, or a TypeError for a bad scalar. */
  private static DType scalarCompute(Binary op, DType x, Object scalar) {
    boolean isBool = scalar instanceof Boolean;
    boolean isInt = scalar instanceof Integer || scalar instanceof Long;
    if (!isBool && !isInt && !(scalar instanceof Double || scalar instanceof Float)) {
      throw MsException.typeError(
          "For '"
              + op.primitive
              + "', the scalar operand must be a bool, int or float, but got "
              + (scalar == null ? "None" : scalar.getClass().getSimpleName())
              + ".");
    }
    DType compute = DType.promoteWithScalar(x, isBool, isInt);
    // Measured: an int scalar is not wrapped to the tensor's type when compared (uint8 < -2 is all
    // false) or divided (uint8 / -2 is negative).
    if (isInt && op.isComparison() && !compute.isFloat()) {
      compute = DType.INT64;
    } else if (op == Binary.REAL_DIV && !compute.isFloat()) {
      compute = DType.FLOAT32;
    }
    return compute;
  }

  /** The result type of {@code op} computed in {@code compute}, or its unsupported-type error. */
  private static DType resultType(Binary op, DType compute) {
    if (compute == DType.BOOL
        && (op == Binary.MINIMUM || op == Binary.POW || op == Binary.FLOOR_MOD)) {
      throw unsupported(op.primitive, compute, false);
    }
    return op.isComparison()
        ? DType.BOOL
        : op == Binary.REAL_DIV && !compute.isFloat() ? DType.FLOAT32 : compute;
  }

  private static Tensor apply(Binary op, DType compute, Tensor x, Tensor y, Shape out) {
    DType result = resultType(op, compute);
    Tensor fast = Float32Kernels.binary(op, result, x, y, out);
    if (fast != null) {
      return fast;
    }
    Tensor r = Tensor.zeros(result, out);
    int n = r.size();
    int[] xi = Broadcast.indices(x.shape(), out);
    int[] yi = Broadcast.indices(y.shape(), out);
    if (compute.isFloat() || op == Binary.REAL_DIV) {
      for (int i = 0; i < n; i++) {
        double a = Tensor.roundFloat(compute, x.getDouble(xi[i]));
        double b = Tensor.roundFloat(compute, y.getDouble(yi[i]));
        if (compute == DType.FLOAT64) {
          a = x.getDouble(xi[i]);
          b = y.getDouble(yi[i]);
        }
        if (op.isComparison()) {
          r.setLong(i, compare(op, a, b) ? 1 : 0);
        } else {
          r.setDouble(i, floatOp(op, a, b));
        }
      }
    } else {
      for (int i = 0; i < n; i++) {
        long a = x.getLong(xi[i]);
        long b = y.getLong(yi[i]);
        if (op.isComparison()) {
          r.setLong(i, compare(op, a, b) ? 1 : 0);
        } else {
          r.setLong(i, intOp(op, compute, a, b));
        }
      }
    }
    return r;
  }

  static double floatOp(Binary op, double a, double b) {
    return switch (op) {
      case ADD -> a + b;
      case SUB -> a - b;
      case MUL -> a * b;
      case REAL_DIV -> a / b;
      // MindSpore's CPU kernels compute x > y ? x : y, so a NaN wins only as the second input.
      case MAXIMUM -> a > b ? a : b;
      case MINIMUM -> a < b ? a : b;
      case POW -> Math.pow(a, b);
      case FLOOR_DIV -> Math.floor(a / b);
      case FLOOR_MOD -> {
        double r = a % b;
        yield r != 0 && (r < 0) != (b < 0) ? r + b : r;
      }
      case IGAMMA -> SpecialFunctions.igamma(a, b);
      case IGAMMAC -> SpecialFunctions.igammac(a, b);
      case IGAMMA_GRAD_A -> SpecialFunctions.igammaGradA(a, b);
      case ZETA -> SpecialFunctions.zeta(a, b);
      default -> throw new IllegalStateException(op.name());
    };
  }

  private static long intOp(Binary op, DType type, long a, long b) {
    return switch (op) {
      case ADD -> a + b;
      case SUB -> a - b;
      case MUL -> a * b;
      case MAXIMUM -> Math.max(a, b);
      case MINIMUM -> Math.min(a, b);
      case POW -> intPow(a, b, type);
      case FLOOR_DIV ->
          b == 0
              ? (a == 0
                  ? 0
                  : a > 0 ? ElementaryFunctions.maxOf(type) : ElementaryFunctions.minOf(type))
              : floorDiv(a, b);
      // Measured: x % 0 is 0 for 8/16-bit types and the type's minimum for int32/int64.
      case FLOOR_MOD ->
          b == 0
              ? (type.itemSize() <= 2 ? 0 : ElementaryFunctions.minOf(type))
              : Math.floorMod(a, b);
      case GCD -> SpecialFunctions.gcd(a, b);
      case LCM -> SpecialFunctions.lcm(a, b);
      default -> throw new IllegalStateException(op.name());
    };
  }

  private static long floorDiv(long a, long b) {
    return a == Long.MIN_VALUE && b == -1 ? Long.MIN_VALUE : Math.floorDiv(a, b);
  }

  /**
   * Integer power as MindSpore's CPU kernel computes it: {@code pow} in double, then converted as
   * x86 does (out of range or NaN gives the minimum of int32, or of int64 for int64), then wrapped.
   * So {@code int8 3**5 == -13}, {@code int32 0**-2 == -2147483648}, {@code uint8 23**12 == 0}.
   */
  private static long intPow(long base, long exp, DType type) {
    double p = Math.pow(base, exp);
    if (type == DType.INT64) {
      return Double.isNaN(p) || p >= 0x1p63 || p < -0x1p63 ? Long.MIN_VALUE : (long) p;
    }
    return Double.isNaN(p) || p >= 0x1p31 || p < -0x1p31 ? Integer.MIN_VALUE : (long) p;
  }

  private static boolean compare(Binary op, double a, double b) {
    return switch (op) {
      case EQUAL -> a == b;
      case NOT_EQUAL -> a != b;
      case LESS -> a < b;
      case LESS_EQUAL -> a <= b;
      case GREATER -> a > b;
      case GREATER_EQUAL -> a >= b;
      default -> throw new IllegalStateException(op.name());
    };
  }

  private static boolean compare(Binary op, long a, long b) {
    return switch (op) {
      case EQUAL -> a == b;
      case NOT_EQUAL -> a != b;
      case LESS -> a < b;
      case LESS_EQUAL -> a <= b;
      case GREATER -> a > b;
      case GREATER_EQUAL -> a >= b;
      default -> throw new IllegalStateException(op.name());
    };
  }

  /**
   * The result type of {@code op} on {@code in}, or MindSpore's error where its CPU kernel has no
   * such type. Measured on MindSpore 2.10's CPU wheel: Exp, Log, Sigmoid, Tanh, Erf, Erfc, Floor,
   * Ceil, Log1p, Expm1, Sin, Cos, Rsqrt, IsInf, Lgamma and Digamma take floats only; Sign and Round
   * take int32, int64 and floats; Neg and Square reject bool; Sqrt and Reciprocal of an integer or
   * bool are float32; IsNan and IsFinite take every type; the three predicates give bool; the rest
   * keep the type.
   */
  private static DType unaryResult(Unary op, DType in) {
    switch (op) {
      case EXP,
          LOG,
          SIGMOID,
          TANH,
          ERF,
          ERFC,
          FLOOR,
          CEIL,
          LOG1P,
          EXPM1,
          SIN,
          COS,
          RSQRT,
          IS_INF -> {
        if (!in.isFloat()) {
          throw unsupported(op.primitive, in, true);
        }
      }
      case SIGN, ROUND -> {
        if (!in.isFloat() && in != DType.INT32 && in != DType.INT64) {
          throw op == Unary.ROUND
              ? MsException.runtimeError(
                  "For 'Round', it does not support this kernel type: input("
                      + in
                      + "), output("
                      + in
                      + ").")
              : unsupported(op.primitive, in, false);
        }
      }
      case NEG, SQUARE -> {
        if (in == DType.BOOL) {
          throw unsupported(op.primitive, in, false);
        }
      }
      default -> {}
    }
    return switch (op) {
      case IS_NAN, IS_INF, IS_FINITE -> DType.BOOL;
      case SQRT, RECIPROCAL -> in.isFloat() ? in : DType.FLOAT32;
      default -> in;
    };
  }

  /**
   * {@code op(v)} for a float16 element: MindSpore's half kernels round {@code 1 + v} before
   * Log1p's logarithm and {@code exp(v)} before Expm1's subtraction (measured: Log1p(0.3) is
   * 0.26221, not 0.26245); the other ops as {@link #apply}.
   */
  private static double applyHalf(Unary op, double v) {
    return switch (op) {
      case LOG1P -> Math.log(Tensor.roundFloat(DType.FLOAT16, 1 + v)) + 0.0;
      case EXPM1 -> Tensor.roundFloat(DType.FLOAT16, Math.exp(v)) - 1.0;
      default -> apply(op, v);
    };
  }

  /** {@code op(v)} in double precision (the float results; predicates give 1 or 0). */
  private static double apply(Unary op, double v) {
    return switch (op) {
      case NEG -> -v;
      case ABS -> Math.abs(v);
      case EXP -> Math.exp(v);
      case LOG -> Math.log(v);
      case SQRT -> Math.sqrt(v);
      case SQUARE -> v * v;
      case RELU -> v > 0 ? v : 0.0;
      case SIGMOID -> 1 / (1 + Math.exp(-v));
      case TANH -> Math.tanh(v);
      case ERF -> ErrorFunction.erf(v);
      case ERFC -> ErrorFunction.erfc(v);
      case FLOOR -> Math.floor(v);
      case CEIL -> Math.ceil(v);
      case ROUND -> Math.rint(v); // half to even, as MindSpore's kernel
      case TRUNC -> v < 0 ? Math.ceil(v) : Math.floor(v);
      case SIGN -> Double.isNaN(v) ? 0.0 : Math.signum(v) + 0.0; // nan and -0 give 0
      case LOG1P -> Math.log1p(v) + 0.0; // -0 gives +0, as MindSpore's kernels
      case EXPM1 -> Math.expm1(v) + 0.0;
      case SIN -> Math.sin(v);
      case COS -> Math.cos(v);
      case RECIPROCAL -> 1 / v;
      case RSQRT -> 1 / Math.sqrt(v);
      case IS_NAN -> Double.isNaN(v) ? 1 : 0;
      case IS_INF -> Double.isInfinite(v) ? 1 : 0;
      case IS_FINITE -> Double.isFinite(v) ? 1 : 0;
      case LGAMMA -> SpecialFunctions.lgamma(v);
      case DIGAMMA -> SpecialFunctions.digamma(v);
    };
  }

  /**
   * {@code op(x)}, with the result types of {@link #unaryResult}. Floats are computed in double and
   * rounded once to the result type; integers stay exact (Trunc and Round keep them, Sign gives -1,
   * 0 or 1).
   */
  public static Tensor unary(Unary op, Tensor x) {
    DType in = x.dtype();
    DType result = unaryResult(op, in);
    Tensor r = Tensor.zeros(result, x.shape());
    int n = r.size();
    if (in == DType.FLOAT32 && result == DType.FLOAT32) {
      float[] a = x.floats();
      float[] o = r.floats();
      switch (op) {
        case NEG -> {
          for (int i = 0; i < n; i++) {
            o[i] = -a[i];
          }
        }
        case RELU -> {
          for (int i = 0; i < n; i++) {
            o[i] = a[i] > 0 ? a[i] : 0f;
          }
        }
        case SQUARE -> {
          for (int i = 0; i < n; i++) {
            o[i] = a[i] * a[i];
          }
        }
        default -> {
          for (int i = 0; i < n; i++) {
            o[i] = (float) apply(op, a[i]);
          }
        }
      }
      return r;
    }
    if (result.isFloat() || result == DType.BOOL) {
      boolean half = in == DType.FLOAT16;
      for (int i = 0; i < n; i++) {
        double v = x.getDouble(i);
        r.setDouble(i, half ? applyHalf(op, v) : apply(op, v));
      }
    } else {
      for (int i = 0; i < n; i++) {
        long v = x.getLong(i);
        r.setLong(
            i,
            switch (op) {
              case NEG -> -v;
              case ABS -> Math.abs(v);
              case SQUARE -> v * v;
              case RELU -> Math.max(v, 0);
              case TRUNC, ROUND -> v;
              case SIGN -> Long.signum(v);
              default -> throw new IllegalStateException(op.name());
            });
      }
    }
    return r;
  }

  /**
   * MindSpore's text when no CPU kernel exists for a type, plus what the op does accept ({@code
   * floatOnly}: floats; otherwise int32, int64 and floats, or no bool).
   */
  public static MsException unsupported(String primitive, DType type, boolean floatOnly) {
    return MsException.typeError(
        "Select CPU operator["
            + primitive
            + "] fail! Unsupported data type! The input is "
            + type
            + (floatOnly
                ? "; this operator needs a float tensor (cast it with astype(mindspore.float32))."
                : type == DType.BOOL
                    ? "; this operator does not accept Bool tensors."
                    : "; this operator needs an int32, int64 or float tensor."));
  }
}
