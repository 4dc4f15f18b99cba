package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.List;

/**
 * Contractions (matmul_info.cc, bias_add_info.cc): MatMul {@code ik,kj->ij}, BatchMatMul with
 * broadcast batch letters, BiasAdd {@code bc..,c->bc..} and its gradient BiasAddGrad {@code
 * bc..->c} (partial SUM over the other dims). The device matrix is MindSpore's {@code [batch..., i,
 * k, j]} whatever the transposes; a split k makes the output partial (AllReduce SUM).
 */
public final class MatrixRules {
  private MatrixRules() {}

  /** MatMul and BatchMatMul (MatMul::CheckInputStrategy's texts). */
  public static ShardingRule matmul() {
    return ShardingRule.of(MatrixRules::matmul).checking(MatrixRules::matmulCheck);
  }

  /**
   * MatrixTriangularSolve {@code ..mn,..nk->..mk}: batch dims split alike on both inputs, the
   * matrices whole (each rank solves its batches).
   */
  public static ShardingRule batchedSolve() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String batch = Letters.run('a', shapes.get(0).rank() - 2);
          return EinsumSpec.parse(batch + "xy," + batch + "yz->" + batch + "xz").unsplit("xyz");
        });
  }

  /** MatrixBandPart {@code ..mn->..mn}: batch dims split, the matrices whole. */
  public static ShardingRule batchedMatrix() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String batch = Letters.run('a', shapes.get(0).rank() - 2);
          return EinsumSpec.parse(batch + "xy->" + batch + "xy").unsplit("xy");
        });
  }

  /**
   * Triu, Tril (TriuInfo, TrilInfo): every dim may split; a rank keeps the triangle of its block
   * with its {@code diagonal} shifted by the block's first row less its first column (MindSpore's
   * GetDiag), so the blocks together hold the whole tensor's triangle.
   */
  public static ShardingRule triangle(boolean upper) {
    return ShardingRule.of((attrs, shapes) -> Letters.broadcast(shapes))
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              List<TensorLayout.SliceRange> r = x.sliceRanges(rank);
              int d = x.rank();
              int shift = r.get(d - 2).begin() - r.get(d - 1).begin();
              int rows = r.get(d - 2).end() - r.get(d - 2).begin();
              int cols = r.get(d - 1).end() - r.get(d - 1).begin();
              // clipped to the block as MindSpore's GetDiag does (the same triangle): Triu to
              // [-rows + 1, cols] (all, none), Tril to [-rows, cols - 1] (none, all)
              int z = attrs.integer("diagonal", 0) + shift;
              z =
                  upper
                      ? Math.max(Math.min(z, cols), -rows + 1)
                      : Math.max(Math.min(z, cols - 1), -rows);
              return attrs.with("diagonal", z);
            });
  }

  /** BiasAdd: the bias takes the channel dim's split. */
  public static ShardingRule biasAdd() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              String x = Letters.run('a', shapes.get(0).rank());
              return EinsumSpec.parse(x + "," + x.charAt(1) + "->" + x);
            })
        .checking(
            (attrs, spec, s, shapes, n) ->
                s.get(0).get(1).equals(s.get(1).get(0)) ? null : "Invalid strategy.");
  }

  /** BiasAddGrad: the channel sums of the other dims, partial where they are split. */
  public static ShardingRule biasAddGrad() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String x = Letters.run('a', shapes.get(0).rank());
          String other = x.substring(0, 1) + x.substring(2);
          return EinsumSpec.parse(x + "->" + x.charAt(1)).reduce(other, PartialOp.SUM);
        });
  }

  /**
   * {@code [batch..]ik,[batch..]kj->[batch..]ij} with transposes swapping the last two letters;
   * batch dims broadcast right-aligned as in elementwise ops.
   */
  static EinsumSpec matmul(Attrs attrs, List<Shape> shapes) {
    boolean ta = attrs.bool("transpose_a", false);
    boolean tb = attrs.bool("transpose_b", false);
    Shape a = shapes.get(0);
    Shape b = shapes.get(1);
    int batch = Math.max(a.rank(), b.rank()) - 2;
    EinsumSpec bs =
        Letters.broadcast(
            List.of(
                Shape.of(java.util.Arrays.copyOf(a.toArray(), a.rank() - 2)),
                Shape.of(java.util.Arrays.copyOf(b.toArray(), b.rank() - 2))));
    String out = bs.outputs().get(0);
    String la = bs.inputs().get(0) + (ta ? "ki" : "ik");
    String lb = bs.inputs().get(1) + (tb ? "jk" : "kj");
    List<String> in = List.of(la, lb);
    String o = out + "ij";
    EinsumSpec spec =
        new EinsumSpec(
                in, in, List.of(o), out + "ikj", "", java.util.Map.of(), (char) 0, null, false)
            .reduce("k", PartialOp.SUM)
            .batch(batch > 0 ? out.charAt(0) : 'i');
    int[] dims = new int[batch + 2];
    System.arraycopy(bs.outputShapes().get(0).toArray(), 0, dims, 0, batch);
    dims[batch] = ta ? a.dim(a.rank() - 1) : a.dim(a.rank() - 2);
    dims[batch + 1] = tb ? b.dim(b.rank() - 2) : b.dim(b.rank() - 1);
    spec = spec.outputShapes(List.of(Shape.of(dims)));
    return batch == 0 ? spec.withReduceScatter() : spec;
  }

  /** MatMul::CheckInputStrategy's texts (matmul_info.cc). */
  private static String matmulCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    List<Integer> a = s.get(0);
    List<Integer> b = s.get(1);
    String la = spec.inputs().get(0);
    String lb = spec.inputs().get(1);
    int ka = a.get(la.indexOf('k'));
    int kb = b.get(lb.indexOf('k'));
    if (ka != kb) {
      boolean ta = la.endsWith("ki");
      boolean tb = lb.endsWith("jk");
      return "Invalid strategy for mat_a "
          + a
          + " and mat_b "
          + b
          + ". The transpose_a is: "
          + (ta ? 1 : 0)
          + ", and transpose_b is "
          + (tb ? 1 : 0)
          + ", the shard num of first input's "
          + (ta ? "row" : "column")
          + " is "
          + ka
          + ", but the shard num of second input's "
          + (tb ? "column" : "row")
          + " is "
          + kb;
    }
    if (ElementwiseRules.sharedMismatch(la, a, lb, b)) {
      return "Strategies of batch dimensions are not equal.";
    }
    return null;
  }
}
