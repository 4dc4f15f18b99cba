package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.tensor.Elementwise;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Elementwise operators: the binary ones with broadcasting and MindSpore's type promotion, their
 * forms with a Python scalar ({@code ScalarOp}: attributes {@code op}, {@code scalar}, {@code
 * left}), and the unary ones. Gradients sum back over broadcast dimensions.
 */
final class ElementwiseOps {
  private ElementwiseOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    for (String name :
        List.of(
            "Add",
            "AddExt",
            "Sub",
            "SubExt",
            "Mul",
            "Div",
            "RealDiv",
            "Maximum",
            "Minimum",
            "Pow",
            "FloorDiv",
            "FloorMod",
            "Igamma",
            "Igammac",
            "IgammaGradA",
            "Zeta",
            "Gcd",
            "Lcm",
            "Equal",
            "NotEqual",
            "Less",
            "LessEqual",
            "Greater",
            "GreaterEqual")) {
      defs.add(
          OpDef.of(name, c -> one(Elementwise.binary(name, c.in(0), c.in(1))), binaryGrad(name))
              .infers(Infer.one((a, in) -> Elementwise.binaryType(name, in.get(0), in.get(1))))
              .role(CostRole.ELEMENTWISE)
              .shards(ElementwiseRules.arithmetic()));
    }
    defs.add(
        OpDef.of(
                "ScalarOp",
                c ->
                    one(
                        Elementwise.binaryScalar(
                            Elementwise.Binary.of(c.attrs().string("op")),
                            c.in(0),
                            c.attrs().get("scalar"),
                            c.attrs().bool("left"))),
                ElementwiseOps::scalarGrad)
            .infers(
                Infer.one(
                    (a, in) ->
                        Elementwise.binaryScalarType(
                            Elementwise.Binary.of(a.string("op")), in.get(0), a.get("scalar"))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()));
    for (Elementwise.Unary u : Elementwise.Unary.values()) {
      defs.add(
          OpDef.of(u.primitive(), c -> one(Elementwise.unary(u, c.in(0))), unaryGrad(u))
              .infers(Infer.one((a, in) -> Elementwise.unaryType(u, in.get(0))))
              .role(CostRole.ELEMENTWISE)
              .shards(ElementwiseRules.pointwise()));
    }
    // AddN: the sum of its inputs (same shape and type, MindSpore's checks), folded in input
    // order; every input gets the output's gradient.
    defs.add(
        OpDef.of(
                "AddN",
                c -> {
                  List<AbstractTensor> types = new ArrayList<>();
                  for (int i = 0; i < c.arity(); i++) {
                    types.add(c.in(i).type());
                  }
                  addNType(types);
                  Tensor sum = c.in(0);
                  for (int i = 1; i < c.arity(); i++) {
                    sum = Elementwise.binary("Add", sum, c.in(i));
                  }
                  return one(c.arity() == 1 ? sum.copy() : sum);
                },
                g -> {
                  Tensor[] grads = new Tensor[g.arity()];
                  java.util.Arrays.fill(grads, g.dout(0));
                  return grads;
                })
            .infers(Infer.one((a, in) -> addNType(in)))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
    // LogicalNot: true where the input is false (zero for numbers), as MindSpore's CPU kernel.
    defs.add(
        OpDef.of(
                "LogicalNot",
                c ->
                    one(
                        Tensor.ofDoubles(
                            DType.BOOL, c.in(0).shape(), i -> c.in(0).getDouble(i) == 0 ? 1 : 0)),
                GradRule.NONE)
            .infers(Infer.one((a, in) -> in.get(0).withDtype(DType.BOOL)))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()));
    // Real, Imag: the parts of a complex tensor as float32 (complex64) or float64 (complex128); of
    // a real tensor, the tensor itself and zeros. Complex: a complex tensor from two float ones.
    // Gradients through complex numbers are not supported yet.
    for (boolean realPart : new boolean[] {true, false}) {
      String name = realPart ? "Real" : "Imag";
      defs.add(
          OpDef.of(
                  name,
                  c -> {
                    Tensor x = c.in(0);
                    if (!x.dtype().isComplex()) {
                      return one(realPart ? x : Tensor.zeros(x.dtype(), x.shape()));
                    }
                    DType part = partType(x.dtype());
                    return one(
                        Tensor.ofDoubles(part, x.shape(), i -> realPart ? x.real(i) : x.imag(i)));
                  },
                  GradRule.UNDEFINED)
              .infers(Infer.one((a, in) -> in.get(0).withDtype(partType(in.get(0).dtype()))))
              .role(CostRole.ELEMENTWISE)
              .shards(ElementwiseRules.pointwise()));
    }
    defs.add(
        OpDef.of(
                "Complex",
                c -> {
                  AbstractTensor t = complexType(c.in(0).type(), c.in(1).type());
                  return one(Elementwise.complex(c.in(0), c.in(1), t));
                },
                GradRule.UNDEFINED)
            .infers(Infer.one((a, in) -> complexType(in.get(0), in.get(1))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
    return defs;
  }

  /** The real type of a complex type's parts; a real type stays itself. */
  private static DType partType(DType t) {
    return switch (t) {
      case COMPLEX64 -> DType.FLOAT32;
      case COMPLEX128 -> DType.FLOAT64;
      default -> t;
    };
  }

  /**
   * Complex's output: complex64 from float32 parts, complex128 from float64 (MindSpore's checks).
   */
  private static AbstractTensor complexType(AbstractTensor re, AbstractTensor im) {
    if (re.dtype() != im.dtype() || (re.dtype() != DType.FLOAT32 && re.dtype() != DType.FLOAT64)) {
      throw MsException.typeError(
          "For 'Complex', the 'real' and 'imag' must be both float32 or both float64, but got "
              + re.dtype()
              + " and "
              + im.dtype()
              + ".");
    }
    dev.msjvm.engine.ir.Shape out =
        dev.msjvm.engine.ir.Shape.broadcast("Complex", "real", "imag", re.shape(), im.shape());
    return new AbstractTensor(
        out, re.dtype() == DType.FLOAT32 ? DType.COMPLEX64 : DType.COMPLEX128);
  }

  static Tensor[] one(Tensor t) {
    return new Tensor[] {t};
  }

  /** AddN's output type: its inputs', which must agree (MindSpore 2.10's texts). */
  private static AbstractTensor addNType(List<AbstractTensor> in) {
    AbstractTensor first = in.get(0);
    for (int i = 1; i < in.size(); i++) {
      if (!in.get(i).shape().equals(first.shape())) {
        throw MsException.valueError(
            "For 'AddN', input shape must be same, but got shape of input["
                + i
                + "]: "
                + tuple(in.get(i).shape())
                + ", shape of input[0]: "
                + tuple(first.shape())
                + ".");
      }
      if (in.get(i).dtype() != first.dtype()) {
        throw MsException.typeError("For primitive[AddN], the input type must be same.");
      }
    }
    return first;
  }

  /** A shape as Python prints a tuple: {@code (2, 3)}, {@code (2,)}. */
  static String tuple(dev.msjvm.engine.ir.Shape s) {
    List<Integer> d = s.dims();
    if (d.size() == 1) {
      return "(" + d.get(0) + ",)";
    }
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < d.size(); i++) {
      b.append(i == 0 ? "" : ", ").append(d.get(i));
    }
    return b.append(")").toString();
  }

  /**
   * Maximum's and Minimum's share of the gradient for x, in {@code like}'s type: 1 where x wins
   * ({@code wins}), 1/2 on a tie ({@code ties}), 0 elsewhere (MindSpore 2.10's MaximumGrad).
   */
  private static Tensor tieShare(GradRule.Call g, Tensor like, Tensor wins, Tensor ties) {
    Attrs cast = Attrs.of("dtype", like.dtype().name());
    return g.op(
        "Add",
        NONE,
        g.op("Cast", cast, wins),
        scalar(g, "Mul", g.op("Cast", cast, ties), 0.5, false));
  }

  private static Tensor scalar(GradRule.Call g, String op, Tensor x, double s, boolean left) {
    return g.op("ScalarOp", Attrs.of("op", op, "scalar", s, "left", left), x);
  }

  private static GradRule binaryGrad(String name) {
    return switch (name) {
      case "Add", "AddExt" ->
          g ->
              new Tensor[] {
                g.needs(0) ? g.sumTo(g.dout(0), g.in(0).shape()) : null,
                g.needs(1) ? g.sumTo(g.dout(0), g.in(1).shape()) : null
              };
      case "Sub", "SubExt" ->
          g ->
              new Tensor[] {
                g.needs(0) ? g.sumTo(g.dout(0), g.in(0).shape()) : null,
                g.needs(1) ? g.sumTo(g.op("Neg", NONE, g.dout(0)), g.in(1).shape()) : null
              };
      case "Mul" ->
          g ->
              new Tensor[] {
                g.needs(0) ? g.sumTo(g.op("Mul", NONE, g.dout(0), g.in(1)), g.in(0).shape()) : null,
                g.needs(1) ? g.sumTo(g.op("Mul", NONE, g.dout(0), g.in(0)), g.in(1).shape()) : null
              };
      case "Div", "RealDiv" ->
          g -> {
            Tensor dx = g.op("Div", NONE, g.dout(0), g.in(1));
            Tensor dy = g.needs(1) ? g.op("Neg", NONE, g.op("Mul", NONE, dx, g.out(0))) : null;
            return new Tensor[] {
              g.needs(0) ? g.sumTo(dx, g.in(0).shape()) : null,
              dy == null ? null : g.sumTo(dy, g.in(1).shape())
            };
          };
      case "Maximum", "Minimum" ->
          g -> {
            // MindSpore 2.10's MaximumGrad/MinimumGrad split a tie: x gets 1 where it wins, 1/2
            // where x == y (measured with ms.grad), y the rest.
            String cmp = name.equals("Maximum") ? "Greater" : "Less";
            Tensor maskX =
                tieShare(
                    g,
                    g.dout(0),
                    g.op(cmp, NONE, g.in(0), g.in(1)),
                    g.op("Equal", NONE, g.in(0), g.in(1)));
            Tensor dx = g.op("Mul", NONE, g.dout(0), maskX);
            Tensor dy = g.op("Sub", NONE, g.dout(0), dx);
            return new Tensor[] {g.sumTo(dx, g.in(0).shape()), g.sumTo(dy, g.in(1).shape())};
          };
      // dP/da is IgammaGradA; dP/dx = x^(a-1) e^-x / Gamma(a). Igammac = 1 - Igamma.
      case "Igamma", "Igammac" ->
          g -> {
            Tensor a = g.in(0);
            Tensor x = g.in(1);
            double sign = name.equals("Igamma") ? 1 : -1;
            Tensor da =
                g.needs(0)
                    ? g.sumTo(
                        scalar(
                            g,
                            "Mul",
                            g.op("Mul", NONE, g.dout(0), g.op("IgammaGradA", NONE, a, x)),
                            sign,
                            false),
                        a.shape())
                    : null;
            Tensor dx = null;
            if (g.needs(1)) {
              Tensor logDensity =
                  g.op(
                      "Sub",
                      NONE,
                      g.op(
                          "Sub",
                          NONE,
                          g.op("Mul", NONE, scalar(g, "Sub", a, 1.0, false), g.op("Log", NONE, x)),
                          x),
                      g.op("Lgamma", NONE, a));
              dx =
                  g.sumTo(
                      scalar(
                          g,
                          "Mul",
                          g.op("Mul", NONE, g.dout(0), g.op("Exp", NONE, logDensity)),
                          sign,
                          false),
                      x.shape());
            }
            return new Tensor[] {da, dx};
          };
      // MindSpore's Zeta bprop: dq = -x zeta(x + 1, q) dout; x gets none.
      case "Zeta" ->
          g -> {
            Tensor x = g.in(0);
            Tensor dq = null;
            if (g.needs(1)) {
              Tensor next = g.op("Zeta", NONE, scalar(g, "Add", x, 1.0, false), g.in(1));
              dq =
                  g.sumTo(
                      g.op("Neg", NONE, g.op("Mul", NONE, g.dout(0), g.op("Mul", NONE, x, next))),
                      g.in(1).shape());
            }
            return new Tensor[] {null, dq};
          };
      case "IgammaGradA" -> GradRule.UNDEFINED;
      case "Gcd", "Lcm" -> GradRule.NONE;
      case "Pow" ->
          g -> {
            Tensor x = g.in(0);
            Tensor y = g.in(1);
            Tensor dx = null;
            if (g.needs(0)) {
              Tensor ym1 = scalar(g, "Sub", y, 1.0, false);
              dx = g.op("Mul", NONE, g.dout(0), g.op("Mul", NONE, y, g.op("Pow", NONE, x, ym1)));
              dx = g.sumTo(dx, x.shape());
            }
            Tensor dy = null;
            if (g.needs(1)) {
              dy = g.op("Mul", NONE, g.dout(0), g.op("Mul", NONE, g.out(0), g.op("Log", NONE, x)));
              dy = g.sumTo(dy, y.shape());
            }
            return new Tensor[] {dx, dy};
          };
      default -> GradRule.NONE;
    };
  }

  private static Tensor[] scalarGrad(GradRule.Call g) {
    String op = Elementwise.Binary.of(g.attrs().string("op")).primitive();
    double s = ((Number) g.attrs().get("scalar")).doubleValue();
    boolean left = g.attrs().bool("left");
    Tensor d = g.dout(0);
    Tensor x = g.in(0);
    Tensor dx =
        switch (op) {
          case "Add" -> d;
          case "Sub" -> left ? g.op("Neg", NONE, d) : d;
          case "Mul" -> scalar(g, "Mul", d, s, false);
          case "RealDiv" ->
              left
                  // d(s / x) = -s / x^2 = -out / x
                  ? g.op("Neg", NONE, g.op("Div", NONE, g.op("Mul", NONE, d, g.out(0)), x))
                  : scalar(g, "RealDiv", d, s, false);
          case "Pow" ->
              left
                  // d(s^x) = s^x * ln s
                  ? scalar(g, "Mul", g.op("Mul", NONE, d, g.out(0)), Math.log(s), false)
                  // d(x^s) = s * x^(s-1)
                  : g.op(
                      "Mul",
                      NONE,
                      d,
                      scalar(g, "Mul", scalar(g, "Pow", x, s - 1, false), s, false));
          case "Maximum", "Minimum" -> {
            // x gets 1 where it wins over the scalar, 1/2 on a tie (as the tensor form)
            String cmp = op.equals("Maximum") ? "Greater" : "Less";
            Tensor wins = g.op("ScalarOp", Attrs.of("op", cmp, "scalar", s, "left", false), x);
            Tensor ties = g.op("ScalarOp", Attrs.of("op", "Equal", "scalar", s, "left", false), x);
            yield g.op("Mul", NONE, d, tieShare(g, d, wins, ties));
          }
          default -> null;
        };
    return new Tensor[] {dx};
  }

  private static GradRule unaryGrad(Elementwise.Unary u) {
    return switch (u) {
      case NEG -> g -> one(g.op("Neg", NONE, g.dout(0)));
      case ABS ->
          g -> {
            Tensor pos =
                g.op("ScalarOp", Attrs.of("op", "Greater", "scalar", 0.0, "left", false), g.in(0));
            Tensor neg =
                g.op("ScalarOp", Attrs.of("op", "Less", "scalar", 0.0, "left", false), g.in(0));
            Attrs cast = Attrs.of("dtype", g.dout(0).dtype().name());
            Tensor sign = g.op("Sub", NONE, g.op("Cast", cast, pos), g.op("Cast", cast, neg));
            return one(g.op("Mul", NONE, g.dout(0), sign));
          };
      case EXP -> g -> one(g.op("Mul", NONE, g.dout(0), g.out(0)));
      case LOG -> g -> one(g.op("Div", NONE, g.dout(0), g.in(0)));
      case SQRT -> g -> one(scalar(g, "Mul", g.op("Div", NONE, g.dout(0), g.out(0)), 0.5, false));
      case SQUARE -> g -> one(g.op("Mul", NONE, g.dout(0), scalar(g, "Mul", g.in(0), 2.0, false)));
      case RELU -> g -> one(g.op("ReluGrad", NONE, g.dout(0), g.out(0)));
      case SIGMOID -> g -> one(g.op("SigmoidGrad", NONE, g.out(0), g.dout(0)));
      case TANH -> g -> one(g.op("TanhGrad", NONE, g.out(0), g.dout(0)));
      // d erf(x)/dx = 2/sqrt(pi) exp(-x^2); erfc's is its negation
      case ERF, ERFC ->
          g -> {
            Tensor bell = g.op("Exp", NONE, g.op("Neg", NONE, g.op("Square", NONE, g.in(0))));
            double k = (u == Elementwise.Unary.ERF ? 2 : -2) / Math.sqrt(Math.PI);
            return one(g.op("Mul", NONE, g.dout(0), scalar(g, "Mul", bell, k, false)));
          };
      // Piecewise constant: zero gradient (MindSpore's bprops return zeros_like(x)).
      case FLOOR, CEIL, ROUND, TRUNC, SIGN -> g -> one(g.op("ZerosLike", NONE, g.in(0)));
      case LOG1P -> g -> one(g.op("Div", NONE, g.dout(0), scalar(g, "Add", g.in(0), 1.0, false)));
      case EXPM1 -> g -> one(g.op("Mul", NONE, g.dout(0), scalar(g, "Add", g.out(0), 1.0, false)));
      case SIN -> g -> one(g.op("Mul", NONE, g.dout(0), g.op("Cos", NONE, g.in(0))));
      case COS ->
          g -> one(g.op("Neg", NONE, g.op("Mul", NONE, g.dout(0), g.op("Sin", NONE, g.in(0)))));
      // d(1/x) = -out^2; d(x^-1/2) = -out^3 / 2
      case RECIPROCAL ->
          g -> one(g.op("Neg", NONE, g.op("Mul", NONE, g.dout(0), g.op("Square", NONE, g.out(0)))));
      case RSQRT ->
          g -> {
            Tensor cube = g.op("Mul", NONE, g.op("Square", NONE, g.out(0)), g.out(0));
            return one(scalar(g, "Mul", g.op("Mul", NONE, g.dout(0), cube), -0.5, false));
          };
      case IS_NAN, IS_INF, IS_FINITE -> GradRule.NONE;
      case LGAMMA -> g -> one(g.op("Mul", NONE, g.dout(0), g.op("Digamma", NONE, g.in(0))));
      // MindSpore differentiates Digamma with Polygamma, which msjvm does not have yet.
      case DIGAMMA -> GradRule.UNDEFINED;
    };
  }
}
