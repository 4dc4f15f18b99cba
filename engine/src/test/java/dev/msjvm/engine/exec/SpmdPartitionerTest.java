package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.comm.InJvmRanks;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.ShardingOracle;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.parallel.search.CostModel;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A graph traced on global shapes ({@code sum(relu(x @ w))}), partitioned for 4 ranks with a
 * model-parallel MatMul strategy, gives every rank the global result: the batch-split argument is
 * redistributed to the strategy's layout, the weight is cut to each rank's slice, the partial
 * MatMul output and the partial sum are reduced.
 */
class SpmdPartitionerTest {

  private static final int N = 4;

  /** A small oracle for MatMul (any ((a, b), (b, c)) strategy), ReLU and ReduceSum-to-scalar. */
  private static final ShardingOracle ORACLE =
      (op, attrs, inShapes, outShapes, current, devices) ->
          switch (op) {
            case "MatMul" -> matmul(attrs, inShapes, outShapes, devices);
            case "ReLU" ->
                new NodeSharding(
                    List.of(current.get(0).strategy()),
                    List.of(current.get(0)),
                    List.of(current.get(0)),
                    Arrays.asList((NodeSharding.Partial) null));
            case "ReduceSum" -> reduceAll(current.get(0), devices);
            default -> throw new AssertionError("unexpected op " + op);
          };

  private static NodeSharding matmul(Attrs attrs, List<Shape> in, List<Shape> out, int devices) {
    List<Integer> xs = attrs.ints("x_strategy");
    int a = xs.get(0);
    int b = xs.get(1);
    int c = attrs.ints("w_strategy").get(1);
    DeviceMatrix dm = DeviceMatrix.of(a, b, c);
    assertEquals(devices, dm.size());
    return new NodeSharding(
        List.of(List.of(a, b), List.of(b, c)),
        List.of(
            TensorLayout.of(dm, new int[] {2, 1}, in.get(0).toArray()),
            TensorLayout.of(dm, new int[] {1, 0}, in.get(1).toArray())),
        List.of(TensorLayout.of(dm, new int[] {2, 0}, out.get(0).toArray())),
        List.of(new NodeSharding.Partial(List.of(1), NodeSharding.Partial.SUM)));
  }

  private static NodeSharding reduceAll(TensorLayout x, int devices) {
    DeviceMatrix dm = x.deviceMatrix();
    List<Integer> used = new ArrayList<>();
    for (int d = 0; d < x.rank(); d++) {
      if (x.isSplit(d)) {
        used.add(x.deviceAxisOf(d));
      }
    }
    return new NodeSharding(
        List.of(x.strategy()),
        List.of(x),
        List.of(TensorLayout.of(dm, new int[0])),
        List.of(new NodeSharding.Partial(used, NodeSharding.Partial.SUM)));
  }

  @Test
  void modelParallelMatMulGivesTheGlobalResultOnEveryRank() throws Exception {
    checkOnFourRanks(ORACLE);
  }

  /** The same with the product's oracle: the MatMul's in_strategy, ReLU and ReduceSum following. */
  @Test
  void theRulesOracleGivesTheGlobalResultToo() throws Exception {
    checkOnFourRanks(RulesOracle.INSTANCE);
  }

  /**
   * With enable_alltoall the batch-split x reaches the MatMul's ((2, 2), ...) layout through one
   * AllToAll instead of an AllGather and a split: same result.
   */
  @Test
  void enableAllToAllMovesTheSplitWithOneAllToAll() throws Exception {
    List<String> plan = checkOnFourRanks(RulesOracle.INSTANCE, true);
    assertTrue(plan.stream().anyMatch(l -> l.contains("AlltoAll")), () -> String.join("\n", plan));
    List<String> without = checkOnFourRanks(RulesOracle.INSTANCE, false);
    assertTrue(
        without.stream().noneMatch(l -> l.contains("AlltoAll")), () -> String.join("\n", without));
  }

  private static void checkOnFourRanks(ShardingOracle oracle) throws Exception {
    checkOnFourRanks(oracle, false);
  }

  /** Runs the partitioned step on 4 ranks, checks every rank's loss; returns rank 0's plan. */
  private static List<String> checkOnFourRanks(ShardingOracle oracle, boolean allToAll)
      throws Exception {
    return checkOnFourRanks(oracle, allToAll, null, 6 * 4 / 2);
  }

  /**
   * {@link #checkOnFourRanks(ShardingOracle, boolean)} where each rank first passes its traced
   * graph, with the gradient of w, through {@code prepare} (a strategy search) unless it is null,
   * and w must end up with {@code wSize} elements on each rank.
   */
  private static List<String> checkOnFourRanks(
      ShardingOracle oracle,
      boolean allToAll,
      java.util.function.UnaryOperator<Graph> prepare,
      int wSize)
      throws Exception {
    Random random = new Random(5);
    float[] xs = new float[8 * 6];
    float[] ws = new float[6 * 4];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = random.nextFloat() - 0.5f;
    }
    for (int i = 0; i < ws.length; i++) {
      ws[i] = random.nextFloat() - 0.5f;
    }
    Tensor x = Tensor.ofFloats(Shape.of(8, 6), xs);
    Tensor wFull = Tensor.ofFloats(Shape.of(6, 4), ws);
    double expected =
        trace(new Runtime(NaiveBlas::new), new Variable("w", wFull), x, false).expected;

    TensorLayout batchSplit = TensorLayout.of(DeviceMatrix.of(N), new int[] {0, -1}, 8, 6);
    List<List<String>> plans = java.util.Collections.synchronizedList(new ArrayList<>());
    List<double[]> results =
        InJvmRanks.run(
            N,
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            (rank, comm) -> {
              Runtime rt = new Runtime(NaiveBlas::new);
              Variable w = new Variable("w", wFull);
              Graph global =
                  prepare == null
                      ? trace(rt, w, x, false).graph
                      : prepare.apply(trace(rt, w, x, true).graph);
              SpmdPartitioner.Result p =
                  SpmdPartitioner.partition(
                      global, List.of(batchSplit), java.util.Map.of(), oracle, comm, N, allToAll);
              if (rank == 0) {
                plans.add(p.plan());
              }
              Tensor mine = Tensor.ofFloats(Shape.of(2, 6), batchSplit.sliceOf(xs, rank));
              double loss = p.graph().run(rt, List.of(mine)).get(0).getDouble(0);
              return new double[] {loss, w.current().size(), p.graph().size()};
            });
    for (double[] got : results) {
      assertEquals(expected, got[0], 1e-4 * Math.abs(expected));
      assertEquals(wSize, (int) got[1], "w's slice");
      assertTrue(got[2] > 4, "redistribution and reduction nodes were added");
    }
    return plans.get(0);
  }

  @Test
  void aSearchedStrategyReplacesTheUsersAndTheStepStillComputesTheGlobalLoss() throws Exception {
    TensorLayout batchSplit = TensorLayout.of(DeviceMatrix.of(N), new int[] {0, -1}, 8, 6);
    List<String> plan =
        checkOnFourRanks(
            RulesOracle.INSTANCE,
            false,
            g -> {
              Graph stripped = withoutStrategies(g);
              StrategySearchPass.Result r =
                  StrategySearchPass.search(
                      stripped,
                      List.of(batchSplit),
                      "dynamic_programming",
                      CostModel.defaults(),
                      N,
                      java.util.Map.of(),
                      null);
              assertEquals(4, stripped.forwardNodes(), "Load, MatMul, ReLU, ReduceSum");
              return r.graph();
            },
            6 * 4);
    // The dataset split on the batch makes data parallel the cheapest: no AllReduce of the
    // MatMul output, only the loss's.
    assertTrue(
        plan.get(0).startsWith("MatMul #1 strategy ((4, 1), (1, 1))"),
        () -> String.join("\n", plan));
  }

  /** The traced graph as it would be without the user's shard strategy. */
  private static Graph withoutStrategies(Graph g) {
    java.util.Map<Integer, Attrs> none = new java.util.HashMap<>();
    for (int n = 0; n < g.nodes().size(); n++) {
      if (g.nodes().get(n).attrs().has("in_strategy")) {
        none.put(n, Attrs.of("in_strategy", null));
      }
    }
    return g.withAttrs(none);
  }

  private record Traced(Graph graph, double expected) {}

  /**
   * {@code sum(relu(x @ w))} traced on global shapes, MatMul strategy ((2, 2), (2, 1)); {@code
   * withGradient}: the gradient of w is a second result.
   */
  private static Traced trace(Runtime rt, Variable w, Tensor x, boolean withGradient) {
    Tape tape = rt.push();
    Tensor xa = x.alias();
    tape.addLeaves(List.of(xa));
    Tensor wv = rt.apply("Load", Attrs.EMPTY, w)[0];
    Attrs mm =
        Attrs.of(
            "transpose_a",
            false,
            "transpose_b",
            false,
            "x_strategy",
            List.of(2, 2),
            "w_strategy",
            List.of(2, 1),
            "in_strategy",
            List.of(List.of(2, 2), List.of(2, 1)));
    Tensor y = rt.apply("MatMul", mm, xa, wv)[0];
    Tensor h = rt.apply("ReLU", Attrs.EMPTY, y)[0];
    Tensor s = rt.apply("ReduceSum", Attrs.of("axis", List.of(), "keep_dims", false), h)[0];
    List<Tensor> results = new ArrayList<>(List.of(s));
    if (withGradient) {
      // The backward nodes follow the forward ones in the graph.
      results.addAll(Autodiff.gradients(rt, tape, List.of(s), null, List.of(w)));
    }
    rt.pop(tape);
    return new Traced(Graph.compile(tape, List.of(xa), results), s.getDouble(0));
  }
}
