package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.AcceptedTypes.FLOAT3;
import static dev.msjvm.engine.ops.AcceptedTypes.FLOATS;
import static dev.msjvm.engine.ops.AcceptedTypes.union;
import static dev.msjvm.engine.ops.ElementwiseOps.one;
import static dev.msjvm.engine.ops.GradOps.div;
import static dev.msjvm.engine.ops.GradOps.mul;
import static dev.msjvm.engine.ops.GradOps.scalar;
import static dev.msjvm.engine.ops.GradOps.square;
import static dev.msjvm.engine.ops.GradOps.zeros;

import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.tensor.ElementaryFunctions;
import dev.msjvm.engine.tensor.Pointwise;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The one-input elementwise operators declared as a table of scalar functions (MindSpore's
 * elementary_function_info.cc and activation_info.cc operators its parallel tests build): Tan,
 * Sinh, Cosh, Atan, Atanh, Asin, ACos, Asinh, Acosh, Erfinv, Rint, Inv, the Bessel functions
 * BesselI0(e), BesselI1(e), BesselJ0, BesselJ1, Mish, SeLU, HSigmoid, HShrink ({@code lambd}),
 * SoftShrink ({@code lambd}), Elu ({@code alpha}), FastGeLU, SiLU.
 *
 * <p>Each row gives the types MindSpore 2.10's CPU kernels take (measured) with the refusal for the
 * others ({@link AcceptedTypes}), the double (and, where integers are taken, the integer) kernel,
 * and the gradient composed of registered operators as MindSpore's bprop writes it, quirks
 * included: SeLU's gradient below zero is {@code scale (out + 1)}, BesselI1's at zero is 1. The
 * output has the input's type and shape; sharding: pointwise.
 */
final class ElementaryOps {
  private ElementaryOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  /** A float kernel: {@code x} (already of type {@code t}) to the exact result, in double. */
  @FunctionalInterface
  private interface UnaryFn {
    double apply(double x, Attrs a, DType t);
  }

  @FunctionalInterface
  private interface IntUnaryFn {
    long apply(long x, DType t);
  }

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    AcceptedTypes floats = AcceptedTypes.kernel(FLOATS);
    // dout (1 + out^2)
    unary(
        defs,
        "Tan",
        floats,
        (x, a, t) -> Math.tan(x),
        null,
        g -> one(mul(g, g.dout(0), scalar(g, "Add", square(g, g.out(0)), 1.0))));
    unary(
        defs,
        "Sinh",
        floats,
        (x, a, t) -> Math.sinh(x),
        null,
        g -> one(mul(g, g.op("Cosh", NONE, g.in(0)), g.dout(0))));
    unary(
        defs,
        "Cosh",
        floats,
        (x, a, t) -> Math.cosh(x),
        null,
        g -> one(mul(g, g.op("Sinh", NONE, g.in(0)), g.dout(0))));
    unary(
        defs,
        "Atan",
        floats,
        (x, a, t) -> Math.atan(x),
        null,
        g -> one(div(g, g.dout(0), scalar(g, "Add", square(g, g.in(0)), 1.0, true))));
    unary(
        defs,
        "Atanh",
        floats,
        (x, a, t) -> ElementaryFunctions.atanh(x),
        null,
        g -> one(div(g, g.dout(0), scalar(g, "Sub", square(g, g.in(0)), 1.0, true))));
    // AsinGrad: dout / sqrt(1 - x^2); ACosGrad its negation
    unary(
        defs,
        "Asin",
        floats,
        (x, a, t) -> Math.asin(x),
        null,
        g -> one(mul(g, g.dout(0), oneMinusSquareRsqrt(g, g.in(0)))));
    unary(
        defs,
        "ACos",
        floats,
        (x, a, t) -> Math.acos(x),
        null,
        g -> one(g.op("Neg", NONE, mul(g, g.dout(0), oneMinusSquareRsqrt(g, g.in(0))))));
    // AsinhGrad: dout / cosh(out); AcoshGrad: dout / sinh(out)
    unary(
        defs,
        "Asinh",
        floats,
        (x, a, t) -> ElementaryFunctions.asinh(x),
        null,
        g -> one(div(g, g.dout(0), g.op("Cosh", NONE, g.out(0)))));
    unary(
        defs,
        "Acosh",
        floats,
        (x, a, t) -> ElementaryFunctions.acosh(x),
        null,
        g -> one(div(g, g.dout(0), g.op("Sinh", NONE, g.out(0)))));
    // sqrt(pi)/2 exp(out^2) dout
    unary(
        defs,
        "Erfinv",
        floats,
        (x, a, t) -> ElementaryFunctions.erfinv(x),
        null,
        g ->
            one(
                mul(
                    g,
                    scalar(
                        g, "Mul", g.op("Exp", NONE, square(g, g.out(0))), Math.sqrt(Math.PI) / 2),
                    g.dout(0))));
    // MindSpore defines no bprop for Rint.
    unary(
        defs,
        "Rint",
        new AcceptedTypes(FLOATS, "x", FLOAT3),
        (x, a, t) -> Math.rint(x),
        null,
        GradRule.UNDEFINED);
    // InvGrad: -dout out^2. Integers: 1 / x truncated (a zero divisor as x86 converts inf).
    unary(
        defs,
        "Inv",
        AcceptedTypes.kernel(union(FLOATS, DType.INT16, DType.INT32, DType.INT64)),
        (x, a, t) -> 1 / x,
        (x, t) -> x == 0 ? ElementaryFunctions.castX86(Double.POSITIVE_INFINITY, t) : 1 / x,
        g -> one(g.op("Neg", NONE, mul(g, g.dout(0), square(g, g.out(0))))));
    AcceptedTypes bessel = new AcceptedTypes(FLOATS, "x", FLOAT3);
    unary(
        defs,
        "BesselI0e",
        new AcceptedTypes(FLOATS, "input_x", FLOAT3),
        (x, a, t) -> ElementaryFunctions.besselI0e(x),
        null,
        g -> {
          Tensor t = g.op("Sub", NONE, g.op("BesselI1e", NONE, g.in(0)), signTimesOut(g));
          return one(mul(g, g.dout(0), t));
        });
    unary(
        defs,
        "BesselI1e",
        floats,
        (x, a, t) -> ElementaryFunctions.besselI1e(x),
        null,
        ElementaryOps::besselI1eGrad);
    unary(
        defs,
        "BesselI0",
        bessel,
        (x, a, t) -> ElementaryFunctions.besselI0(x),
        null,
        g -> one(mul(g, g.dout(0), g.op("BesselI1", NONE, g.in(0)))));
    unary(
        defs,
        "BesselI1",
        bessel,
        (x, a, t) -> ElementaryFunctions.besselI1(x),
        null,
        g -> besselOrder1Grad(g, "BesselI0", 1.0));
    unary(
        defs,
        "BesselJ0",
        bessel,
        (x, a, t) -> ElementaryFunctions.besselJ0(x),
        null,
        g -> one(g.op("Neg", NONE, mul(g, g.dout(0), g.op("BesselJ1", NONE, g.in(0))))));
    unary(
        defs,
        "BesselJ1",
        bessel,
        (x, a, t) -> ElementaryFunctions.besselJ1(x),
        null,
        g -> besselOrder1Grad(g, "BesselJ0", 0.5));
    unary(
        defs,
        "Mish",
        new AcceptedTypes(FLOATS, "input_x", FLOAT3),
        (x, a, t) -> ElementaryFunctions.mish(x),
        null,
        ElementaryOps::mishGrad);
    unary(
        defs,
        "SeLU",
        new AcceptedTypes(
            union(FLOATS, DType.INT8, DType.INT32),
            "input_x",
            "Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int32], Tensor[Int8]"),
        (x, a, t) -> ElementaryFunctions.selu(x),
        (x, t) -> ElementaryFunctions.seluInteger(x),
        g ->
            one(scalar(g, "Mul", eluGrad(g, g.dout(0), g.out(0)), ElementaryFunctions.SELU_SCALE)));
    unary(
        defs,
        "HSigmoid",
        new AcceptedTypes(
            union(FLOATS, DType.INT8, DType.INT16, DType.INT32, DType.INT64),
            "input_x",
            "BFloat16, Float16, Float32, Float64, Int16, Int32, Int64, Int8"),
        (x, a, t) -> ElementaryFunctions.hsigmoid(x),
        (x, t) -> Math.min(Math.max(x + 3, 0), 6) / 6,
        g -> {
          // HSigmoidGrad: dout / 6 where -3 < x < 3
          Tensor inside = inRange(g, g.in(0), 3.0);
          return one(mul(g, scalar(g, "RealDiv", g.dout(0), 6.0), inside));
        });
    AcceptedTypes shrink =
        new AcceptedTypes(
            EnumSet.of(DType.FLOAT16, DType.FLOAT32, DType.BFLOAT16),
            "input_x",
            "BFloat16, Float16, Float32");
    unary(
        defs,
        "HShrink",
        shrink,
        (x, a, t) -> Math.abs(x) > lambd(a, t) ? x : 0.0,
        null,
        g -> one(mul(g, g.dout(0), outside(g, g.in(0), lambd(g.attrs(), g.in(0).dtype())))));
    unary(
        defs,
        "SoftShrink",
        shrink,
        (x, a, t) -> {
          double l = lambd(a, t);
          return x > l ? x - l : x < -l ? x + l : 0.0;
        },
        null,
        g -> one(mul(g, g.dout(0), outside(g, g.in(0), lambd(g.attrs(), g.in(0).dtype())))));
    unary(
        defs,
        "Elu",
        floats,
        (x, a, t) -> x > 0 ? x : a.real("alpha") * Math.expm1(x),
        null,
        g -> one(eluGrad(g, g.dout(0), g.out(0))));
    // FastGeLU: x sigmoid(1.702 x); SiLU: x sigmoid(x)
    sigmoidGated(
        defs,
        "FastGeLU",
        1.702,
        AcceptedTypes.refusing(
            EnumSet.of(DType.FLOAT16, DType.FLOAT32),
            "For 'FastGeLU', input[0] type should be float16 or float32. but got "));
    sigmoidGated(
        defs,
        "SiLU",
        1.0,
        new AcceptedTypes(
            EnumSet.of(DType.FLOAT16, DType.FLOAT32, DType.FLOAT64),
            "input",
            "Tensor[BFloat16], Tensor[Float16], Tensor[Float32], Tensor[Float64]"));
    return defs;
  }

  /** {@code x sigmoid(k x)}; its gradient dout (s + k x s (1 - s)), s that sigmoid. */
  private static void sigmoidGated(List<OpDef> defs, String name, double k, AcceptedTypes types) {
    unary(
        defs,
        name,
        types,
        (x, a, t) -> x / (1 + Math.exp(-k * x)),
        null,
        g -> {
          Tensor x = g.in(0);
          Tensor kx = k == 1.0 ? x : scalar(g, "Mul", x, k);
          Tensor s = g.op("Sigmoid", NONE, kx);
          Tensor slope = mul(g, kx, mul(g, s, scalar(g, "Sub", s, 1.0, true)));
          return one(mul(g, g.dout(0), g.op("Add", NONE, s, slope)));
        });
  }

  // ---- one-input operators -------------------------------------------------------------------

  private static void unary(
      List<OpDef> defs, String name, AcceptedTypes types, UnaryFn f, IntUnaryFn g, GradRule grad) {
    defs.add(
        OpDef.of(
                name,
                c -> {
                  Tensor x = c.in(0);
                  types.check(name, x.dtype());
                  Attrs a = c.attrs();
                  DType t = x.dtype();
                  return one(
                      Pointwise.map(
                          x, t, v -> f.apply(v, a, t), g == null ? null : v -> g.apply(v, t)));
                },
                grad)
            .infers(
                Infer.one(
                    (a, in) -> {
                      types.check(name, in.get(0).dtype());
                      return in.get(0);
                    }))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()));
  }

  /** HShrink's and SoftShrink's threshold in the input's type (the kernels compare in it). */
  private static double lambd(Attrs a, DType t) {
    return ElementaryFunctions.roundTo(a.real("lambd"), t);
  }

  /** {@code 1 / sqrt(1 - x^2)}. */
  private static Tensor oneMinusSquareRsqrt(GradRule.Call g, Tensor x) {
    return g.op("Rsqrt", NONE, scalar(g, "Sub", square(g, x), 1.0, true));
  }

  /** {@code sign(x) * out}. */
  private static Tensor signTimesOut(GradRule.Call g) {
    return mul(g, g.op("Sign", NONE, g.in(0)), g.out(0));
  }

  /**
   * BesselI1e's bprop: {@code I0e(x) - out (sign(x) + 1/x)} where {@code |x| > eps}, 0.5 at zero (x
   * replaced by eps there so the division stays finite).
   */
  private static Tensor[] besselI1eGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    double eps = Math.ulp(1.0f);
    if (x.dtype() == DType.FLOAT64) {
      eps = Math.ulp(1.0);
    } else if (x.dtype() == DType.FLOAT16) {
      eps = 0x1p-10;
    }
    Tensor valid =
        g.op(
            "ScalarOp",
            Attrs.of("op", "Greater", "scalar", eps, "left", false),
            g.op("Abs", NONE, x));
    Tensor safe = g.op("Select", NONE, valid, x, scalar(g, "Add", zeros(g, x), eps));
    Tensor t =
        g.op(
            "Sub",
            NONE,
            g.op("BesselI0e", NONE, safe),
            mul(
                g,
                g.out(0),
                g.op("Add", NONE, g.op("Sign", NONE, safe), g.op("Reciprocal", NONE, safe))));
    Tensor d = g.op("Select", NONE, valid, t, scalar(g, "Add", zeros(g, x), 0.5));
    return one(mul(g, d, g.dout(0)));
  }

  /**
   * BesselI1's and BesselJ1's bprops: {@code order0(x) - out / x}, {@code atZero} where x is 0
   * (MindSpore's: 1 for I1, 0.5 for J1).
   */
  private static Tensor[] besselOrder1Grad(GradRule.Call g, String order0, double atZero) {
    Tensor x = g.in(0);
    Tensor zero = g.op("ScalarOp", Attrs.of("op", "Equal", "scalar", 0.0, "left", false), x);
    Tensor t = g.op("Sub", NONE, g.op(order0, NONE, x), div(g, g.out(0), x));
    Tensor d = g.op("Select", NONE, zero, scalar(g, "Add", zeros(g, x), atZero), t);
    return one(mul(g, g.dout(0), d));
  }

  /**
   * Mish's bprop: {@code t dout + SoftplusGrad(TanhGrad(t, x dout), x)} with {@code t =
   * tanh(softplus(x))}: {@code dout (t + x (1 - t^2) sigmoid(x))}.
   */
  private static Tensor[] mishGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor softplus = g.op("Log1p", NONE, g.op("Exp", NONE, x));
    Tensor t = g.op("Tanh", NONE, softplus);
    Tensor inner = g.op("TanhGrad", NONE, t, mul(g, x, g.dout(0)));
    Tensor dx2 = mul(g, inner, g.op("Sigmoid", NONE, x));
    return one(g.op("Add", NONE, mul(g, t, g.dout(0)), dx2));
  }

  /** EluGrad (alpha 1): {@code dout (out + 1)} where {@code out < 0}, dout elsewhere. */
  private static Tensor eluGrad(GradRule.Call g, Tensor dout, Tensor out) {
    Tensor negative = g.op("ScalarOp", Attrs.of("op", "Less", "scalar", 0.0, "left", false), out);
    return g.op("Select", NONE, negative, mul(g, dout, scalar(g, "Add", out, 1.0)), dout);
  }

  /** 1 where {@code -r < x < r}, else 0, in x's type. */
  private static Tensor inRange(GradRule.Call g, Tensor x, double r) {
    Tensor above = g.op("ScalarOp", Attrs.of("op", "Greater", "scalar", -r, "left", false), x);
    Tensor below = g.op("ScalarOp", Attrs.of("op", "Less", "scalar", r, "left", false), x);
    Attrs cast = Attrs.of("dtype", x.dtype().name());
    return mul(g, g.op("Cast", cast, above), g.op("Cast", cast, below));
  }

  /** 1 where {@code |x| > l}, else 0, in x's type. */
  private static Tensor outside(GradRule.Call g, Tensor x, double l) {
    Tensor big =
        g.op(
            "ScalarOp",
            Attrs.of("op", "Greater", "scalar", l, "left", false),
            g.op("Abs", NONE, x));
    return g.op("Cast", Attrs.of("dtype", x.dtype().name()), big);
  }
}
