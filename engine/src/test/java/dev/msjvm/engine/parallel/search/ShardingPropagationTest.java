package dev.msjvm.engine.parallel.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardingPropagationTest {

  private static final Attrs MATMUL = Attrs.of("transpose_a", false, "transpose_b", false);

  /** x [64, 32] (batch-split over 8 when {@code split}) -> MatMul(w [32, 16]) -> ReLU -> MatMul. */
  private static OpGraph mlp(boolean split, List<List<Integer>> firstMatMul) {
    List<OpGraph.Node> n = new ArrayList<>();
    int[] map = {split ? 0 : -1, -1};
    n.add(OpGraph.Node.data("x", TensorLayout.of(DeviceMatrix.of(8), map, 64, 32)));
    n.add(OpGraph.Node.param("w1", Shape.of(32, 16), null));
    n.add(
        OpGraph.Node.op(
            "MatMul",
            MATMUL,
            List.of(Shape.of(64, 32), Shape.of(32, 16)),
            List.of(Shape.of(64, 16)),
            List.of(new OpGraph.Src(0, 0), new OpGraph.Src(1, 0)),
            firstMatMul));
    n.add(
        OpGraph.Node.op(
            "ReLU",
            Attrs.EMPTY,
            List.of(Shape.of(64, 16)),
            List.of(Shape.of(64, 16)),
            List.of(new OpGraph.Src(2, 0)),
            null));
    n.add(OpGraph.Node.param("w2", Shape.of(16, 8), null));
    n.add(
        OpGraph.Node.op(
            "MatMul",
            MATMUL,
            List.of(Shape.of(64, 16), Shape.of(16, 8)),
            List.of(Shape.of(64, 8)),
            List.of(new OpGraph.Src(3, 0), new OpGraph.Src(4, 0)),
            null));
    return new OpGraph(n, 8);
  }

  private static String strategy(CostGraph g, int[] chosen, int node) {
    return TensorLayout.strategyString(g.candidates(node).get(chosen[node]).strategy());
  }

  private static OpGraph.Node unary(String name, Shape shape, int from, List<List<Integer>> conf) {
    return OpGraph.Node.op(
        name, Attrs.EMPTY, List.of(shape), List.of(shape), List.of(new OpGraph.Src(from, 0)), conf);
  }

  /**
   * MindSpore's test_mint_waitting: Div(MatMul(x', ReLU(beta)), ReLU(alpha)), x' configured (4, 2),
   * alpha by a parameter_plan (4, 2). The first walk reaches Div while ReLU(alpha) is undecided;
   * the walk from alpha starts before Div, so Div waits for it and sees both inputs: ((4, 1), (4,
   * 2)), not ((4, 1), (4, 1)) from the MatMul side alone.
   */
  @Test
  void aWaitingOperatorWaitsForALaterWalkThatStartsBeforeIt() {
    Shape xs = Shape.of(128, 96);
    List<OpGraph.Node> n = new ArrayList<>();
    n.add(OpGraph.Node.data("x", TensorLayout.of(DeviceMatrix.of(8), new int[] {-1, -1}, 128, 96)));
    n.add(unary("ReLU", xs, 0, List.of(List.of(4, 2))));
    n.add(OpGraph.Node.param("beta", Shape.of(96, 1), null));
    n.add(unary("ReLU", Shape.of(96, 1), 2, null));
    n.add(
        OpGraph.Node.op(
            "MatMul",
            MATMUL,
            List.of(xs, Shape.of(96, 1)),
            List.of(Shape.of(128, 1)),
            List.of(new OpGraph.Src(1, 0), new OpGraph.Src(3, 0)),
            null));
    n.add(OpGraph.Node.param("alpha", xs, List.of(4, 2)));
    n.add(unary("ReLU", xs, 5, null));
    n.add(
        OpGraph.Node.op(
            "Div",
            Attrs.EMPTY,
            List.of(Shape.of(128, 1), xs),
            List.of(xs),
            List.of(new OpGraph.Src(4, 0), new OpGraph.Src(6, 0)),
            null));
    CostGraph g = new CostGraph(new OpGraph(n, 8), CostModel.defaults());
    int[] chosen = ShardingPropagation.solve(g);
    assertEquals("((4, 2), (2, 1))", strategy(g, chosen, 4));
    assertEquals("((4, 2),)", strategy(g, chosen, 6));
    assertEquals("((4, 1), (4, 2))", strategy(g, chosen, 7));
  }

  @Test
  void theDatasetSplitPropagatesAsDataParallel() {
    CostGraph g = new CostGraph(mlp(true, null), CostModel.defaults());
    int[] chosen = ShardingPropagation.solve(g);
    assertEquals("((8, 1), (1, 1))", strategy(g, chosen, 2));
    assertEquals("((8, 1),)", strategy(g, chosen, 3));
    assertEquals("((8, 1), (1, 1))", strategy(g, chosen, 5));
    assertEquals("((1, 1),)", strategy(g, chosen, 1)); // the weights are whole on every rank
  }

  @Test
  void aConfiguredOperatorWinsOverTheDatasetAndItsNeighboursFollowIt() {
    CostGraph g =
        new CostGraph(mlp(false, List.of(List.of(1, 1), List.of(1, 8))), CostModel.defaults());
    int[] chosen = ShardingPropagation.solve(g);
    assertEquals("((1, 1), (1, 8))", strategy(g, chosen, 2));
    // ReLU keeps the column split; w1 is split by columns as its user needs.
    assertEquals("((1, 8),)", strategy(g, chosen, 3));
    assertEquals("((1, 8),)", strategy(g, chosen, 1));
    // The second MatMul takes its input as it comes: split k (its output is then AllReduced).
    assertEquals("((1, 8), (8, 1))", strategy(g, chosen, 5));
  }

  @Test
  void withoutAnyConfiguredNodeItRefusesAsMindSporeDoes() {
    List<OpGraph.Node> n = new ArrayList<>();
    n.add(OpGraph.Node.param("w", Shape.of(8, 8), null));
    n.add(
        OpGraph.Node.op(
            "ReLU",
            Attrs.EMPTY,
            List.of(Shape.of(8, 8)),
            List.of(Shape.of(8, 8)),
            List.of(new OpGraph.Src(0, 0)),
            null));
    CostGraph g = new CostGraph(new OpGraph(n, 4), CostModel.defaults());
    MsException e = assertThrows(MsException.class, () -> ShardingPropagation.solve(g));
    assertEquals("There is no operator that is configured sharding strategy.", e.getMessage());
  }
}
