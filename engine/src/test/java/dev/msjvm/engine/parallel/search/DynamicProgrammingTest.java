package dev.msjvm.engine.parallel.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DynamicProgrammingTest {

  /**
   * The smallest summed objective over every assignment of candidates, by exhaustive search over
   * the operators (depth-first in node order, cutting a partial sum at or above the best found: all
   * costs are non-negative). Dataset inputs have one candidate; a parameter's edges all go to
   * operators, so once its users are assigned its best candidate is a minimum over its own
   * candidates alone, which is exact and keeps the search over operators only.
   */
  static double bruteForce(CostGraph g) {
    int n = g.size();
    List<Integer> order = new ArrayList<>();
    List<List<Integer>> settledAt = new ArrayList<>(); // params completed by each op in order
    int[] lastUser = new int[n];
    for (int v = 0; v < n; v++) {
      if (g.graph().nodes().get(v).kind() == OpGraph.Kind.OP) {
        order.add(v);
      }
      settledAt.add(new ArrayList<>());
    }
    for (int v = 0; v < n; v++) {
      if (g.graph().nodes().get(v).kind() == OpGraph.Kind.PARAM) {
        for (int e : g.outEdges(v)) {
          lastUser[v] = Math.max(lastUser[v], g.edges().get(e).to());
        }
        settledAt.get(lastUser[v]).add(v);
      }
    }
    double[] best = {Double.POSITIVE_INFINITY};
    dfs(g, order, settledAt, 0, new int[n], 0, best);
    return best[0];
  }

  private static void dfs(
      CostGraph g,
      List<Integer> order,
      List<List<Integer>> settledAt,
      int k,
      int[] chosen,
      double sum,
      double[] best) {
    if (sum >= best[0] * (1 + 1e-12)) {
      return;
    }
    if (k == order.size()) {
      best[0] = sum;
      return;
    }
    int v = order.get(k);
    for (int c = 0; c < g.candidates(v).size(); c++) {
      chosen[v] = c;
      double s = sum + g.candidates(v).get(c).cost().objective(g.model());
      for (int e : g.inEdges(v)) {
        int from = g.edges().get(e).from();
        OpGraph.Kind kind = g.graph().nodes().get(from).kind();
        if (kind != OpGraph.Kind.PARAM) {
          s += g.edgeCost(e, chosen[from], c).objective(g.model());
        }
      }
      for (int p : settledAt.get(v)) {
        double min = Double.POSITIVE_INFINITY;
        for (int pc = 0; pc < g.candidates(p).size(); pc++) {
          double t = g.candidates(p).get(pc).cost().objective(g.model());
          for (int e : g.outEdges(p)) {
            t += g.edgeCost(e, pc, chosen[g.edges().get(e).to()]).objective(g.model());
          }
          min = Math.min(min, t);
        }
        s += min;
      }
      dfs(g, order, settledAt, k + 1, chosen, s, best);
    }
  }

  static double objective(CostGraph g, int[] chosen) {
    return g.total(chosen).objective(g.model());
  }

  @Test
  void dynamicProgrammingFindsTheBruteForceOptimumOnRandomGraphs() {
    Random rnd = new Random(20261122);
    int[] devices = {2, 4, 8};
    int[] applied = new int[7];
    int beatsFirstCandidates = 0;
    for (int k = 0; k < 200; k++) {
      int n = devices[k % devices.length];
      OpGraph og = RandomGraphs.of(rnd, 12, n);
      CostGraph g = new CostGraph(og, CostModel.defaults());
      int[] counts = new int[7];
      int[] dp = DynamicProgramming.run(g, counts);
      for (int i = 0; i < counts.length; i++) {
        applied[i] += counts[i];
      }
      double found = objective(g, dp);
      double optimum = bruteForce(g);
      assertEquals(optimum, found, 1e-9 * Math.max(1, optimum), "graph " + k + " on " + n);
      if (found < objective(g, new int[g.size()])) {
        beatsFirstCandidates++;
      }
    }
    // The graphs exercise every elimination, and the optimum is rarely the trivial assignment.
    for (int i = 0; i < 6; i++) {
      assertTrue(
          applied[i] > 0,
          "elimination " + i + " never applied: " + java.util.Arrays.toString(applied));
    }
    assertTrue(beatsFirstCandidates > 150, "only " + beatsFirstCandidates + " non-trivial optima");
  }

  @Test
  void recursiveProgrammingStaysCloseToTheOptimumOnRandomGraphs() {
    Random rnd = new Random(20261123);
    int[] devices = {2, 4, 8};
    List<Double> ratios = new ArrayList<>();
    List<Double> pure = new ArrayList<>();
    for (int k = 0; k < 200; k++) {
      int n = devices[k % devices.length];
      OpGraph og = RandomGraphs.of(rnd, 12, n);
      CostGraph g = new CostGraph(og, CostModel.defaults());
      double optimum = objective(g, DynamicProgramming.solve(g));
      int[] sappChoice =
          LocalRefinement.fromStrategies(g, RecursiveProgramming.solve(og, CostModel.defaults()));
      double sapp = objective(g, sappChoice);
      double refined = objective(g, LocalRefinement.improve(g, sappChoice));
      assertTrue(refined >= optimum * (1 - 1e-9), "SAPP below the optimum on graph " + k);
      assertTrue(refined <= sapp * (1 + 1e-9), "refinement made graph " + k + " worse");
      pure.add(sapp / optimum);
      ratios.add(refined / optimum);
    }
    java.util.Collections.sort(ratios);
    java.util.Collections.sort(pure);
    double median = ratios.get(ratios.size() / 2);
    System.out.printf(
        "SAPP alone / optimum over 200 random graphs: median %.4f, p90 %.4f, max %.4f%n",
        pure.get(100), pure.get(179), pure.get(199));
    System.out.printf(
        "SAPP + refinement / optimum: median %.4f, p90 %.4f, max %.4f%n",
        median, ratios.get(179), ratios.get(199));
    assertTrue(median <= 1.10, "median SAPP / optimum " + median);
  }

  @Test
  void recursiveProgrammingRefusesADeviceCountThatIsNoPowerOfTwo() {
    OpGraph og = RandomGraphs.of(new Random(3), 4, 6);
    dev.msjvm.engine.MsException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            dev.msjvm.engine.MsException.class,
            () -> RecursiveProgramming.solve(og, CostModel.defaults()));
    assertEquals(
        "The recursive auto parallel strategy searching mode requires the device num be the power"
            + " of 2.",
        e.getMessage());
  }

  @Test
  void enableAlgoApproxiKeepsAboutOneOverEpsilonCandidatesPerOperator() {
    OpGraph og = RandomGraphs.of(new Random(11), 8, 8);
    CostModel exact = CostModel.defaults();
    CostModel approx = variant(exact.deviceMemoryCapacity(), false, true, 0.25);
    CostGraph all = new CostGraph(og, exact);
    CostGraph few = new CostGraph(og, approx);
    boolean fewer = false;
    for (int v = 0; v < all.size(); v++) {
      if (og.nodes().get(v).kind() == OpGraph.Kind.OP) {
        assertTrue(few.candidates(v).size() <= 4, "node " + v);
        fewer |= few.candidates(v).size() < all.candidates(v).size();
      }
    }
    assertTrue(fewer, "some operator has more than 4 candidates on 8 devices");
    // The approximate search is still a valid (if not optimal) assignment of the exact graph's
    // cost.
    double optimum = objective(all, DynamicProgramming.solve(all));
    double approximate = objective(few, DynamicProgramming.solve(few));
    assertTrue(approximate >= optimum * (1 - 1e-9));
  }

  @Test
  void elementwiseOpStrategyFollowMakesPointwiseUsersKeepTheirProducersLayout() {
    Random rnd = new Random(20261125);
    CostModel d = CostModel.defaults();
    CostModel follow = variant(d.deviceMemoryCapacity(), true, false, d.algoApproxiEpsilon());
    int identityEdges = 0;
    int constrained = 0;
    for (int k = 0; k < 60; k++) {
      int n = 2 << (k % 3);
      OpGraph og = RandomGraphs.of(rnd, 10, n);
      CostGraph free = new CostGraph(og, d);
      CostGraph g = new CostGraph(og, follow);
      int[] chosen = DynamicProgramming.solve(g);
      double found = objective(g, chosen);
      assertTrue(Double.isFinite(found), "graph " + k);
      assertEquals(bruteForce(g), found, 1e-9 * Math.max(1, found), "graph " + k);
      double unconstrained = objective(free, DynamicProgramming.solve(free));
      assertTrue(found >= unconstrained * (1 - 1e-9), "graph " + k);
      if (found > unconstrained * (1 + 1e-9)) {
        constrained++;
      }
      for (CostGraph.Edge e : g.edges()) {
        OpGraph.Node producer = og.nodes().get(e.from());
        if (producer.kind() == OpGraph.Kind.OP
            && dev.msjvm.engine.parallel.rules.Rules.isElementwise(producer.name())) {
          identityEdges++;
          TensorLayout out = g.candidates(e.from()).get(chosen[e.from()]).outputs().get(e.output());
          TensorLayout in = g.candidates(e.to()).get(chosen[e.to()]).inputs().get(e.input());
          assertTrue(
              out.equalsWithoutUnitAxes(in),
              "graph " + k + " edge " + e + ": " + out + " to " + in);
        }
      }
    }
    assertTrue(identityEdges > 30, "only " + identityEdges + " edges leave pointwise operators");
    assertTrue(constrained > 0, "the follow rule never changed an optimum");
  }

  private static CostModel withCapacity(double capacity) {
    return variant(capacity, false, false, CostModel.defaults().algoApproxiEpsilon());
  }

  /** The default model with another memory capacity and algorithm parameters. */
  private static CostModel variant(
      double capacity, boolean follow, boolean approxi, double epsilon) {
    CostModel d = CostModel.defaults();
    return new CostModel(
        d.alpha(),
        d.beta(),
        d.gamma(),
        d.communiThreshold(),
        d.communiConst(),
        d.communiBias(),
        capacity,
        d.fullyUseDevices(),
        follow,
        approxi,
        epsilon,
        d.enableAllToAll(),
        d.rpMatmulMemCoef());
  }

  @Test
  void aMemoryCapacityBelowTheOptimumsMemoryGetsTheCheapestAssignmentThatFits() {
    Random rnd = new Random(21);
    int tested = 0;
    for (int k = 0; k < 40 && tested < 5; k++) {
      OpGraph og = RandomGraphs.of(rnd, 10, 8);
      CostGraph free = new CostGraph(og, CostModel.defaults());
      int[] optimum = DynamicProgramming.solve(free);
      double need = free.total(optimum).memory();
      double least = free.total(DynamicProgramming.run(free, null, 0, 1)).memory();
      if (least >= need * 0.95) {
        continue; // the optimum is (nearly) the least-memory assignment: nothing to trade
      }
      tested++;
      double capacity = (least + need) / 2;
      CostGraph limited = new CostGraph(og, withCapacity(capacity));
      int[] fits = DynamicProgramming.solve(limited);
      assertTrue(limited.total(fits).memory() <= capacity, "graph " + k + " over capacity");
      assertTrue(objective(limited, fits) >= objective(free, optimum) * (1 - 1e-9));
      CostGraph tooSmall = new CostGraph(og, withCapacity(least * 0.5));
      dev.msjvm.engine.MsException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              dev.msjvm.engine.MsException.class, () -> DynamicProgramming.solve(tooSmall));
      assertTrue(e.getMessage().startsWith("No available cost. The minimum memory cost is: "));
    }
    assertTrue(tested >= 3, "only " + tested + " graphs trade memory for cost");
  }
}
