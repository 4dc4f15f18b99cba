package dev.msjvm.engine.parallel.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.msjvm.engine.parallel.TensorLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Why the search chose what it chose: per operator its strategy, its own cost broken down
 * (computation, forward and total communication, memory, objective), what its edges to the
 * neighbours cost, and the best strategy it rejected with how much more that would have cost with
 * every other choice as it is ({@code local} = own cost + incident edges). Parameters and dataset
 * inputs report their layout. The same content as JSON ({@link #json}) and text ({@link #text}).
 *
 * <p>The inserted collectives themselves are in the partitioner's plan report, each tied to the
 * input edge (consumer, producer) or the partial output (forward or backward node) causing it.
 */
public final class SearchReport {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private SearchReport() {}

  /** The report as JSON; {@code label} names node {@code v} (e.g. with its graph index). */
  public static String json(CostGraph g, int[] chosen, String mode, IntFunction<String> label) {
    CostModel m = g.model();
    ObjectNode root = JSON.createObjectNode();
    root.put("search_mode", mode);
    root.put("devices", g.graph().devices());
    root.put("objective", g.total(chosen).objective(m));
    ObjectNode model = root.putObject("cost_model");
    model.put("alpha", m.alpha());
    model.put("beta", m.beta());
    model.put("gamma", m.gamma());
    ArrayNode nodes = root.putArray("nodes");
    for (int v = 0; v < g.size(); v++) {
      OpGraph.Node node = g.graph().nodes().get(v);
      CostGraph.Candidate c = g.candidates(v).get(chosen[v]);
      ObjectNode n = nodes.addObject();
      n.put("node", label.apply(v));
      n.put("kind", node.kind().name().toLowerCase(Locale.ROOT));
      n.put("name", node.name());
      n.put("configured", node.isConfigured());
      if (node.kind() == OpGraph.Kind.OP) {
        n.put("strategy", TensorLayout.strategyString(c.strategy()));
        cost(n.putObject("cost"), c.cost(), m);
      } else {
        n.put("layout", c.outputs().get(0).toString());
      }
      n.put("edges", g.edgeObjective(v, chosen[v], chosen));
      n.put("candidates", g.candidates(v).size());
      int alt = bestAlternative(g, chosen, v);
      if (alt >= 0) {
        ObjectNode r = n.putObject("best_rejected");
        CostGraph.Candidate a = g.candidates(v).get(alt);
        r.put(
            "strategy",
            node.kind() == OpGraph.Kind.OP
                ? TensorLayout.strategyString(a.strategy())
                : a.outputs().get(0).toString());
        r.put("delta", g.localObjective(v, alt, chosen) - g.localObjective(v, chosen[v], chosen));
      }
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void cost(ObjectNode n, Cost c, CostModel m) {
    n.put("computation", c.computation());
    n.put("communication", c.communication());
    n.put("communication_forward", c.communicationForward());
    n.put("communication_with_partial_para", c.communicationWithPartialPara());
    n.put("memory", c.memory());
    n.put("objective", c.objective(m));
  }

  /** The report as text, one line per operator. */
  public static String text(CostGraph g, int[] chosen, String mode, IntFunction<String> label) {
    CostModel m = g.model();
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "search_mode %s on %d devices: objective %.1f (alpha %s, beta %s, gamma %s)%n",
            mode,
            g.graph().devices(),
            g.total(chosen).objective(m),
            m.alpha(),
            m.beta(),
            m.gamma()));
    for (int v = 0; v < g.size(); v++) {
      OpGraph.Node node = g.graph().nodes().get(v);
      if (node.kind() != OpGraph.Kind.OP) {
        continue;
      }
      CostGraph.Candidate c = g.candidates(v).get(chosen[v]);
      Cost k = c.cost();
      sb.append(
          String.format(
              Locale.ROOT,
              "%s %s%s %s: objective %.1f (computation %.0f, communication %.0f of which forward"
                  + " %.0f, memory %.0f), edges %.1f",
              label.apply(v),
              node.name(),
              node.isConfigured() ? " [configured]" : "",
              TensorLayout.strategyString(c.strategy()),
              k.objective(m),
              k.computation(),
              k.communication(),
              k.communicationForward(),
              k.memory(),
              g.edgeObjective(v, chosen[v], chosen)));
      int alt = bestAlternative(g, chosen, v);
      if (alt >= 0) {
        sb.append(
            String.format(
                Locale.ROOT,
                "; best rejected %s +%.1f",
                TensorLayout.strategyString(g.candidates(v).get(alt).strategy()),
                g.localObjective(v, alt, chosen) - g.localObjective(v, chosen[v], chosen)));
      }
      sb.append(System.lineSeparator());
    }
    return sb.toString();
  }

  /** The other candidate of {@code v} with the lowest local cost, or -1 if it has none. */
  static int bestAlternative(CostGraph g, int[] chosen, int v) {
    int best = -1;
    double bestCost = Double.POSITIVE_INFINITY;
    for (int c = 0; c < g.candidates(v).size(); c++) {
      if (c == chosen[v]) {
        continue;
      }
      double cost = g.localObjective(v, c, chosen);
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    return best;
  }
}
