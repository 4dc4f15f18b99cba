package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.MsException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * {@code dynamic_programming} (MindSpore's {@code GetStrategy}, reference §3.1): shrink the cost
 * graph by eliminations tried in MindSpore's order — op, edge, merge, contract, triangle, star —
 * restarting from the first after each one applied, solve what is left, then replay the
 * eliminations backwards to recover every node's strategy.
 *
 * <p>Costs are scalars: the training objective {@code α·computation + β·communication with partial
 * parameters} of each candidate and edge pair (the objective is a sum, so the minimum of a sum over
 * an eliminated node is exact). Every elimination is exact, so the result is the optimum of the
 * cost model (the property test compares it with brute force):
 *
 * <ol>
 *   <li>op: {@code u→v→w} becomes an edge {@code u→w} with {@code min over s_v};
 *   <li>edge: edges between the same two nodes (either direction) become one, summed;
 *   <li>merge: a source {@code w} with one edge {@code w→v} folds into {@code v}'s cost;
 *   <li>contract: a sink {@code v} with one edge {@code u→v} folds into {@code u}'s cost;
 *   <li>triangle: a source {@code u} with edges to {@code v} and {@code w}, which are joined,
 *       becomes part of the {@code v–w} edge (MindSpore folds it into {@code v} and fixes {@code
 *       w}'s strategy, which can miss the optimum);
 *   <li>star: a source {@code u} with several successors merges with its first successor into one
 *       node whose candidates are the pairs (MindSpore enumerates the successors the same way).
 * </ol>
 *
 * If none applies while edges remain (a cycle of undirected edges), the two ends of the first edge
 * merge as in star. What is left are single nodes, each taking its cheapest candidate (ties: the
 * earlier). The product of candidates of a merged node is bounded: past {@link #MAX_CANDIDATES} the
 * search gives up with a RuntimeError (MindSpore's DP is likewise exponential in fan-out).
 */
public final class DynamicProgramming {

  /** The most candidates a merged node may have. */
  static final long MAX_CANDIDATES = 1L << 22;

  /** Per node (merged nodes appended): its candidate costs and whether it is still in the graph. */
  private final List<double[]> unary = new ArrayList<>();

  private final List<Boolean> alive = new ArrayList<>();

  private final List<DpEdge> edges = new ArrayList<>();

  /**
   * Per node, the edges that enter / leave it (stale entries, dead or re-pointed, are dropped
   * lazily).
   */
  private final List<List<DpEdge>> inAdj = new ArrayList<>();

  private final List<List<DpEdge>> outAdj = new ArrayList<>();
  private final Deque<Runnable> recover = new ArrayDeque<>();
  private int[] choice;

  /** How often each elimination applied: op, edge, merge, contract, triangle, star, other. */
  private final int[] applied = new int[7];

  /** An edge of the shrinking graph: a cost for every pair of the two nodes' candidates. */
  private static final class DpEdge {
    int from;
    int to;
    double[][] cost;
    boolean alive = true;

    DpEdge(int from, int to, double[][] cost) {
      this.from = from;
      this.to = to;
      this.cost = cost;
    }
  }

  /**
   * A search minimising {@code weight·objective + lambda·memory} of every candidate and edge
   * ({@code weight} 1 and {@code lambda} 0: the plain objective).
   */
  private DynamicProgramming(Costs costs, double weight, double lambda) {
    for (int n = 0; n < costs.unaryObjective.length; n++) {
      double[] o = costs.unaryObjective[n];
      double[] mem = costs.unaryMemory[n];
      double[] u = new double[o.length];
      for (int s = 0; s < u.length; s++) {
        u[s] = weight * o[s] + lambda * mem[s];
      }
      unary.add(u);
      alive.add(true);
      inAdj.add(new ArrayList<>());
      outAdj.add(new ArrayList<>());
    }
    for (int e = 0; e < costs.edges.size(); e++) {
      CostGraph.Edge edge = costs.edges.get(e);
      double[][] o = costs.edgeObjective[e];
      double[][] mem = costs.edgeMemory[e];
      double[][] cost = new double[o.length][];
      for (int a = 0; a < cost.length; a++) {
        cost[a] = new double[o[a].length];
        for (int b = 0; b < cost[a].length; b++) {
          cost[a][b] = weight * o[a][b] + lambda * mem[a][b];
        }
      }
      addEdge(new DpEdge(edge.from(), edge.to(), cost));
    }
  }

  /**
   * The objective and memory of every candidate and edge pair of a cost graph, read once: a search
   * under a memory price combines them without asking the cost graph again.
   */
  static final class Costs {
    final double[][] unaryObjective;
    final double[][] unaryMemory;
    final List<CostGraph.Edge> edges;
    final double[][][] edgeObjective;
    final double[][][] edgeMemory;

    Costs(CostGraph graph) {
      CostModel m = graph.model();
      int n = graph.size();
      unaryObjective = new double[n][];
      unaryMemory = new double[n][];
      for (int v = 0; v < n; v++) {
        List<CostGraph.Candidate> c = graph.candidates(v);
        if (c.isEmpty()) {
          throw MsException.runtimeError(
              "No available strategy for " + graph.graph().nodes().get(v).name() + ".");
        }
        unaryObjective[v] = new double[c.size()];
        unaryMemory[v] = new double[c.size()];
        for (int s = 0; s < c.size(); s++) {
          unaryObjective[v][s] = c.get(s).cost().objective(m);
          unaryMemory[v][s] = c.get(s).cost().memory();
        }
      }
      edges = graph.edges();
      edgeObjective = new double[edges.size()][][];
      edgeMemory = new double[edges.size()][][];
      for (int e = 0; e < edges.size(); e++) {
        CostGraph.Edge edge = edges.get(e);
        int ka = unaryObjective[edge.from()].length;
        int kb = unaryObjective[edge.to()].length;
        edgeObjective[e] = new double[ka][kb];
        edgeMemory[e] = new double[ka][kb];
        for (int a = 0; a < ka; a++) {
          for (int b = 0; b < kb; b++) {
            Cost k = graph.edgeCost(e, a, b);
            edgeObjective[e][a][b] = k.objective(m);
            edgeMemory[e][a][b] = k.memory();
          }
        }
      }
    }
  }

  /**
   * The chosen candidate of every node of {@code g}, minimising the summed objective with the
   * summed memory within the model's {@code device_memory_capacity}. When the unconstrained optimum
   * needs more, memory gets a price {@code λ} (Lagrangian relaxation: the cheapest assignment under
   * {@code objective + λ·memory} for the smallest {@code λ} found, by doubling then bisection,
   * whose memory fits, at most 17 more searches); if even the least-memory assignment does not fit,
   * MindSpore's "No available cost" as a RuntimeError. MindSpore filters its Pareto lists by memory
   * instead; with scalar costs the price is what keeps every step exact.
   */
  public static int[] solve(CostGraph g) {
    Costs costs = new Costs(g);
    int[] best = run(costs, g.size(), null, 1, 0);
    Cost at = g.total(best);
    if (Double.isInfinite(at.computation())) {
      throw MsException.runtimeError(
          "Generating cost for edge failed: elementwise_op_strategy_follow leaves no strategy of"
              + " the operators that their pointwise producers can share without"
              + " redistribution.");
    }
    double capacity = g.model().deviceMemoryCapacity();
    if (at.memory() <= capacity) {
      return best;
    }
    int[] least = run(costs, g.size(), null, 0, 1);
    double minimum = g.total(least).memory();
    if (minimum > capacity) {
      throw MsException.runtimeError(
          "No available cost. The minimum memory cost is: "
              + minimum
              + ", the memory capacity is: "
              + capacity
              + ".");
    }
    // Price memory from a fraction of the optimum's objective per byte, growing 16x until the
    // answer fits, then narrow the last step a few times: a handful of searches, not dozens.
    double lo = 0;
    double hi = 1e-3 * at.objective(g.model()) / Math.max(1, at.memory());
    int[] fits = least;
    for (int k = 0; k < 12; k++, hi *= 16) {
      int[] s = run(costs, g.size(), null, 1, hi);
      if (g.total(s).memory() <= capacity) {
        fits = s;
        break;
      }
      lo = hi;
    }
    for (int k = 0; k < 5; k++) {
      double mid = (lo + hi) / 2;
      int[] s = run(costs, g.size(), null, 1, mid);
      if (g.total(s).memory() <= capacity) {
        fits = s;
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return fits;
  }

  /**
   * {@link #solve} without a memory limit, filling {@code applied} with the count of each
   * elimination.
   */
  static int[] run(CostGraph g, int[] applied) {
    return run(g, applied, 1, 0);
  }

  /**
   * One search minimising {@code weight·objective + lambda·memory} (for {@link #solve} and tests).
   */
  static int[] run(CostGraph g, int[] applied, double weight, double lambda) {
    return run(new Costs(g), g.size(), applied, weight, lambda);
  }

  private static int[] run(Costs costs, int nodes, int[] applied, double weight, double lambda) {
    DynamicProgramming dp = new DynamicProgramming(costs, weight, lambda);
    dp.shrink();
    dp.finish();
    if (applied != null) {
      System.arraycopy(dp.applied, 0, applied, 0, dp.applied.length);
    }
    int[] out = new int[nodes];
    System.arraycopy(dp.choice, 0, out, 0, nodes);
    return out;
  }

  private int size(int node) {
    return unary.get(node).length;
  }

  private void shrink() {
    List<java.util.function.BooleanSupplier> checks =
        List.of(
            this::opElimination,
            this::edgeElimination,
            this::mergeElimination,
            this::contractElimination,
            this::triangleElimination,
            this::starElimination,
            this::anyEdgeMerge);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = 0; k < checks.size() && !changed; k++) {
        if (checks.get(k).getAsBoolean()) {
          applied[k]++;
          changed = true; // each step removes a node or an edge; restart from the first check
        }
      }
    }
  }

  private void finish() {
    choice = new int[unary.size()];
    for (int n = 0; n < unary.size(); n++) {
      if (alive.get(n)) {
        choice[n] = argmin(unary.get(n));
      }
    }
    while (!recover.isEmpty()) {
      recover.pop().run();
    }
  }

  private void addEdge(DpEdge e) {
    edges.add(e);
    outAdj.get(e.from).add(e);
    inAdj.get(e.to).add(e);
  }

  /** The live edges entering {@code n} (compacting its list). */
  private List<DpEdge> in(int n) {
    List<DpEdge> list = inAdj.get(n);
    list.removeIf(e -> !e.alive || e.to != n);
    return list;
  }

  /** The live edges leaving {@code n} (compacting its list). */
  private List<DpEdge> out(int n) {
    List<DpEdge> list = outAdj.get(n);
    list.removeIf(e -> !e.alive || e.from != n);
    return list;
  }

  private boolean opElimination() {
    for (int v = 0; v < unary.size(); v++) {
      if (!alive.get(v)) {
        continue;
      }
      List<DpEdge> in = in(v);
      List<DpEdge> out = out(v);
      if (in.size() != 1 || out.size() != 1 || in.get(0).from == out.get(0).to) {
        continue;
      }
      DpEdge a = in.get(0);
      DpEdge b = out.get(0);
      int u = a.from;
      int w = b.to;
      double[] cv = unary.get(v);
      double[][] cost = new double[size(u)][size(w)];
      int[][] arg = new int[size(u)][size(w)];
      for (int su = 0; su < size(u); su++) {
        for (int sw = 0; sw < size(w); sw++) {
          double best = Double.POSITIVE_INFINITY;
          for (int sv = 0; sv < cv.length; sv++) {
            double c = a.cost[su][sv] + cv[sv] + b.cost[sv][sw];
            if (c < best) {
              best = c;
              arg[su][sw] = sv;
            }
          }
          cost[su][sw] = best;
        }
      }
      kill(v, a, b);
      addEdge(new DpEdge(u, w, cost));
      int node = v;
      recover.push(() -> choice[node] = arg[choice[u]][choice[w]]);
      return true;
    }
    return false;
  }

  private boolean edgeElimination() {
    for (int u = 0; u < unary.size(); u++) {
      if (!alive.get(u)) {
        continue;
      }
      List<DpEdge> out = out(u);
      List<DpEdge> incident = new ArrayList<>(out);
      incident.addAll(in(u));
      for (int i = 0; i < out.size(); i++) {
        DpEdge e = out.get(i);
        for (DpEdge f : incident) {
          if (f == e) {
            continue;
          }
          if (f.from == e.from && f.to == e.to) {
            add(e.cost, f.cost, false);
          } else if (f.from == e.to && f.to == e.from) {
            add(e.cost, f.cost, true);
          } else {
            continue;
          }
          f.alive = false;
          return true;
        }
      }
    }
    return false;
  }

  private static void add(double[][] into, double[][] more, boolean transposed) {
    for (int a = 0; a < into.length; a++) {
      for (int b = 0; b < into[a].length; b++) {
        into[a][b] += transposed ? more[b][a] : more[a][b];
      }
    }
  }

  /** Merge: a source with one edge folds into its successor. */
  private boolean mergeElimination() {
    return foldLeaf(true);
  }

  /** Contract: a sink with one edge folds into its predecessor. */
  private boolean contractElimination() {
    return foldLeaf(false);
  }

  /**
   * Folds the first live node with no edges on one side ({@code source}: no in-edges) and exactly
   * one on the other into the node at the other end of that edge.
   */
  private boolean foldLeaf(boolean source) {
    for (int gone = 0; gone < unary.size(); gone++) {
      if (!alive.get(gone) || !(source ? in(gone) : out(gone)).isEmpty()) {
        continue;
      }
      List<DpEdge> other = source ? out(gone) : in(gone);
      if (other.size() != 1) {
        continue;
      }
      DpEdge e = other.get(0);
      int keep = source ? e.to : e.from;
      int[] arg = foldInto(keep, gone, e, !source);
      kill(gone, e);
      int node = gone;
      recover.push(() -> choice[node] = arg[choice[keep]]);
      return true;
    }
    return false;
  }

  /**
   * Adds to {@code keep}'s costs, per its candidate, the cheapest candidate of {@code gone} plus
   * the edge; returns that candidate per candidate of {@code keep}. {@code keepIsFrom}: the edge
   * runs keep→gone.
   */
  private int[] foldInto(int keep, int gone, DpEdge e, boolean keepIsFrom) {
    double[] ck = unary.get(keep);
    double[] cg = unary.get(gone);
    int[] arg = new int[ck.length];
    for (int sk = 0; sk < ck.length; sk++) {
      double best = Double.POSITIVE_INFINITY;
      for (int sg = 0; sg < cg.length; sg++) {
        double c = cg[sg] + (keepIsFrom ? e.cost[sk][sg] : e.cost[sg][sk]);
        if (c < best) {
          best = c;
          arg[sk] = sg;
        }
      }
      ck[sk] += best;
    }
    return arg;
  }

  private boolean triangleElimination() {
    for (int u = 0; u < unary.size(); u++) {
      if (!alive.get(u) || !in(u).isEmpty()) {
        continue;
      }
      List<DpEdge> out = out(u);
      if (out.size() != 2 || out.get(0).to == out.get(1).to) {
        continue;
      }
      DpEdge uv = out.get(0);
      DpEdge uw = out.get(1);
      int v = uv.to;
      int w = uw.to;
      DpEdge vw = between(v, w);
      if (vw == null) {
        continue;
      }
      double[] cu = unary.get(u);
      int[][] arg = new int[size(v)][size(w)];
      for (int sv = 0; sv < size(v); sv++) {
        for (int sw = 0; sw < size(w); sw++) {
          double best = Double.POSITIVE_INFINITY;
          for (int su = 0; su < cu.length; su++) {
            double c = cu[su] + uv.cost[su][sv] + uw.cost[su][sw];
            if (c < best) {
              best = c;
              arg[sv][sw] = su;
            }
          }
          if (vw.from == v) {
            vw.cost[sv][sw] += best;
          } else {
            vw.cost[sw][sv] += best;
          }
        }
      }
      kill(u, uv, uw);
      int node = u;
      recover.push(() -> choice[node] = arg[choice[v]][choice[w]]);
      return true;
    }
    return false;
  }

  private DpEdge between(int a, int b) {
    for (DpEdge e : out(a)) {
      if (e.to == b) {
        return e;
      }
    }
    for (DpEdge e : in(a)) {
      if (e.from == b) {
        return e;
      }
    }
    return null;
  }

  private boolean starElimination() {
    for (int u = 0; u < unary.size(); u++) {
      if (alive.get(u) && in(u).isEmpty() && out(u).size() > 1) {
        merge(u, out(u).get(0).to);
        return true;
      }
    }
    return false;
  }

  private boolean anyEdgeMerge() {
    for (DpEdge e : edges) {
      if (e.alive) {
        merge(e.from, e.to);
        return true;
      }
    }
    return false;
  }

  /**
   * Replaces {@code a} and {@code b} by one node whose candidate {@code sa·|b| + sb} is the pair;
   * edges between them become part of its cost, the others are re-pointed to it.
   */
  private void merge(int a, int b) {
    int ka = size(a);
    int kb = size(b);
    if ((long) ka * kb > MAX_CANDIDATES) {
      throw MsException.runtimeError(
          "The dynamic_programming search space is too large: merging two operators with "
              + ka
              + " and "
              + kb
              + " strategies exceeds "
              + MAX_CANDIDATES
              + " strategy pairs. Use search_mode 'recursive_programming' or "
              + "'sharding_propagation'.");
    }
    int p = unary.size();
    double[] cp = new double[ka * kb];
    for (int sa = 0; sa < ka; sa++) {
      for (int sb = 0; sb < kb; sb++) {
        cp[sa * kb + sb] = unary.get(a)[sa] + unary.get(b)[sb];
      }
    }
    unary.add(cp);
    alive.add(true);
    inAdj.add(new ArrayList<>());
    outAdj.add(new ArrayList<>());
    java.util.Set<DpEdge> incident = new java.util.LinkedHashSet<>();
    for (int node : new int[] {a, b}) {
      incident.addAll(in(node));
      incident.addAll(out(node));
    }
    for (DpEdge e : incident) {
      boolean touchesA = e.from == a || e.to == a;
      boolean touchesB = e.from == b || e.to == b;
      if (touchesA && touchesB) {
        for (int sa = 0; sa < ka; sa++) {
          for (int sb = 0; sb < kb; sb++) {
            cp[sa * kb + sb] += e.from == a ? e.cost[sa][sb] : e.cost[sb][sa];
          }
        }
        e.alive = false;
      } else if (touchesA || touchesB) {
        boolean fromSide = e.from == a || e.from == b;
        int other = fromSide ? e.to : e.from;
        double[][] cost =
            fromSide ? new double[ka * kb][size(other)] : new double[size(other)][ka * kb];
        for (int sa = 0; sa < ka; sa++) {
          for (int sb = 0; sb < kb; sb++) {
            int own = touchesA ? sa : sb;
            for (int so = 0; so < size(other); so++) {
              if (fromSide) {
                cost[sa * kb + sb][so] = e.cost[own][so];
              } else {
                cost[so][sa * kb + sb] = e.cost[so][own];
              }
            }
          }
        }
        e.cost = cost;
        if (fromSide) {
          e.from = p;
          outAdj.get(p).add(e);
        } else {
          e.to = p;
          inAdj.get(p).add(e);
        }
      }
    }
    alive.set(a, false);
    alive.set(b, false);
    recover.push(
        () -> {
          choice[a] = choice[p] / kb;
          choice[b] = choice[p] % kb;
        });
  }

  private void kill(int node, DpEdge... gone) {
    alive.set(node, false);
    for (DpEdge e : gone) {
      e.alive = false;
    }
  }

  private static int argmin(double[] costs) {
    int best = 0;
    for (int s = 1; s < costs.length; s++) {
      if (costs[s] < costs[best]) {
        best = s;
      }
    }
    return best;
  }
}
