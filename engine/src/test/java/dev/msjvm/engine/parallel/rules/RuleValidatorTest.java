package dev.msjvm.engine.parallel.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.msjvm.engine.comm.InJvmWorld;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rule validator: for every covered operator and EVERY strategy with power-of-2 splits whose
 * per-input product divides N, on 2, 4 and 8 simulated ranks, either the rule refuses the strategy
 * with MindSpore's RuntimeError, or running the op sharded (kernel on slices + forward
 * communication) gives every rank exactly its slice of the unsharded output under the output layout
 * (within 1e-5 relative for float sums). The default strategy is checked the same way.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RuleValidatorTest {
  private static final int[] WORLDS = {2, 4, 8};

  private final TreeMap<String, int[]> counts = new TreeMap<>();

  static List<RuleCases.Case> cases() {
    return RuleCases.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shardedEqualsUnsharded(RuleCases.Case c) throws Exception {
    ShardingRule rule = Rules.of(c.op());
    List<Shape> shapes = c.inputs().stream().map(Tensor::shape).toList();
    Tensor[] full = RuleCases.run(c.op(), c.attrs(), c.inputs());
    EinsumSpec spec = rule.specFor(c.attrs(), shapes);
    List<Shape> stShapes =
        Interpreter.strategyShapes(spec, shapes, Interpreter.outputShapes(spec, shapes));
    for (int n : WORLDS) {
      int accepted = 0;
      int refused = 0;
      int split = 0;
      List<List<List<Integer>>> all = new ArrayList<>(enumerate(stShapes, n));
      all.add(null); // the default strategy
      for (List<List<Integer>> strategy : all) {
        OpSharding s;
        try {
          s = rule.shard(c.attrs(), shapes, strategy, n);
        } catch (ShardingException e) {
          // As in MindSpore, the default strategy fails when N does not divide the batch dim.
          assertTrue(
              strategy != null || e.getMessage().contains("divisible"),
              "default strategy refused: " + e.getMessage());
          assertTrue(
              e.getMessage().startsWith("Failure:operator " + c.op() + " init failed\n"),
              e.getMessage());
          refused++;
          continue;
        }
        accepted++;
        if (strategy != null && strategy.stream().flatMap(List::stream).anyMatch(v -> v > 1)) {
          split++;
        }
        check(c, s, full, n);
      }
      counts.put(c.name() + " N=" + n, new int[] {accepted, refused});
      if (spec.matrix().chars().anyMatch(letter -> spec.splittable((char) letter))) {
        assertTrue(split > 0, c.name() + ": no strategy with a split was accepted on " + n);
      } else {
        // A rule that keeps every dimension whole (Lamb, LearningRateSchedule): every rank runs
        // the whole op, and its unsplit strategies were verified above like any other.
        assertTrue(accepted > 0, c.name() + ": the unsplit strategy was refused on " + n);
      }
      if (c.name().equals("MatMul ta=false tb=false")) {
        // (i, k, j) powers of 2 with i*k*j | n: 4, 10, 20 triples; plus the default strategy.
        assertEquals(n == 2 ? 5 : n == 4 ? 11 : 21, accepted, "MatMul strategies on " + n);
      }
    }
  }

  private static void check(RuleCases.Case c, OpSharding s, Tensor[] full, int n)
      throws InterruptedException {
    InJvmWorld world = new InJvmWorld(n, Duration.ofSeconds(30));
    List<Tensor[]> out = ShardedRun.run(world, c.op(), c.attrs(), s, c.inputs());
    for (int r = 0; r < n; r++) {
      for (int o = 0; o < full.length; o++) {
        Tensor want = ShardedRun.slice(full[o], s.outputLayouts().get(o), r);
        Tensor got = out.get(r)[o];
        String where = c.name() + " " + s + " rank " + r + " output " + o;
        assertEquals(want.shape(), got.shape(), where);
        for (int i = 0; i < want.size(); i++) {
          // real() and imag() read every type (a real tensor's imaginary parts are 0)
          for (boolean imag : new boolean[] {false, true}) {
            double w = imag ? want.imag(i) : want.real(i);
            double g = imag ? got.imag(i) : got.real(i);
            if (Math.abs(w - g) > 1e-5 * Math.max(1, Math.abs(w))) {
              fail(where + " element " + i + (imag ? " imag" : "") + ": want " + w + " got " + g);
            }
          }
        }
      }
    }
  }

  /** All strategies: per tensor, power-of-2 splits with product dividing n (no shape filter). */
  static List<List<List<Integer>>> enumerate(List<Shape> shapes, int n) {
    List<List<List<Integer>>> out = new ArrayList<>();
    out.add(List.of());
    for (Shape s : shapes) {
      List<List<Integer>> options = tuples(s.rank(), n);
      List<List<List<Integer>>> next = new ArrayList<>();
      for (List<List<Integer>> prefix : out) {
        for (List<Integer> t : options) {
          List<List<Integer>> p = new ArrayList<>(prefix);
          p.add(t);
          next.add(p);
        }
      }
      out = next;
    }
    return out;
  }

  private static List<List<Integer>> tuples(int rank, int budget) {
    if (rank == 0) {
      return List.of(List.of());
    }
    List<List<Integer>> out = new ArrayList<>();
    for (int v = 1; v <= budget; v *= 2) {
      for (List<Integer> rest : tuples(rank - 1, budget / v)) {
        List<Integer> t = new ArrayList<>();
        t.add(v);
        t.addAll(rest);
        out.add(t);
      }
    }
    return out;
  }

  @AfterAll
  void report() {
    int accepted = 0;
    int refused = 0;
    java.util.Set<String> ops = new java.util.TreeSet<>();
    for (var e : counts.entrySet()) {
      accepted += e.getValue()[0];
      refused += e.getValue()[1];
    }
    for (RuleCases.Case c : cases()) {
      ops.add(c.op());
    }
    System.out.printf(
        "rule validator: %d ops, %d cases x %d worlds, %d strategies accepted and verified,"
            + " %d refused%n",
        ops.size(), counts.size() / WORLDS.length, WORLDS.length, accepted, refused);
  }
}
