package dev.msjvm.engine.parallel.search;

/**
 * Improves a full assignment of a {@link CostGraph} under its own objective by best responses: each
 * node in turn takes the candidate minimising its own cost plus its edges' costs with every
 * neighbour as it is, sweeping until a sweep changes nothing (at most {@link #MAX_SWEEPS}). Never
 * makes the total worse; each sweep is linear in the candidates times the degrees.
 *
 * <p>Used after {@code recursive_programming}: SAPP's own operator costs ignore what MindSpore's
 * cost model charges for moving tensors between the layouts it picks (e.g. a replicated MatMul
 * after a batch-split softmax), which one sweep of this repairs.
 */
public final class LocalRefinement {

  static final int MAX_SWEEPS = 10;

  private LocalRefinement() {}

  /**
   * The candidate index of every node under per-node strategies (null: the node's first candidate;
   * parameters take the layout their first user needs, as the partitioner places them).
   */
  public static int[] fromStrategies(
      CostGraph g, java.util.List<java.util.List<java.util.List<Integer>>> strategies) {
    int[] chosen = new int[g.size()];
    for (int v = 0; v < g.size(); v++) {
      java.util.List<java.util.List<Integer>> s = strategies.get(v);
      for (int c = 0; s != null && c < g.candidates(v).size(); c++) {
        if (g.candidates(v).get(c).strategy().equals(s)) {
          chosen[v] = c;
        }
      }
    }
    for (int v = 0; v < g.size(); v++) {
      if (g.graph().nodes().get(v).kind() == OpGraph.Kind.PARAM && !g.outEdges(v).isEmpty()) {
        CostGraph.Edge first = g.edges().get(g.outEdges(v).get(0));
        var need = g.candidates(first.to()).get(chosen[first.to()]).inputs().get(first.input());
        for (int c = 0; c < g.candidates(v).size(); c++) {
          if (dev.msjvm.engine.parallel.rules.Layouts.sameSlices(
              g.candidates(v).get(c).outputs().get(0), need)) {
            chosen[v] = c;
          }
        }
      }
    }
    return chosen;
  }

  /** {@code start} improved in place; returns it. */
  public static int[] improve(CostGraph g, int[] start) {
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
      boolean changed = false;
      for (int v = 0; v < g.size(); v++) {
        if (g.graph().nodes().get(v).isConfigured()) {
          continue;
        }
        int best = start[v];
        double bestCost = g.localObjective(v, start[v], start);
        for (int c = 0; c < g.candidates(v).size(); c++) {
          double cost = g.localObjective(v, c, start);
          double margin = Double.isInfinite(bestCost) ? 0 : 1e-9 * Math.abs(bestCost);
          if (cost < bestCost - margin) {
            best = c;
            bestCost = cost;
          }
        }
        if (best != start[v]) {
          start[v] = best;
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
    }
    return start;
  }
}
