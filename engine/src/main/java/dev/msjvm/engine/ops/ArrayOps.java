package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.parallel.rules.ShapeRules;
import dev.msjvm.engine.tensor.Activations;
import dev.msjvm.engine.tensor.ShapeOps;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * Operators that move or retype data: Reshape ({@code shape}), ExpandDims ({@code axis}), Squeeze
 * ({@code axis}: a list, empty for all size-1 dimensions), Transpose ({@code perm}), Flatten, Cast
 * ({@code dtype}: a {@link DType} name), BroadcastTo ({@code shape}), ZerosLike, OnesLike,
 * StopGradient and the variable update Assign.
 */
final class ArrayOps {
  private ArrayOps() {}

  private static Tensor[] reshapeBack(GradRule.Call g) {
    return one(g.op("Reshape", Attrs.of("shape", g.in(0).shape().dims()), g.dout(0)));
  }

  static List<OpDef> defs() {
    return List.of(
        OpDef.of(
                "Reshape",
                c -> one(ShapeOps.reshape(c.in(0), c.attrs().ints("shape"))),
                ArrayOps::reshapeBack)
            .infers(shape((a, x) -> ShapeOps.reshapeShape(x, a.ints("shape"))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.reshape()),
        OpDef.of(
                "ExpandDims",
                c -> one(ShapeOps.expandDims(c.in(0), c.attrs().integer("axis"))),
                ArrayOps::reshapeBack)
            .infers(shape((a, x) -> ShapeOps.expandDimsShape(x, a.integer("axis"))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.expandDims()),
        OpDef.of(
                "Squeeze",
                c -> one(ShapeOps.squeeze(c.in(0), c.attrs().ints("axis"))),
                ArrayOps::reshapeBack)
            .infers(shape((a, x) -> ShapeOps.squeezeShape(x, a.ints("axis"))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.squeeze()),
        OpDef.of("Flatten", c -> one(ShapeOps.flatten(c.in(0))), ArrayOps::reshapeBack)
            .infers(shape((a, x) -> ShapeOps.flattenShape(x)))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.flatten()),
        OpDef.of(
                "Transpose",
                c -> one(ShapeOps.transpose(c.in(0), c.attrs().ints("perm"))),
                g -> {
                  List<Integer> perm = g.attrs().ints("perm");
                  Integer[] inverse = new Integer[perm.size()];
                  for (int i = 0; i < perm.size(); i++) {
                    int p = perm.get(i) < 0 ? perm.get(i) + perm.size() : perm.get(i);
                    inverse[p] = i;
                  }
                  return one(g.op("Transpose", Attrs.of("perm", List.of(inverse)), g.dout(0)));
                })
            .infers(shape((a, x) -> ShapeOps.transposeShape(x, a.ints("perm"))))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.transpose()),
        OpDef.of(
                "Cast",
                c -> {
                  // A cast to the dtype the tensor has is the tensor itself (MindSpore's graph
                  // compiler
                  // removes it); tensors are immutable and a variable's aliases are tracked, so no
                  // copy is needed.
                  DType target = DType.valueOf(c.attrs().string("dtype"));
                  return one(c.in(0).dtype() == target ? c.in(0) : c.in(0).astype(target));
                },
                g ->
                    one(
                        g.in(0).dtype().isFloat()
                            ? g.op("Cast", Attrs.of("dtype", g.in(0).dtype().name()), g.dout(0))
                            : null))
            .infers(Infer.one((a, in) -> in.get(0).withDtype(DType.valueOf(a.string("dtype")))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()),
        OpDef.of(
                "BroadcastTo",
                c -> one(ShapeOps.broadcastTo(c.in(0), new Shape(c.attrs().ints("shape")))),
                g -> one(g.sumTo(g.dout(0), g.in(0).shape())))
            .infers(
                shape(
                    (a, x) -> {
                      Shape to = new Shape(a.ints("shape"));
                      Shape.broadcast("BroadcastTo", x, to);
                      return to;
                    }))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.broadcastTo()),
        OpDef.of("ZerosLike", c -> one(Activations.zerosLike(c.in(0))), GradRule.NONE)
            .infers(Infer.like(0))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()),
        OpDef.of("OnesLike", c -> one(Activations.onesLike(c.in(0))), GradRule.NONE)
            .infers(Infer.like(0))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()),
        OpDef.of("StopGradient", c -> one(c.in(0)), GradRule.NONE)
            .infers(Infer.like(0))
            .role(CostRole.PASS_THROUGH)
            .shards(ElementwiseRules.pointwise())
            .aliases(0),
        // The value unchanged; a strategy on it lays the value out (Cell.shard's inputs).
        OpDef.of("Identity", c -> one(c.in(0)), g -> one(g.dout(0)))
            .infers(Infer.like(0))
            .role(CostRole.PASS_THROUGH)
            .shards(ElementwiseRules.pointwise())
            .aliases(0),
        // The value a variable holds at this point of a traced step (recorded for every read).
        OpDef.of("Load", c -> one(c.in(0)), g -> one(g.dout(0)))
            .infers(Infer.like(0))
            .role(CostRole.PASS_THROUGH)
            .shards(ElementwiseRules.pointwise())
            .aliases(0),
        new OpDef(
                "Assign",
                c -> {
                  Tensor v = c.in(1);
                  Tensor cur = c.in(0);
                  if (v.dtype() != cur.dtype()) {
                    v = v.astype(cur.dtype());
                  }
                  c.var(0).set(v);
                  return one(v);
                },
                GradRule.NONE,
                true)
            // The value written, in the variable's dtype.
            .infers(Infer.one((a, in) -> in.get(1).withDtype(in.get(0).dtype())))
            .role(CostRole.PASS_THROUGH)
            .shards(ElementwiseRules.arithmetic())
            .aliases(0),
        // AssignAdd: the variable (input 0) increased by the value, in the variable's dtype.
        assignWith("AssignAdd", "Add", (var, value) -> {}),
        // AssignSub: decreased by the value, which must have the variable's shape (MindSpore's).
        assignWith("AssignSub", "Sub", ArrayOps::assignSubCheck));
  }

  /** A variable (input 0) updated in place to {@code var op value}, in the variable's dtype. */
  private static OpDef assignWith(
      String name, String op, java.util.function.BiConsumer<AbstractTensor, AbstractTensor> check) {
    return new OpDef(
            name,
            c -> {
              Tensor cur = c.in(0);
              check.accept(cur.type(), c.in(1).type());
              Tensor v = dev.msjvm.engine.tensor.Elementwise.binary(op, cur, c.in(1));
              if (v.dtype() != cur.dtype()) {
                v = v.astype(cur.dtype());
              }
              c.var(0).set(v);
              return one(v);
            },
            GradRule.NONE,
            true,
            List.of(0))
        .infers(
            Infer.one(
                (a, in) -> {
                  check.accept(in.get(0), in.get(1));
                  return in.get(0);
                }))
        .role(CostRole.PASS_THROUGH)
        .shards(ElementwiseRules.arithmetic())
        .aliases(0);
  }

  private static void assignSubCheck(AbstractTensor var, AbstractTensor value) {
    if (!var.shape().equals(value.shape())) {
      throw dev.msjvm.engine.MsException.valueError(
          "For 'AssignSub','value' must have the same shape as 'variable'. But got 'value' shape: "
              + ArithmeticExtraOps.paren(value.shape())
              + ", 'variable' shape: "
              + ArithmeticExtraOps.paren(var.shape())
              + ".");
    }
  }

  /** One output of the input's dtype on the shape {@code f} computes from the attributes. */
  private static Infer shape(java.util.function.BiFunction<Attrs, Shape, Shape> f) {
    return Infer.one((a, in) -> in.get(0).withShape(f.apply(a, in.get(0).shape())));
  }
}
