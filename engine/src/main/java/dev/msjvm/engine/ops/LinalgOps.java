package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.EinsumSpec;
import dev.msjvm.engine.parallel.rules.MatrixRules;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import dev.msjvm.engine.tensor.Linalg;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * Batched triangular linear algebra: MatrixTriangularSolve (attributes {@code lower}, {@code
 * adjoint}) and MatrixBandPart (attributes {@code lower}, {@code upper}), which shard over the
 * batch dimensions only (the matrices stay whole); Triu and Tril ({@code diagonal}), which split
 * every dimension, each block's diagonal shifted to its place; TraceV2 (the sums of diagonals) and
 * its gradient TraceV2Grad.
 */
final class LinalgOps {
  private LinalgOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  static List<OpDef> defs() {
    return List.of(
        OpDef.of(
                "MatrixTriangularSolve",
                c ->
                    one(
                        Linalg.triangularSolve(
                            c.in(0),
                            c.in(1),
                            c.attrs().bool("lower", true),
                            c.attrs().bool("adjoint", false))),
                LinalgOps::triangularSolveGrad)
            .infers(Infer.one((a, in) -> Linalg.triangularSolveType(in.get(0), in.get(1))))
            .role(CostRole.GENERAL)
            .shards(MatrixRules.batchedSolve()),
        OpDef.of(
                "MatrixBandPart",
                c ->
                    one(
                        Linalg.bandPart(
                            c.in(0), c.attrs().integer("lower"), c.attrs().integer("upper"))),
                g -> one(g.op("MatrixBandPart", g.attrs(), g.dout(0))))
            .infers(Infer.one((a, in) -> Linalg.bandPartType(in.get(0))))
            .role(CostRole.GENERAL)
            .shards(MatrixRules.batchedMatrix()),
        triangle("Triu", true),
        triangle("Tril", false),
        // TraceV2 (attributes offset, axis1, axis2, dtype): the sums of the offset diagonals.
        OpDef.of(
                "TraceV2",
                c ->
                    one(
                        Linalg.traceV2(
                            c.in(0),
                            c.attrs().integer("offset", 0),
                            c.attrs().integer("axis1", 1),
                            c.attrs().integer("axis2", 0),
                            traceType(c.attrs()))),
                g ->
                    one(
                        g.op(
                            "TraceV2Grad",
                            g.attrs()
                                .with("shape", g.in(0).shape().dims())
                                .with("type", g.in(0).dtype().name()),
                            g.dout(0))))
            .infers(
                Infer.one(
                    (a, in) ->
                        Linalg.traceV2Type(
                            in.get(0), a.integer("axis1", 1), a.integer("axis2", 0), traceType(a))))
            .role(CostRole.GENERAL)
            .shards(traceRule(false)),
        OpDef.of(
                "TraceV2Grad",
                c ->
                    one(
                        Linalg.traceV2Grad(
                            c.in(0),
                            c.attrs().ints("shape"),
                            DType.valueOf(c.attrs().string("type")),
                            c.attrs().integer("offset", 0),
                            c.attrs().integer("axis1", 1),
                            c.attrs().integer("axis2", 0))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        new AbstractTensor(
                            new Shape(a.ints("shape")), DType.valueOf(a.string("type")))))
            .role(CostRole.GENERAL)
            .shards(traceRule(true)));
  }

  private static DType traceType(Attrs a) {
    return a.has("dtype") && a.get("dtype") != null ? DType.valueOf(a.string("dtype")) : null;
  }

  /**
   * TraceV2 (MindSpore's TraceV2Info) splits only the dims it keeps; the two traced dims stay
   * whole. Its gradient (from the kept dims to the whole shape) splits the same dims.
   */
  private static ShardingRule traceRule(boolean grad) {
    ShardingRule rule =
        ShardingRule.of(
            (a, shapes) -> {
              List<Integer> whole = grad ? a.ints("shape") : shapes.get(0).dims();
              int r = whole.size();
              int a1 = Math.floorMod(a.integer("axis1", 1), r);
              int a2 = Math.floorMod(a.integer("axis2", 0), r);
              StringBuilder full = new StringBuilder();
              StringBuilder kept = new StringBuilder();
              for (int d = 0; d < r; d++) {
                char c = (char) ('a' + d);
                full.append(d == a1 || d == a2 ? '_' : c);
                if (d != a1 && d != a2) {
                  kept.append(c);
                }
              }
              String form = grad ? kept + "->" + full : full + "->" + kept;
              EinsumSpec spec = EinsumSpec.parse(form);
              return grad ? spec.outputShapes(List.of(new Shape(whole))) : spec;
            });
    return grad ? rule.localizing(ShardingRule.outputShapeAttr("shape")) : rule;
  }

  /** Triu / Tril (attribute {@code diagonal}); the gradient keeps the same triangle of dout. */
  private static OpDef triangle(String name, boolean upper) {
    return OpDef.of(
            name,
            c -> one(Linalg.triangle(c.in(0), c.attrs().integer("diagonal", 0), upper)),
            g -> one(g.op(name, g.attrs(), g.dout(0))))
        .infers(Infer.one((a, in) -> Linalg.triangleType(name, in.get(0))))
        .role(CostRole.ELEMENTWISE)
        .shards(MatrixRules.triangle(upper));
  }

  /**
   * MindSpore's bprop: {@code drhs = solve(A, dout)} with the adjoint flag flipped; {@code dA =
   * -drhs X^T} ({@code -X drhs^T} when adjoint), kept to A's triangle.
   */
  private static Tensor[] triangularSolveGrad(GradRule.Call g) {
    boolean lower = g.attrs().bool("lower", true);
    boolean adjoint = g.attrs().bool("adjoint", false);
    Tensor drhs =
        g.op(
            "MatrixTriangularSolve",
            Attrs.of("lower", lower, "adjoint", !adjoint),
            g.in(0),
            g.dout(0));
    Tensor dmatrix = null;
    if (g.needs(0)) {
      Tensor x = g.out(0);
      Attrs bt = Attrs.of("transpose_a", false, "transpose_b", true);
      Tensor product =
          adjoint ? g.op("BatchMatMul", bt, x, drhs) : g.op("BatchMatMul", bt, drhs, x);
      dmatrix =
          g.op(
              "MatrixBandPart",
              Attrs.of("lower", lower ? -1 : 0, "upper", lower ? 0 : -1),
              g.op("Neg", NONE, product));
    }
    return new Tensor[] {dmatrix, drhs};
  }
}
