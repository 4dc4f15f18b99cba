package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.MsException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code sharding_propagation} (MindSpore's {@code CostGraph::StrategyPropagate}, reference §3.3):
 * strategies spread from the configured nodes (user {@code shard}s, {@code parameter_plan}s, the
 * dataset inputs) to their neighbours, breadth first, each neighbour taking the candidate that
 * costs least to connect to the neighbours already decided.
 *
 * <p>Configured nodes are visited in topological order (the dataset inputs last, as MindSpore's
 * VirtualDataset), each starting its own breadth-first walk over out-edges then in-edges; a node
 * keeps the strategy it got first (at the smallest depth) and a configured node is never changed. A
 * node reached forward while one of its other producers is still undecided waits (MindSpore's
 * {@code waitting_list_}, kept across walks): when a walk has nothing else to do, the first waiting
 * node is decided and walked from, unless the next walk starts before it in topological order
 * ({@code ExistPrevConfiguredOps}), so a multi-input op sees all its inputs when it can; a walk
 * does not cross between two Reshapes. Choice among candidates ({@code CompareSwcCost}): lowest
 * summed edge communication to the decided neighbours, then lowest edge computation, then lowest
 * own forward communication, then the earlier candidate. Nodes no walk reaches take their first
 * candidate, as MindSpore does.
 */
public final class ShardingPropagation {

  private ShardingPropagation() {}

  /** The chosen candidate of every node of {@code g}. */
  public static int[] solve(CostGraph g) {
    int n = g.size();
    int[] chosen = new int[n];
    Arrays.fill(chosen, -1);
    boolean[] visited = new boolean[n];
    // Configured operators in topological order, the dataset inputs last: MindSpore gives the
    // VirtualDataset the largest topological index (TOTAL_OPS_MAX), so a user's shard spreads
    // before the dataset's strategy does.
    List<Integer> configured =
        java.util.stream.IntStream.range(0, n)
            .filter(v -> g.graph().nodes().get(v).isConfigured())
            .boxed()
            .sorted(
                java.util.Comparator.comparing(
                    v -> g.graph().nodes().get(v).kind() == OpGraph.Kind.DATA))
            .toList();
    if (configured.isEmpty()) {
      throw MsException.runtimeError("There is no operator that is configured sharding strategy.");
    }
    // A configured operator is decided from the start; a dataset input only when its own walk
    // begins, so the walks before it do not price edges to it (MindSpore's VirtualDataset is
    // visited last).
    for (int c : configured) {
      if (g.graph().nodes().get(c).kind() != OpGraph.Kind.DATA) {
        chosen[c] = 0;
      }
    }
    // MindSpore's waitting_list_: kept across the walks, so a multi-input operator waits for a
    // producer a later walk decides.
    TreeSet<Integer> waiting = new TreeSet<>();
    for (int at = 0; at < configured.size(); at++) {
      int c = configured.get(at);
      chosen[c] = 0;
      Deque<Integer> queue = new ArrayDeque<>();
      queue.add(c);
      int next = at + 1 < configured.size() ? configured.get(at + 1) : -1;
      while (!queue.isEmpty() || !waiting.isEmpty()) {
        if (queue.isEmpty()) {
          waiting.removeIf(w -> chosen[w] >= 0); // decided meanwhile by some walk
          if (waiting.isEmpty() || startsBefore(g, next, waiting.first())) {
            // ExistPrevConfiguredOps: the next walk starts before the waiting operator, so it
            // may still decide that operator's other producers.
            break;
          }
          int w = waiting.pollFirst();
          chosen[w] = best(g, w, chosen);
          queue.add(w);
          continue;
        }
        int u = queue.poll();
        if (visited[u]) {
          continue;
        }
        visited[u] = true;
        for (int e : g.outEdges(u)) {
          int v = g.edges().get(e).to();
          if (chosen[v] >= 0 || visited[v] || reshapes(g, u, v)) {
            continue;
          }
          if (otherProducerUndecided(g, v, u, chosen)) {
            waiting.add(v);
            continue;
          }
          chosen[v] = best(g, v, chosen);
          queue.add(v);
        }
        for (int e : g.inEdges(u)) {
          int v = g.edges().get(e).from();
          if (chosen[v] >= 0 || visited[v] || reshapes(g, u, v)) {
            continue;
          }
          chosen[v] = best(g, v, chosen);
          queue.add(v);
        }
      }
    }
    for (int v = 0; v < n; v++) {
      if (chosen[v] < 0) {
        chosen[v] = 0;
      }
    }
    return chosen;
  }

  /**
   * Whether {@code u} and {@code v} are both Reshapes: a walk does not cross from one to the other
   * (MindSpore's BFS asks the first Reshape for a selected strategy, which a Reshape never has, and
   * stops there with "No available strategy found").
   */
  private static boolean reshapes(CostGraph g, int u, int v) {
    OpGraph.Node a = g.graph().nodes().get(u);
    OpGraph.Node b = g.graph().nodes().get(v);
    return a.kind() == OpGraph.Kind.OP
        && b.kind() == OpGraph.Kind.OP
        && a.name().equals("Reshape")
        && b.name().equals("Reshape");
  }

  /**
   * Whether the walk from configured node {@code next} (-1: none) starts before node {@code w} in
   * topological order; a dataset input's walk starts after every node (MindSpore's VirtualDataset,
   * TOTAL_OPS_MAX).
   */
  private static boolean startsBefore(CostGraph g, int next, int w) {
    return next >= 0 && g.graph().nodes().get(next).kind() != OpGraph.Kind.DATA && next < w;
  }

  private static boolean otherProducerUndecided(CostGraph g, int v, int u, int[] chosen) {
    for (int e : g.inEdges(v)) {
      int w = g.edges().get(e).from();
      if (w != u && chosen[w] < 0) {
        return true;
      }
    }
    return false;
  }

  /** The candidate of {@code v} cheapest to connect to its decided neighbours. */
  static int best(CostGraph g, int v, int[] chosen) {
    List<CostGraph.Candidate> cands = g.candidates(v);
    int best = 0;
    double[] bestKey = null;
    for (int c = 0; c < cands.size(); c++) {
      double comm = 0;
      double comp = 0;
      for (int e : g.inEdges(v)) {
        int w = g.edges().get(e).from();
        if (chosen[w] >= 0) {
          Cost k = g.edgeCost(e, chosen[w], c);
          comm += k.communication();
          comp += k.computation();
        }
      }
      for (int e : g.outEdges(v)) {
        int w = g.edges().get(e).to();
        if (chosen[w] >= 0) {
          Cost k = g.edgeCost(e, c, chosen[w]);
          comm += k.communication();
          comp += k.computation();
        }
      }
      double[] key = {comm, comp, cands.get(c).cost().communicationForward()};
      if (bestKey == null || Arrays.compare(key, bestKey) < 0) {
        best = c;
        bestKey = key;
      }
    }
    return best;
  }
}
