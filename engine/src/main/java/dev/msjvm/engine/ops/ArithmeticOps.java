package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.AcceptedTypes.FLOATS;
import static dev.msjvm.engine.ops.AcceptedTypes.INTS;
import static dev.msjvm.engine.ops.AcceptedTypes.union;
import static dev.msjvm.engine.ops.ElementwiseOps.one;
import static dev.msjvm.engine.ops.GradOps.broadcastBack;
import static dev.msjvm.engine.ops.GradOps.div;
import static dev.msjvm.engine.ops.GradOps.mul;
import static dev.msjvm.engine.ops.GradOps.scalar;
import static dev.msjvm.engine.ops.GradOps.square;
import static dev.msjvm.engine.ops.GradOps.zeros;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.tensor.ElementaryFunctions;
import dev.msjvm.engine.tensor.Elementwise;
import dev.msjvm.engine.tensor.Pointwise;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The two-input elementwise operators declared as a table of scalar functions (MindSpore's
 * arithmetic_info.cc operators its parallel tests build): Mod, FmodTensor, Atan2, DivNoNan,
 * MulNoNan, TruncateDiv, TruncateMod, Xdivy, Xlogy, SquaredDifference, Hypot, NextAfter,
 * BitwiseAnd/Or/Xor, LogicalAnd/Or, LeftShift, RightShift, IsClose ({@code rtol}, {@code atol},
 * {@code equal_nan}) and RemainderTensorTensor.
 *
 * <p>Inputs are promoted as MindSpore promotes them (or must share one type where its check says
 * so), broadcast, then checked against the types its CPU kernel takes ({@link AcceptedTypes});
 * values are the kernels' (measured on MindSpore 2.10, e.g. {@code Mod(0, 0) == 0}, an int32 {@code
 * x % 0} is int32's minimum), gradients MindSpore's bprops (Mod's divisor gets {@code -floor(x / y)
 * dout}). Sharding: arithmetic (broadcast inputs split alike).
 */
final class ArithmeticOps {
  private ArithmeticOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  @FunctionalInterface
  private interface BinaryFn {
    double apply(double x, double y, Attrs a, DType t);
  }

  @FunctionalInterface
  private interface IntBinaryFn {
    long apply(long x, long y, DType t);
  }

  // ---- two-input operators -------------------------------------------------------------------

  /**
   * How a two-input operator types its inputs: promoted, or both of one type (MindSpore's text).
   */
  private enum Inputs {
    PROMOTED,
    SAME_PRIMITIVE,
    SAME_LEFT_SHIFT,
    SAME_RIGHT_SHIFT
  }

  private record Binary(
      String name,
      List<String> args,
      Inputs inputs,
      AcceptedTypes types,
      boolean bool,
      BinaryFn f,
      IntBinaryFn g,
      GradRule grad) {

    /** The type the operator computes in (and returns, unless {@code bool}). */
    DType compute(DType x, DType y) {
      switch (inputs) {
        case SAME_PRIMITIVE -> {
          if (x != y) {
            throw MsException.typeError(
                "For primitive[" + name + "], the input type must be same.");
          }
        }
        case SAME_LEFT_SHIFT, SAME_RIGHT_SHIFT -> {
          if (x != y) {
            boolean t = inputs == Inputs.SAME_RIGHT_SHIFT;
            throw MsException.typeError(
                "For '"
                    + name
                    + "', the dtype of two args should be same, but the first arg dtype "
                    + (t ? "Tensor[" + x.mindsporeName() + "]" : x.mindsporeName())
                    + " are not consistent with second arg dtype "
                    + (t ? "Tensor[" + y.mindsporeName() + "]" : y.mindsporeName()));
          }
        }
        default -> {}
      }
      DType c = DType.promote(x, y);
      if (inputs == Inputs.SAME_LEFT_SHIFT && !INTS.contains(c)) {
        throw MsException.typeError(
            "For 'LeftShift', the dtype of input should be one of [Int8, Int16, Int32, Int64,"
                + " UInt8, UInt16, UInt32, UInt64], but got "
                + c.mindsporeName()
                + ".");
      }
      if (types != null) {
        types.check(name, c);
      }
      return c;
    }

    AbstractTensor type(AbstractTensor x, AbstractTensor y) {
      DType c = compute(x.dtype(), y.dtype());
      Shape s = Shape.broadcast(name, args.get(0), args.get(1), x.shape(), y.shape());
      return new AbstractTensor(s, bool ? DType.BOOL : c);
    }
  }

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    binaries(defs);
    return defs;
  }

  private static void binaries(List<OpDef> defs) {
    Set<DType> numbers = union(FLOATS, INTS.toArray(new DType[0]));
    List<String> xy = List.of("x", "y");
    List<String> x1x2 = List.of("x1", "x2");
    List<String> inputOther = List.of("input", "other");
    List<Binary> rows = new ArrayList<>();
    rows.add(
        new Binary(
            "Mod",
            xy,
            Inputs.PROMOTED,
            new AcceptedTypes(
                numbers,
                "x",
                "Tensor[BFloat16], Tensor[Complex128], Tensor[Complex64], Tensor[Float16],"
                    + " Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32],"
                    + " Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32],"
                    + " Tensor[UInt64], Tensor[UInt8]"),
            false,
            (x, y, a, t) -> ElementaryFunctions.mod(x, y),
            (x, y, t) ->
                y == 0 ? ElementaryFunctions.castX86(ElementaryFunctions.mod(x, 0.0), t) : x % y,
            g -> remainderGrad(g, "FloorDiv")));
    rows.add(
        new Binary(
            "FmodTensor",
            inputOther,
            Inputs.PROMOTED,
            AcceptedTypes.kernel(numbers),
            false,
            (x, y, a, t) -> ElementaryFunctions.fmod(x, y),
            (x, y, t) -> y == 0 ? ElementaryFunctions.castX86(Double.NaN, t) : x % y,
            g -> remainderGrad(g, "TruncateDiv")));
    rows.add(
        new Binary(
            "Atan2",
            xy,
            Inputs.PROMOTED,
            AcceptedTypes.kernel(FLOATS),
            false,
            (x, y, a, t) -> Math.atan2(x, y),
            null,
            ArithmeticOps::atan2Grad));
    rows.add(
        new Binary(
            "DivNoNan",
            x1x2,
            Inputs.PROMOTED,
            new AcceptedTypes(
                FLOATS,
                "x1",
                "Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32],"
                    + " Tensor[Float64], Tensor[Int32], Tensor[Int64], Tensor[Int8],"
                    + " Tensor[UInt8]"),
            false,
            (x, y, a, t) -> y == 0 ? 0.0 : x / y,
            null,
            g -> {
              Tensor dx = g.op("DivNoNan", NONE, g.dout(0), g.in(1));
              Tensor dy = g.op("Neg", NONE, mul(g, dx, g.out(0)));
              return broadcastBack(g, dx, dy);
            }));
    rows.add(
        new Binary(
            "MulNoNan",
            xy,
            Inputs.PROMOTED,
            AcceptedTypes.kernel(numbers),
            false,
            (x, y, a, t) -> y == 0 ? 0.0 : x * y,
            (x, y, t) -> y == 0 ? 0 : x * y,
            g ->
                broadcastBack(
                    g,
                    g.op("MulNoNan", NONE, g.dout(0), g.in(1)),
                    g.op("MulNoNan", NONE, g.in(0), g.dout(0)))));
    rows.add(
        new Binary(
            "TruncateDiv",
            xy,
            Inputs.PROMOTED,
            AcceptedTypes.kernel(numbers),
            false,
            (x, y, a, t) -> ElementaryFunctions.truncateDiv(x, y),
            ArithmeticOps::truncateDivInt,
            GradRule.NONE));
    rows.add(
        new Binary(
            "TruncateMod",
            xy,
            Inputs.PROMOTED,
            new AcceptedTypes(
                union(FLOATS, DType.INT8, DType.INT32, DType.UINT8),
                "x",
                "Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int8],"
                    + " Tensor[UInt8]"),
            false,
            (x, y, a, t) -> ElementaryFunctions.fmod(x, y),
            (x, y, t) -> y == 0 ? ElementaryFunctions.castX86(Double.NaN, t) : x % y,
            g -> remainderGrad(g, "TruncateDiv")));
    rows.add(
        new Binary(
            "Xdivy",
            xy,
            Inputs.PROMOTED,
            new AcceptedTypes(
                FLOATS,
                "x",
                "Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32],"
                    + " Tensor[Float64]"),
            false,
            (x, y, a, t) -> x == 0 ? 0.0 : x / y,
            null,
            ArithmeticOps::xdivyGrad));
    rows.add(
        new Binary(
            "Xlogy",
            xy,
            Inputs.PROMOTED,
            AcceptedTypes.kernel(FLOATS),
            false,
            // float16: the logarithm is rounded to float16 before the product (measured)
            (x, y, a, t) -> x * ElementaryFunctions.roundTo(Math.log(y), t),
            null,
            ArithmeticOps::xlogyGrad));
    rows.add(
        new Binary(
            "SquaredDifference",
            xy,
            Inputs.PROMOTED,
            new AcceptedTypes(
                union(FLOATS, DType.INT32, DType.INT64),
                "x",
                "Tensor[Complex128], Tensor[Complex64], Tensor[Float16], Tensor[Float32],"
                    + " Tensor[Float64], Tensor[Int32], Tensor[Int64]"),
            false,
            (x, y, a, t) -> (x - y) * (x - y),
            (x, y, t) -> (x - y) * (x - y),
            g -> {
              Tensor dx =
                  scalar(g, "Mul", mul(g, g.dout(0), g.op("Sub", NONE, g.in(0), g.in(1))), 2.0);
              return broadcastBack(g, dx, g.op("Neg", NONE, dx));
            }));
    AcceptedTypes f32f64 =
        new AcceptedTypes(
            EnumSet.of(DType.FLOAT32, DType.FLOAT64), "x1", "Tensor[Float32], Tensor[Float64]");
    rows.add(
        new Binary(
            "Hypot",
            x1x2,
            Inputs.PROMOTED,
            f32f64,
            false,
            (x, y, a, t) -> Math.hypot(x, y),
            null,
            g ->
                broadcastBack(
                    g,
                    mul(g, div(g, g.in(0), g.out(0)), g.dout(0)),
                    mul(g, div(g, g.in(1), g.out(0)), g.dout(0)))));
    // Computed in double and rounded to the type: float32 NextAfter returns x (MindSpore's kernel
    // does the same, measured).
    rows.add(
        new Binary(
            "NextAfter",
            x1x2,
            Inputs.SAME_PRIMITIVE,
            f32f64,
            false,
            (x, y, a, t) -> Math.nextAfter(x, y),
            null,
            g -> new Tensor[] {g.dout(0), zeros(g, g.in(1))}));
    String bitwiseList =
        "Tensor[Bool], Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16],"
            + " Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]";
    AcceptedTypes bitwise = new AcceptedTypes(union(INTS, DType.BOOL), "x", bitwiseList);
    rows.add(
        new Binary(
            "BitwiseAnd",
            xy,
            Inputs.PROMOTED,
            bitwise,
            false,
            null,
            (x, y, t) -> x & y,
            GradRule.NONE));
    rows.add(
        new Binary(
            "BitwiseOr",
            xy,
            Inputs.PROMOTED,
            bitwise,
            false,
            null,
            (x, y, t) -> x | y,
            GradRule.NONE));
    rows.add(
        new Binary(
            "BitwiseXor",
            xy,
            Inputs.PROMOTED,
            bitwise,
            false,
            null,
            (x, y, t) -> x ^ y,
            GradRule.NONE));
    rows.add(
        new Binary(
            "LogicalAnd",
            xy,
            Inputs.PROMOTED,
            null,
            true,
            (x, y, a, t) -> x != 0 && y != 0 ? 1 : 0,
            (x, y, t) -> x != 0 && y != 0 ? 1 : 0,
            GradRule.NONE));
    rows.add(
        new Binary(
            "LogicalOr",
            xy,
            Inputs.PROMOTED,
            null,
            true,
            (x, y, a, t) -> x != 0 || y != 0 ? 1 : 0,
            (x, y, t) -> x != 0 || y != 0 ? 1 : 0,
            GradRule.NONE));
    rows.add(
        new Binary(
            "LeftShift",
            x1x2,
            Inputs.SAME_LEFT_SHIFT,
            null,
            false,
            null,
            (x, s, t) -> s < 0 || s >= 64 ? 0 : x << s,
            GradRule.NONE));
    rows.add(
        new Binary(
            "RightShift",
            List.of("input_x", "input_y"),
            Inputs.SAME_RIGHT_SHIFT,
            new AcceptedTypes(
                INTS,
                "x",
                "Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt16],"
                    + " Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]"),
            false,
            null,
            (x, s, t) -> s < 0 ? x : x >> Math.min(s, 63),
            GradRule.NONE));
    rows.add(
        new Binary(
            "IsClose",
            inputOther,
            Inputs.PROMOTED,
            AcceptedTypes.kernel(union(numbers, DType.BOOL)),
            true,
            ArithmeticOps::isClose,
            null,
            GradRule.NONE));
    for (Binary b : rows) {
      defs.add(binary(b));
    }
    // RemainderTensorTensor: Python's remainder (FloorMod's kernel and types).
    defs.add(
        OpDef.of(
                "RemainderTensorTensor",
                c -> one(Elementwise.binary("FloorMod", c.in(0), c.in(1))),
                g -> remainderGrad(g, "FloorDiv"))
            .infers(Infer.one((a, in) -> Elementwise.binaryType("FloorMod", in.get(0), in.get(1))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
  }

  private static OpDef binary(Binary b) {
    return OpDef.of(
            b.name(),
            c -> {
              Tensor x = c.in(0);
              Tensor y = c.in(1);
              AbstractTensor t = b.type(x.type(), y.type());
              DType compute = b.compute(x.dtype(), y.dtype());
              Attrs a = c.attrs();
              return one(
                  Pointwise.map2(
                      x,
                      y,
                      compute,
                      t.dtype(),
                      t.shape(),
                      b.f() == null ? null : (u, v) -> b.f().apply(u, v, a, compute),
                      b.g() == null
                          ? null
                          : (u, v) -> wrapped(b.g().apply(u, v, compute), compute, b.bool())));
            },
            b.grad())
        .infers(Infer.one((a, in) -> b.type(in.get(0), in.get(1))))
        .role(CostRole.ELEMENTWISE)
        .shards(ElementwiseRules.arithmetic());
  }

  private static long wrapped(long v, DType t, boolean bool) {
    return bool ? v : ElementaryFunctions.wrap(v, t);
  }

  private static long truncateDivInt(long x, long y, DType t) {
    if (y == 0) {
      // as FloorDiv's integer kernel (measured: 5 / 0 is the type's maximum)
      return x == 0 ? 0 : x > 0 ? ElementaryFunctions.maxOf(t) : ElementaryFunctions.minOf(t);
    }
    return x == Long.MIN_VALUE && y == -1 ? Long.MIN_VALUE : x / y;
  }

  /** IsClose: {@code |x - y| <= atol + rtol |y|}; infinities equal only themselves. */
  private static double isClose(double x, double y, Attrs a, DType t) {
    if (Double.isNaN(x) || Double.isNaN(y)) {
      return Double.isNaN(x) && Double.isNaN(y) && a.bool("equal_nan", false) ? 1 : 0;
    }
    if (x == y) {
      return 1;
    }
    if (Double.isInfinite(x) || Double.isInfinite(y)) {
      return 0;
    }
    double rtol = a.has("rtol") ? a.real("rtol") : 1e-5;
    double atol = a.has("atol") ? a.real("atol") : 1e-8;
    return Math.abs(x - y) <= atol + rtol * Math.abs(y) ? 1 : 0;
  }

  /** Mod's, TruncateMod's and the remainders' bprop: dx = dout, dy = -dout * quotient(x, y). */
  private static Tensor[] remainderGrad(GradRule.Call g, String quotient) {
    Tensor dy = mul(g, g.op("Neg", NONE, g.dout(0)), g.op(quotient, NONE, g.in(0), g.in(1)));
    return broadcastBack(g, g.dout(0), dy);
  }

  private static Tensor[] atan2Grad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor y = g.in(1);
    Tensor tmp = div(g, g.dout(0), g.op("Add", NONE, square(g, x), square(g, y)));
    return broadcastBack(g, mul(g, tmp, y), mul(g, tmp, g.op("Neg", NONE, x)));
  }

  private static Tensor[] xdivyGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor y = g.in(1);
    Tensor notZero =
        g.op(
            "Cast",
            Attrs.of("dtype", x.dtype().name()),
            g.op("ScalarOp", Attrs.of("op", "NotEqual", "scalar", 0.0, "left", false), x));
    Tensor dx = mul(g, g.op("Xdivy", NONE, notZero, y), g.dout(0));
    Tensor dy = mul(g, g.op("Xdivy", NONE, g.op("Neg", NONE, x), square(g, y)), g.dout(0));
    return broadcastBack(g, dx, dy);
  }

  /** dx = Xlogy(dout, y) with 0 where x == 0 and y <= 0; dy = dout x / y. */
  private static Tensor[] xlogyGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor y = g.in(1);
    Tensor mask =
        g.op(
            "LogicalAnd",
            NONE,
            g.op("ScalarOp", Attrs.of("op", "Equal", "scalar", 0.0, "left", false), x),
            g.op("ScalarOp", Attrs.of("op", "LessEqual", "scalar", 0.0, "left", false), y));
    Tensor dx =
        g.op(
            "MaskedFill",
            NONE,
            g.op("Xlogy", NONE, g.dout(0), y),
            mask,
            zeros(g, g.op("ReduceSum", Attrs.of("axis", List.of()), x)));
    Tensor dy = div(g, mul(g, g.dout(0), x), y);
    return broadcastBack(g, dx, dy);
  }

  /** The two inputs' gradients summed back over the dims broadcasting stretched. */
  private static Tensor[] broadcastBack(GradRule.Call g, Tensor dx, Tensor dy) {
    return new Tensor[] {
      g.needs(0) ? g.sumTo(dx, g.in(0).shape()) : null,
      g.needs(1) ? g.sumTo(dy, g.in(1).shape()) : null
    };
  }
}
