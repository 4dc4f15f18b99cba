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
    ERF("Erf");

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
    DType compute = DType.promote(x.dtype(), y.dtype());
    return apply(op, compute, x, y, out);
  }

  /** The type of {@link #binary}'s result, with its errors; reads no values. */
  public static AbstractTensor binaryType(String primitive, AbstractTensor x, AbstractTensor y) {
    Binary op = Binary.of(primitive);
    String[] names = Binary.argumentNames(primitive);
    Shape out = Shape.broadcast(primitive, names[0], names[1], x.shape(), y.shape());
    return new AbstractTensor(out, resultType(op, DType.promote(x.dtype(), y.dtype())));
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
      throw unsupported(op.primitive, compute);
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
      case FLOOR_DIV -> b == 0 ? (a == 0 ? 0 : a > 0 ? maxOf(type) : minOf(type)) : floorDiv(a, b);
      // Measured: x % 0 is 0 for 8/16-bit types and the type's minimum for int32/int64.
      case FLOOR_MOD -> b == 0 ? (type.itemSize() <= 2 ? 0 : minOf(type)) : Math.floorMod(a, b);
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

  private static long maxOf(DType t) {
    return switch (t) {
      case BOOL -> 1;
      case UINT8 -> 255;
      case INT8 -> Byte.MAX_VALUE;
      case INT16 -> Short.MAX_VALUE;
      case INT32 -> Integer.MAX_VALUE;
      default -> Long.MAX_VALUE;
    };
  }

  private static long minOf(DType t) {
    return switch (t) {
      case BOOL, UINT8 -> 0;
      case INT8 -> Byte.MIN_VALUE;
      case INT16 -> Short.MIN_VALUE;
      case INT32 -> Integer.MIN_VALUE;
      default -> Long.MIN_VALUE;
    };
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

  private static DType unaryResult(Unary op, DType in) {
    boolean floatOnly =
        op == Unary.EXP
            || op == Unary.LOG
            || op == Unary.SIGMOID
            || op == Unary.TANH
            || op == Unary.ERF;
    if ((floatOnly && !in.isFloat())
        || (in == DType.BOOL && (op == Unary.NEG || op == Unary.SQUARE))) {
      throw unsupported(op.primitive, in);
    }
    return op == Unary.SQRT && !in.isFloat() ? DType.FLOAT32 : in;
  }

  /**
   * {@code op(x)}. Measured result types: Sqrt of an integer or bool tensor is float32; Exp, Log,
   * Sigmoid and Tanh accept only floats; Neg and Square reject bool; Abs and ReLU keep every type.
   */
  public static Tensor unary(Unary op, Tensor x) {
    DType in = x.dtype();
    DType result = unaryResult(op, in);
    Tensor r = Tensor.zeros(result, x.shape());
    int n = r.size();
    if (in == DType.FLOAT32) {
      // Same values as the general path: each result is computed in double and rounded once.
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
            double v = a[i];
            o[i] =
                (float)
                    switch (op) {
                      case ABS -> Math.abs(v);
                      case EXP -> Math.exp(v);
                      case LOG -> Math.log(v);
                      case SQRT -> Math.sqrt(v);
                      case SIGMOID -> 1 / (1 + Math.exp(-v));
                      case ERF -> ErrorFunction.erf(v);
                      default -> Math.tanh(v);
                    };
          }
        }
      }
      return r;
    }
    if (result.isFloat()) {
      for (int i = 0; i < n; i++) {
        double v = x.getDouble(i);
        r.setDouble(
            i,
            switch (op) {
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
            });
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
              default -> throw new IllegalStateException(op.name());
            });
      }
    }
    return r;
  }

  /** MindSpore's text when no CPU kernel exists for a type, plus what the op does accept. */
  private static MsException unsupported(String primitive, DType type) {
    return MsException.typeError(
        "Select CPU operator["
            + primitive
            + "] fail! Unsupported data type! The input is "
            + type
            + (primitive.equals("Exp")
                    || primitive.equals("Log")
                    || primitive.equals("Sigmoid")
                    || primitive.equals("Tanh")
                    || primitive.equals("Erf")
                ? "; this operator needs a float tensor (cast it with astype(mindspore.float32))."
                : "; this operator does not accept Bool tensors."));
  }
}
