package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.AcceptedTypes.FLOAT3;
import static dev.msjvm.engine.ops.AcceptedTypes.FLOATS;
import static dev.msjvm.engine.ops.ElementwiseOps.one;
import static dev.msjvm.engine.ops.GradOps.mul;
import static dev.msjvm.engine.ops.GradOps.scalar;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.tensor.Elementwise;
import dev.msjvm.engine.tensor.Pointwise;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;

/**
 * Elementwise operators beside the two-input table ({@link ArithmeticOps}): ApproximateEqual
 * ({@code tolerance}: {@code |x1 - x2| < tolerance}, shapes equal), Polar (a complex tensor from
 * magnitudes and angles), MaskedFill (a 0-d value tensor, or attribute {@code value} when the
 * script passed a number, where a bool mask holds) and AddcmulExt ({@code value}: {@code input +
 * value tensor1 tensor2}), with MindSpore 2.10's checks, texts and bprops. Sharding: arithmetic.
 */
final class ArithmeticExtraOps {
  private ArithmeticExtraOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    others(defs);
    return defs;
  }

  private static void others(List<OpDef> defs) {
    // ApproximateEqual (attribute tolerance): |x1 - x2| < tolerance, shapes equal.
    AcceptedTypes floats = new AcceptedTypes(FLOATS, "x1", FLOAT3);
    defs.add(
        OpDef.of(
                "ApproximateEqual",
                c -> {
                  AbstractTensor t = approximateEqualType(c.in(0).type(), c.in(1).type(), floats);
                  double tol = c.attrs().real("tolerance");
                  DType compute = DType.promote(c.in(0).dtype(), c.in(1).dtype());
                  return one(
                      Pointwise.map2(
                          c.in(0),
                          c.in(1),
                          compute,
                          DType.BOOL,
                          t.shape(),
                          (x, y) -> Math.abs(x - y) < tol ? 1 : 0,
                          null));
                },
                GradRule.NONE)
            .infers(Infer.one((a, in) -> approximateEqualType(in.get(0), in.get(1), floats)))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
    // Polar(abs, angle): abs (cos angle + i sin angle).
    defs.add(
        OpDef.of(
                "Polar",
                c -> {
                  AbstractTensor t = polarType(c.in(0).type(), c.in(1).type());
                  Tensor re =
                      Elementwise.binary(
                          "Mul", c.in(0), Elementwise.unary(Elementwise.Unary.COS, c.in(1)));
                  Tensor im =
                      Elementwise.binary(
                          "Mul", c.in(0), Elementwise.unary(Elementwise.Unary.SIN, c.in(1)));
                  return one(Elementwise.complex(re, im, t));
                },
                GradRule.UNDEFINED)
            .infers(Infer.one((a, in) -> polarType(in.get(0), in.get(1))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
    // MaskedFill(input, mask, value): value (a 0-d tensor, cast to input's type) where mask holds.
    defs.add(
        OpDef.of(
                "MaskedFill",
                c -> {
                  AbstractTensor v = c.arity() > 2 ? c.in(2).type() : null;
                  AbstractTensor t = maskedFillType(c.in(0).type(), c.in(1).type(), v);
                  Tensor value =
                      c.arity() > 2
                          ? c.in(2)
                          : Tensor.ofDoubles(
                              c.in(0).dtype(),
                              Shape.scalar(),
                              i -> ((Number) c.attrs().get("value")).doubleValue());
                  return one(Pointwise.fill(c.in(0), c.in(1), value, t.shape()));
                },
                ArithmeticExtraOps::maskedFillGrad)
            .infers(
                Infer.one(
                    (a, in) ->
                        maskedFillType(in.get(0), in.get(1), in.size() > 2 ? in.get(2) : null)))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
    // AddcmulExt (attribute value): input + value * tensor1 * tensor2, broadcast and promoted.
    defs.add(
        OpDef.of(
                "AddcmulExt",
                c -> {
                  Tensor p = Elementwise.binary("Mul", c.in(1), c.in(2));
                  Tensor scaled =
                      Elementwise.binaryScalar(
                          Elementwise.Binary.MUL, p, c.attrs().get("value"), false);
                  return one(Elementwise.binary("Add", c.in(0), scaled));
                },
                g -> {
                  double v = ((Number) g.attrs().get("value")).doubleValue();
                  Tensor d = scalar(g, "Mul", g.dout(0), v);
                  return new Tensor[] {
                    g.needs(0) ? g.sumTo(g.dout(0), g.in(0).shape()) : null,
                    g.needs(1) ? g.sumTo(mul(g, d, g.in(2)), g.in(1).shape()) : null,
                    g.needs(2) ? g.sumTo(mul(g, d, g.in(1)), g.in(2).shape()) : null
                  };
                })
            .infers(
                Infer.one(
                    (a, in) -> {
                      AbstractTensor p = Elementwise.binaryType("Mul", in.get(1), in.get(2));
                      AbstractTensor s =
                          Elementwise.binaryScalarType(Elementwise.Binary.MUL, p, a.get("value"));
                      return Elementwise.binaryType("Add", in.get(0), s);
                    }))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()));
  }

  private static AbstractTensor approximateEqualType(
      AbstractTensor x, AbstractTensor y, AcceptedTypes types) {
    types.check("ApproximateEqual", DType.promote(x.dtype(), y.dtype()));
    if (!x.shape().equals(y.shape())) {
      throw MsException.runtimeError(
          "For 'ApproximateEqual', arg 'x1' must have the same shape as 'x2'. But got 'x1' shape: "
              + paren(x.shape())
              + ", 'x2' shape: "
              + paren(y.shape())
              + ".");
    }
    return x.withDtype(DType.BOOL);
  }

  /** A shape as MindSpore's C++ checks print it: {@code (2, 3)}, {@code (2)}, {@code ()}. */
  static String paren(Shape s) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < s.rank(); i++) {
      b.append(i == 0 ? "" : ", ").append(s.dim(i));
    }
    return b.append(")").toString();
  }

  private static AbstractTensor polarType(AbstractTensor abs, AbstractTensor angle) {
    if (abs.dtype() != angle.dtype()
        || (abs.dtype() != DType.FLOAT32 && abs.dtype() != DType.FLOAT64)) {
      throw MsException.typeError(
          "For 'Polar', the 'abs' and 'angle' must be both float32 or both float64, but got "
              + abs.dtype()
              + " and "
              + angle.dtype()
              + ".");
    }
    Shape s = Shape.broadcast("Polar", "abs", "angle", abs.shape(), angle.shape());
    return new AbstractTensor(s, abs.dtype() == DType.FLOAT32 ? DType.COMPLEX64 : DType.COMPLEX128);
  }

  private static AbstractTensor maskedFillType(
      AbstractTensor x, AbstractTensor mask, AbstractTensor value) {
    if (mask.dtype() != DType.BOOL) {
      throw MsException.typeError(
          "For primitive[MaskedFill], the input argument[mask] must be a type of {Bool}, but got "
              + mask.dtype().mindsporeName()
              + ".");
    }
    if (value != null && value.rank() != 0) {
      throw MsException.valueError(
          "For 'MaskedFill', 'value' only supports a 0-dimensional value tensor or a float"
              + " number, but got tensor with "
              + value.rank()
              + " dimension(s).");
    }
    return x.withShape(Shape.broadcast("MaskedFill", "input", "mask", x.shape(), mask.shape()));
  }

  /** dinput = dout (1 - mask) summed back to input's shape; dvalue = the sum of dout where mask. */
  private static Tensor[] maskedFillGrad(GradRule.Call g) {
    Tensor x = g.in(0);
    Attrs asX = Attrs.of("dtype", g.dout(0).dtype().name());
    Tensor m =
        g.op(
            "Cast", asX, g.op("BroadcastTo", Attrs.of("shape", g.dout(0).shape().dims()), g.in(1)));
    Tensor dx =
        g.needs(0) ? g.sumTo(mul(g, g.dout(0), scalar(g, "Sub", m, 1.0, true)), x.shape()) : null;
    Tensor dv = null;
    if (g.arity() > 2 && g.needs(2)) {
      Tensor s = g.op("ReduceSum", Attrs.of("axis", List.of()), mul(g, g.dout(0), m));
      dv = g.op("Cast", Attrs.of("dtype", g.in(2).dtype().name()), s);
    }
    return g.arity() > 2 ? new Tensor[] {dx, null, dv} : new Tensor[] {dx, null};
  }
}
