package dev.msjvm.engine.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.comm.CollectiveOps;
import dev.msjvm.engine.comm.InJvmRanks;
import dev.msjvm.engine.comm.InJvmWorld;
import dev.msjvm.engine.context.AutoParallelContext;
import dev.msjvm.engine.context.Settings;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The parallel compiler plans once for all ranks: the plan does not depend on the rank, touches no
 * variable, is the same text in another process, and every rank lowers it with its own variables to
 * a program computing the global result.
 */
class ParallelCompilerTest {
  private static final int N = 4;

  /** x [8, 6] (split on the batch), w [6, 4]: deterministic values. */
  private static final float[] XS = values(8 * 6, 5);

  private static final float[] WS = values(6 * 4, 6);

  private static float[] values(int n, long seed) {
    Random random = new Random(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = random.nextFloat() - 0.5f;
    }
    return v;
  }

  private record Traced(Graph graph, double loss) {}

  /**
   * {@code sum(relu(x @ w))} and the gradient of w, traced on global shapes; with {@code strategy}
   * the MatMul carries {@code ((2, 2), (2, 1))}.
   */
  private static Traced trace(Variable w, boolean strategy) {
    Runtime rt = new Runtime(NaiveBlas::new);
    Tape tape = rt.push();
    Tensor xa = Tensor.ofFloats(Shape.of(8, 6), XS).alias();
    tape.addLeaves(List.of(xa));
    Tensor wv = rt.apply("Load", Attrs.EMPTY, w)[0];
    Attrs mm = Attrs.of("transpose_a", false, "transpose_b", false);
    if (strategy) {
      mm = mm.with("in_strategy", List.of(List.of(2, 2), List.of(2, 1)));
    }
    Tensor y = rt.apply("MatMul", mm, xa, wv)[0];
    Tensor h = rt.apply("ReLU", Attrs.EMPTY, y)[0];
    Tensor s = rt.apply("ReduceSum", Attrs.of("axis", List.of(), "keep_dims", false), h)[0];
    List<Tensor> results = new ArrayList<>(List.of(s));
    results.addAll(Autodiff.gradients(rt, tape, List.of(s), null, List.of(w)));
    rt.pop(tape);
    return new Traced(Graph.compile(tape, List.of(xa), results), s.getDouble(0));
  }

  private static Variable weight() {
    return new Variable("w", Tensor.ofFloats(Shape.of(6, 4), WS.clone()));
  }

  private static CompileRequest request(String mode, String searchMode) {
    AutoParallelContext ctx = new AutoParallelContext();
    ctx.setParallelMode(mode);
    if (searchMode != null) {
      ctx.setStrategySearchMode(searchMode);
    }
    ParallelSettings settings =
        ParallelSettings.of(
            ctx, Settings.costModel().asMap(), Settings.algoParameters().asMap(), N);
    return new CompileRequest(
        settings,
        "Net",
        List.of(new CompileRequest.ArgSpec(Shape.of(8, 6), true)),
        List.of(new CompileRequest.ParamSpec("w", Shape.of(6, 4), DType.FLOAT32)),
        Map.of(),
        List.of(new CompileRequest.Trainable("w", true, 1)),
        Map.of(),
        null,
        null);
  }

  @Test
  void aDatasetStrategyLaysAnArgumentOutWithTheLeftoverDevicesOutermost() {
    // (1, 4) on 8 devices: rank r holds column block r % 4 (ranks r and r + 4 hold the same one).
    TensorLayout l =
        ParallelCompiler.argLayouts(
                List.of(new CompileRequest.ArgSpec(Shape.of(2, 8), false, List.of(1, 4))), 8)
            .get(0);
    assertEquals(Shape.of(2, 2), l.sliceShape());
    float[] full = new float[16];
    for (int k = 0; k < 16; k++) {
      full[k] = k;
    }
    assertArrayEquals(new float[] {2, 3, 10, 11}, l.sliceOf(full, 5));
    assertArrayEquals(l.sliceOf(full, 1), l.sliceOf(full, 5));
    MsException e =
        assertThrows(
            MsException.class,
            () ->
                ParallelCompiler.argLayouts(
                    List.of(new CompileRequest.ArgSpec(Shape.of(2, 8), false, List.of(3, 1))), 8));
    assertTrue(e.getMessage().contains("product divides the device count"), e.getMessage());
  }

  @Test
  void onePlanLoweredByEveryRankWithItsOwnVariableGivesTheGlobalLoss() throws Exception {
    Variable leaders = weight();
    Traced traced = trace(leaders, true);
    ParallelPlan plan = ParallelCompiler.plan(request("semi_auto_parallel", null), traced.graph());
    assertEquals(Shape.of(6, 4), leaders.current().shape(), "planning cuts no variable");
    assertTrue(plan.shareable());
    assertEquals(List.of("w"), plan.variableNames());
    assertEquals(
        TensorLayout.of(DeviceMatrix.of(2, 2, 1), new int[] {1, 0}, 6, 4),
        plan.parameterLayouts().get("w"));

    TensorLayout batchSplit = TensorLayout.of(DeviceMatrix.of(N), new int[] {0, -1}, 8, 6);
    List<double[]> results =
        InJvmRanks.run(
            N,
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            (rank, comm) -> {
              Variable mine = weight(); // this rank's parameter: never traced
              ParallelPlan.RankProgram p = plan.lower(comm, Map.of("w", mine));
              Tensor x = Tensor.ofFloats(Shape.of(2, 6), batchSplit.sliceOf(XS, rank));
              List<Tensor> out = p.program().graph().run(new Runtime(NaiveBlas::new), List.of(x));
              return new double[] {out.get(0).getDouble(0), mine.current().size()};
            });
    for (double[] got : results) {
      assertEquals(traced.loss(), got[0], 1e-4 * Math.abs(traced.loss()));
      // w ((2, 1)): rows split over 2 of the 4 devices, repeated over the other 2.
      assertEquals(6 * 4 / 2, (int) got[1], "each rank holds its slice of w");
    }
    assertEquals(Shape.of(6, 4), leaders.current().shape(), "the tracing rank's w is not cut");
  }

  /** A variable like {@link #weight} that fills on demand, recording the block lengths it made. */
  private static Variable deferredWeight(List<int[]> fills) {
    return Variable.deferred(
        "w",
        new AbstractTensor(Shape.of(6, 4), DType.FLOAT32),
        (begin, length) -> {
          fills.add(length);
          float[] out = new float[length[0] * length[1]];
          for (int i = 0; i < length[0]; i++) {
            for (int j = 0; j < length[1]; j++) {
              out[i * length[1] + j] = WS[(begin[0] + i) * 4 + begin[1] + j];
            }
          }
          return Tensor.ofFloats(Shape.of(length), out);
        });
  }

  @Test
  void aDeferredParameterIsTracedOnItsTypeAndEachRankFillsOnlyItsSlice() throws Exception {
    List<int[]> leaderFills = new java.util.concurrent.CopyOnWriteArrayList<>();
    Variable leaders = deferredWeight(leaderFills);
    Runtime rt = new Runtime(NaiveBlas::new);
    Tensor xa = Tensor.abstractOf(new AbstractTensor(Shape.of(8, 6), DType.FLOAT32));
    Tape tape = rt.pushAbstract();
    tape.addLeaves(List.of(xa));
    Tensor wv = rt.apply("Load", Attrs.EMPTY, leaders)[0];
    Tensor y =
        rt.apply(
                "MatMul",
                Attrs.of(
                    "transpose_a",
                    false,
                    "transpose_b",
                    false,
                    "in_strategy",
                    List.of(List.of(2, 2), List.of(2, 1))),
                xa,
                wv)[0];
    Tensor h = rt.apply("ReLU", Attrs.EMPTY, y)[0];
    Tensor s = rt.apply("ReduceSum", Attrs.of("axis", List.of(), "keep_dims", false), h)[0];
    rt.pop(tape);
    Graph graph = Graph.compile(tape, List.of(xa), List.of(s));
    ParallelPlan plan = ParallelCompiler.plan(request("semi_auto_parallel", null), graph);
    assertTrue(leaders.deferred(), "tracing and planning fill nothing");
    assertTrue(leaderFills.isEmpty());

    double expected = trace(weight(), true).loss();
    TensorLayout batchSplit = TensorLayout.of(DeviceMatrix.of(N), new int[] {0, -1}, 8, 6);
    List<int[]> rankFills = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<Double> losses =
        InJvmRanks.run(
            N,
            Duration.ofSeconds(20),
            Duration.ofSeconds(30),
            (rank, comm) -> {
              Variable mine = deferredWeight(rankFills);
              ParallelPlan.RankProgram p = plan.lower(comm, Map.of("w", mine));
              assertEquals(Shape.of(3, 4), mine.current().shape());
              Tensor x = Tensor.ofFloats(Shape.of(2, 6), batchSplit.sliceOf(XS, rank));
              return p.program()
                  .graph()
                  .run(new Runtime(NaiveBlas::new), List.of(x))
                  .get(0)
                  .getDouble(0);
            });
    for (double loss : losses) {
      assertEquals(expected, loss, 1e-4 * Math.abs(expected));
    }
    assertEquals(N, rankFills.size(), "one fill per rank");
    for (int[] length : rankFills) {
      assertArrayEquals(new int[] {3, 4}, length, "only the rank's slice is made");
    }
  }

  @Test
  void twoTracesOfTheSameNetworkGiveTheSamePlanTextAndAnotherProcessDoesToo() throws Exception {
    for (String[] mode :
        List.of(
            new String[] {"semi_auto_parallel", null, "true"},
            new String[] {"auto_parallel", "dynamic_programming", "false"},
            new String[] {"auto_parallel", "recursive_programming", "false"})) {
      boolean strategy = Boolean.parseBoolean(mode[2]);
      ParallelPlan a =
          ParallelCompiler.plan(request(mode[0], mode[1]), trace(weight(), strategy).graph());
      ParallelPlan b =
          ParallelCompiler.plan(request(mode[0], mode[1]), trace(weight(), strategy).graph());
      assertEquals(a.describe(), b.describe(), mode[0]);
      assertEquals(a.digest(), b.digest());
      assertEquals(a.digest(), inAnotherProcess(mode), "the plan in another JVM");
    }
    assertNotEquals(
        ParallelCompiler.plan(request("semi_auto_parallel", null), trace(weight(), true).graph())
            .digest(),
        ParallelCompiler.plan(
                request("auto_parallel", "dynamic_programming"), trace(weight(), false).graph())
            .digest());
  }

  /**
   * Prints the digest of the plan {@link
   * #twoTracesOfTheSameNetworkGiveTheSamePlanTextAndAnotherProcessDoesToo} makes for its arguments.
   */
  public static void main(String[] args) {
    String search = args[1].equals("-") ? null : args[1];
    System.out.println(
        ParallelCompiler.plan(
                request(args[0], search), trace(weight(), Boolean.parseBoolean(args[2])).graph())
            .digest());
  }

  private static String inAnotherProcess(String[] mode) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ParallelCompilerTest.class.getName(),
                mode[0],
                mode[1] == null ? "-" : mode[1],
                mode[2])
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    String[] lines = out.split("\n");
    return lines[lines.length - 1].strip();
  }

  @Test
  void aGraphHoldingARanksCommunicatorOrARandomStreamIsNotShared() {
    Traced plain = trace(weight(), true);
    assertTrue(plain.graph().portable());

    Runtime rt = new Runtime(NaiveBlas::new);
    InJvmWorld world = new InJvmWorld(1, Duration.ofSeconds(5), InJvmWorld.HCCL_WORLD_GROUP);
    Tape tape = rt.push();
    Tensor x = Tensor.ofFloats(Shape.of(2, 2), new float[] {1, 2, 3, 4}).alias();
    tape.addLeaves(List.of(x));
    Tensor r =
        rt.apply(
                CollectiveOps.allReduce(world.communicator(0)),
                Attrs.of("op", "sum", "group", InJvmWorld.HCCL_WORLD_GROUP),
                x)[0];
    rt.pop(tape);
    assertFalse(Graph.compile(tape, List.of(x), List.of(r)).portable(), "a bound collective");

    Tape tape2 = rt.push();
    Tensor x2 = Tensor.ofFloats(Shape.of(2, 2), new float[] {1, 2, 3, 4}).alias();
    tape2.addLeaves(List.of(x2));
    Tensor d =
        rt.apply(
                "Dropout",
                Attrs.of("keep_prob", 0.5, "rng", new java.util.SplittableRandom(1)),
                x2)[0];
    rt.pop(tape2);
    assertFalse(Graph.compile(tape2, List.of(x2), List.of(d)).portable(), "a random stream");
  }

  @Test
  void reboundGraphReadsTheOtherVariable() {
    Variable w = weight();
    Graph g = trace(w, true).graph();
    Variable other = weight();
    Graph h = g.rebound(v -> other);
    assertSame(other, h.variables().get(0));
    assertSame(w, g.variables().get(0), "the original keeps its variable");
    assertEquals(g.size(), h.size());
    assertEquals(g.forwardNodes(), h.forwardNodes());
  }
}
