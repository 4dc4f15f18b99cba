package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;
import static dev.msjvm.engine.ops.GradOps.mul;

import dev.msjvm.engine.parallel.rules.IndexRules;
import dev.msjvm.engine.tensor.Scatter;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * TensorScatter{Update, Add, Sub, Mul, Div, Max, Min}(input_x, indices, updates) and the in-place
 * ScatterNd{Update, Add, Sub}(input_x Parameter, indices, updates) (MindSpore's
 * scatter_nd_ops_info.cc: the indices whole, the updates' trailing dims split as the input's, the
 * input split along any dim, the indexed ones too: each rank applies the tuples that fall in its
 * block, shifted by the block's start). Gradients are MindSpore's bprops: Update zeroes dout at the
 * tuples and gathers it for the updates; Mul and Div scatter dout by the updates and gather {@code
 * dout x} for them; Max and Min pass dout where the input or the update won. Also GatherD (its
 * gathered dim may split: partial sums) and its gradient GatherDGrad.
 */
final class ScatterOps {
  private ScatterOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  static List<OpDef> defs() {
    List<OpDef> defs = new ArrayList<>();
    for (Scatter.Mode mode : Scatter.Mode.values()) {
      String name = "TensorScatter" + title(mode);
      defs.add(
          OpDef.of(name, c -> one(scatter(name, mode, c)), g -> grad(name, mode, g))
              .infers(Infer.one((a, in) -> Scatter.type(name, in.get(0), in.get(1), in.get(2))))
              .role(CostRole.GENERAL)
              .shards(IndexRules.tensorScatter()));
    }
    for (Scatter.Mode mode : List.of(Scatter.Mode.UPDATE, Scatter.Mode.ADD, Scatter.Mode.SUB)) {
      String name = "ScatterNd" + title(mode);
      defs.add(
          new OpDef(
                  name,
                  c -> {
                    Tensor v = scatter(name, mode, c);
                    c.var(0).set(v);
                    return one(v);
                  },
                  GradRule.NONE,
                  true,
                  List.of(0))
              .infers(Infer.one((a, in) -> Scatter.type(name, in.get(0), in.get(1), in.get(2))))
              .role(CostRole.PASS_THROUGH)
              .shards(IndexRules.tensorScatter())
              .aliases(0));
    }
    // GatherD (attribute dim): out[i] = x[i with i[dim] = index[i]]; its gradient scatters dout
    // back (GatherDGrad, attributes dim and shape: x's).
    defs.add(
        OpDef.of(
                "GatherD",
                c ->
                    one(
                        Scatter.gatherD(
                            c.in(0),
                            c.attrs().integer("dim"),
                            c.in(1),
                            c.attrs().integer("offset", -1),
                            c.attrs().integer("whole", -1))),
                g ->
                    new Tensor[] {
                      g.op(
                          "GatherDGrad",
                          Attrs.of(
                              "dim", g.attrs().integer("dim"), "shape", g.in(0).shape().dims()),
                          g.dout(0),
                          g.in(1)),
                      null
                    })
            .infers(
                Infer.one((a, in) -> Scatter.gatherDType(in.get(0), a.integer("dim"), in.get(1))))
            .role(CostRole.GENERAL)
            .shards(IndexRules.gatherD()));
    defs.add(
        OpDef.of(
                "GatherDGrad",
                c ->
                    one(
                        Scatter.gatherDGrad(
                            c.in(0),
                            c.attrs().integer("dim"),
                            c.in(1),
                            new dev.msjvm.engine.ir.Shape(c.attrs().ints("shape")))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> in.get(0).withShape(new dev.msjvm.engine.ir.Shape(a.ints("shape")))))
            .role(CostRole.GENERAL)
            .shards(IndexRules.gatherDGrad()));
    return defs;
  }

  private static String title(Scatter.Mode mode) {
    String s = mode.name().toLowerCase(Locale.ROOT);
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static Tensor scatter(String name, Scatter.Mode mode, Kernel.Call c) {
    Attrs a = c.attrs();
    return Scatter.scatter(
        name,
        mode,
        c.in(0),
        c.in(1),
        c.in(2),
        a.has("offsets") ? a.ints("offsets") : null,
        a.has("global") ? a.ints("global") : null);
  }

  private static Tensor[] grad(String name, Scatter.Mode mode, GradRule.Call g) {
    Tensor x = g.in(0);
    Tensor idx = g.in(1);
    Tensor up = g.in(2);
    Tensor dout = g.dout(0);
    Tensor gathered = g.op("GatherNd", NONE, dout, idx);
    return switch (mode) {
      case UPDATE ->
          new Tensor[] {g.op(name, NONE, dout, idx, g.op("ZerosLike", NONE, up)), null, gathered};
      case ADD -> new Tensor[] {dout, null, gathered};
      case SUB -> new Tensor[] {dout, null, g.op("Neg", NONE, gathered)};
      case MUL ->
          new Tensor[] {
            g.op(name, NONE, dout, idx, up), null, g.op("GatherNd", NONE, mul(g, dout, x), idx)
          };
      case DIV -> {
        Tensor dx = g.op(name, NONE, dout, idx, up);
        Tensor num = g.op("GatherNd", NONE, mul(g, dout, x), idx);
        Tensor dup = g.op("Neg", NONE, g.op("Div", NONE, num, g.op("Square", NONE, up)));
        yield new Tensor[] {dx, null, dup};
      }
      case MAX, MIN -> {
        Attrs cast = Attrs.of("dtype", x.dtype().name());
        Tensor out = g.out(0);
        Tensor xWon = g.op("Cast", cast, g.op("Equal", NONE, x, out));
        Tensor upWon =
            g.op("Cast", cast, g.op("Equal", NONE, up, g.op("GatherNd", NONE, out, idx)));
        yield new Tensor[] {mul(g, dout, xWon), null, mul(g, gathered, upWon)};
      }
    };
  }
}
