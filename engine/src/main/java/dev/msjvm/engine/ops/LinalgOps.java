package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.parallel.rules.MatrixRules;
import dev.msjvm.engine.tensor.Linalg;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * Batched triangular linear algebra: MatrixTriangularSolve (attributes {@code lower}, {@code
 * adjoint}) and MatrixBandPart (attributes {@code lower}, {@code upper}), which shard over the
 * batch dimensions only (the matrices stay whole); Triu and Tril ({@code diagonal}), which split
 * every dimension, each block's diagonal shifted to its place.
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
        triangle("Tril", false));
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
