package dev.msjvm.engine.exec;

import dev.msjvm.engine.exec.Graph.Arg;
import dev.msjvm.engine.exec.Graph.Node;
import dev.msjvm.engine.exec.Graph.Out;
import dev.msjvm.engine.exec.Graph.Ref;
import dev.msjvm.engine.exec.Graph.Var;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.StrategyFile;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.EinsumSpec;
import dev.msjvm.engine.parallel.rules.Layouts;
import dev.msjvm.engine.parallel.rules.OptimizerRules;
import dev.msjvm.engine.parallel.rules.Rules;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.parallel.search.CostGraph;
import dev.msjvm.engine.parallel.search.CostModel;
import dev.msjvm.engine.parallel.search.LocalRefinement;
import dev.msjvm.engine.parallel.search.OpGraph;
import dev.msjvm.engine.parallel.search.RecursiveProgramming;
import dev.msjvm.engine.parallel.search.SearchReport;
import dev.msjvm.engine.parallel.search.StrategySearch;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * {@code auto_parallel}: chooses a strategy for every forward operator call of a graph traced on
 * global shapes, then hands the graph to the {@link SpmdPartitioner} with those strategies written
 * into the calls' {@code in_strategy} (backward and optimizer nodes follow them, as for user
 * strategies).
 *
 * <p>The search sees the forward calls ({@link Graph#forwardNodes}) that have a sharding rule and
 * update no state, each parameter read by them (its {@code Load}s are the parameter) and each graph
 * argument with its dataset-strategy layout; constants are free. Calls with a user strategy stay as
 * they are.
 */
public final class StrategySearchPass {

  /**
   * The graph with the chosen strategies, the cost graph searched and the choice per cost-graph
   * node (both null for {@code recursive_programming}, which builds none), the cost-graph node of
   * each searched graph node, and the parameters whose searched layout gives other slices than
   * their first user's input layout (a {@code parameter_plan}, or a layout shared by several
   * users): the partitioner places them so ({@code placed}).
   */
  public record Result(
      Graph graph,
      CostGraph costs,
      int[] chosen,
      Map<Integer, Integer> opNodes,
      Map<Variable, TensorLayout> paramLayouts,
      String mode,
      Map<Integer, String> opNames) {

    /**
     * The strategy every searched or configured operator runs with, by its operator name ({@code
     * Default/<Prim>-op<k>}, k counting the forward operators), for {@code
     * save_operator_strategy_file}.
     */
    public StrategyFile.OperatorStrategies operatorStrategies() {
      Map<String, StrategyFile.StrategyEntry> in = new LinkedHashMap<>();
      Map<String, StrategyFile.StrategyEntry> out = new LinkedHashMap<>();
      opNames.forEach(
          (n, name) -> {
            Attrs attrs = graph.nodes().get(n).attrs();
            List<List<Integer>> s = RulesOracle.strategyAttr(attrs, "in_strategy");
            if (s != null) {
              in.put(name, new StrategyFile.StrategyEntry(0, s));
            }
            List<List<Integer>> o = RulesOracle.strategyAttr(attrs, "out_strategy");
            if (o != null) {
              out.put(name, new StrategyFile.StrategyEntry(0, o));
            }
          });
      return new StrategyFile.OperatorStrategies(in, out);
    }

    /** The search report as JSON ({@link SearchReport}), or null when no cost graph was built. */
    public String reportJson() {
      return costs == null ? null : SearchReport.json(costs, chosen, mode, labels());
    }

    /** The search report as text, or null when no cost graph was built. */
    public String reportText() {
      return costs == null ? null : SearchReport.text(costs, chosen, mode, labels());
    }

    /** A cost-graph node as the plan report names it: {@code #<graph node>}, or its name. */
    private IntFunction<String> labels() {
      Map<Integer, Integer> graphNode = new HashMap<>();
      opNodes.forEach((n, v) -> graphNode.put(v, n));
      return v ->
          graphNode.containsKey(v) ? "#" + graphNode.get(v) : costs.graph().nodes().get(v).name();
    }
  }

  /**
   * {@code recursive_programming} refines SAPP's choice under the cost model ({@link
   * LocalRefinement}) up to this many operators and devices; beyond, building every candidate's
   * cost would cost more than SAPP itself, and SAPP's strategies are used as they are.
   */
  static final int REFINE_MAX_OPS = 2000;

  static final int REFINE_MAX_DEVICES = 64;

  private StrategySearchPass() {}

  /**
   * Searches {@code global} with {@code mode} ({@code sharding_propagation}, {@code
   * dynamic_programming}, {@code recursive_programming}); {@code parameterPlan} maps parameter
   * names to configured strategies ({@code Cell.shard}'s {@code parameter_plan}); {@code loadedOps}
   * (nullable): an operator strategy file whose entries fix the named operators that have no
   * strategy of their own ({@code load_operator_strategy_file}).
   */
  public static Result search(
      Graph global,
      List<TensorLayout> argLayouts,
      String mode,
      CostModel model,
      int devices,
      Map<String, List<Integer>> parameterPlan,
      StrategyFile.OperatorStrategies loadedOps) {
    Map<Integer, String> opNames = operatorNames(global);
    if (loadedOps != null) {
      global =
          StrategyCheckpointPass.withNamedStrategies(
              global, opNames, loadedOps.in(), loadedOps.out());
    }
    List<Node> nodes = global.nodes();
    List<OpGraph.Node> ops = new ArrayList<>();
    Map<Integer, Integer> opOf = new LinkedHashMap<>();
    Map<Integer, Integer> dataOf = new HashMap<>();
    Map<Variable, Integer> paramOf = new IdentityHashMap<>();
    Map<Integer, Variable> loads = new HashMap<>();
    java.util.Set<Integer> dataParallelOps = new java.util.HashSet<>();
    for (int n = 0; n < global.forwardNodes(); n++) {
      Node node = nodes.get(n);
      String op = node.op().name();
      if (op.equals("Load") && node.inputs()[0] instanceof Var v) {
        loads.put(n, v.variable());
        continue;
      }
      if (!searched(node)) {
        continue;
      }
      List<OpGraph.Src> inputs = new ArrayList<>();
      for (Ref r : node.inputs()) {
        inputs.add(
            switch (r) {
              case Arg a ->
                  new OpGraph.Src(
                      dataOf.computeIfAbsent(
                          a.index(),
                          k -> add(ops, OpGraph.Node.data("arg" + k, argLayouts.get(k)))),
                      0);
              case Out o when loads.containsKey(o.node()) -> {
                Variable v = loads.get(o.node());
                yield new OpGraph.Src(
                    paramOf.computeIfAbsent(
                        v,
                        k ->
                            add(
                                ops,
                                OpGraph.Node.param(
                                    k.name(),
                                    node.inShapes()[inputs.size()],
                                    parameterPlan.get(k.name())))),
                    0);
              }
              case Out o when opOf.containsKey(o.node()) ->
                  new OpGraph.Src(opOf.get(o.node()), o.index());
              default -> null;
            });
      }
      List<List<Integer>> dataParallel = dataParallelStrategy(node, devices);
      if (dataParallel != null) {
        dataParallelOps.add(n);
      }
      opOf.put(
          n,
          add(
              ops,
              OpGraph.Node.op(
                  op,
                  node.attrs(),
                  List.of(node.inShapes()),
                  List.of(node.outShapes()),
                  inputs,
                  dataParallel)));
    }
    if (mode.equals(StrategySearch.SHARDING_PROPAGATION)) {
      // MindSpore's VirtualDataset covers every input of the step and is a configured operator of
      // the propagation even where no searched call reads an input (a step whose gradient does
      // not reach the inputs): only a step without inputs has nothing to propagate from.
      for (int k = 0; k < argLayouts.size(); k++) {
        int arg = k;
        if (argLayouts.get(k) == null) {
          continue;
        }
        dataOf.computeIfAbsent(
            k, i -> add(ops, OpGraph.Node.data("arg" + arg, argLayouts.get(arg))));
      }
    }
    OpGraph graph = new OpGraph(ops, devices);
    Map<Integer, Attrs> extra = new HashMap<>();
    CostGraph costs;
    int[] chosen;
    if (mode.equals(StrategySearch.RECURSIVE_PROGRAMMING)) {
      List<List<List<Integer>>> strategies = RecursiveProgramming.solve(graph, model);
      if (opOf.size() > REFINE_MAX_OPS || devices > REFINE_MAX_DEVICES) {
        for (Map.Entry<Integer, Integer> e : opOf.entrySet()) {
          List<List<Integer>> s = strategies.get(e.getValue());
          if (s != null) {
            extra.put(e.getKey(), Attrs.of("in_strategy", s));
          }
        }
        return new Result(global.withAttrs(extra), null, null, opOf, Map.of(), mode, opNames);
      }
      costs = new CostGraph(graph, model);
      chosen = LocalRefinement.improve(costs, LocalRefinement.fromStrategies(costs, strategies));
    } else {
      costs = new CostGraph(graph, model, mode.equals(StrategySearch.SHARDING_PROPAGATION));
      chosen = StrategySearch.solve(costs, mode);
    }
    for (Map.Entry<Integer, Integer> e : opOf.entrySet()) {
      OpGraph.Node op = ops.get(e.getValue());
      if (!op.isConfigured() || dataParallelOps.contains(e.getKey())) {
        extra.put(
            e.getKey(),
            Attrs.of(
                "in_strategy",
                costs.candidates(e.getValue()).get(chosen[e.getValue()]).strategy()));
      }
    }
    Map<Variable, TensorLayout> paramLayouts = new IdentityHashMap<>();
    for (Map.Entry<Variable, Integer> e : paramOf.entrySet()) {
      int p = e.getValue();
      TensorLayout chosenLayout = costs.candidates(p).get(chosen[p]).outputs().get(0);
      int firstUse = costs.outEdges(p).get(0);
      CostGraph.Edge edge = costs.edges().get(firstUse);
      TensorLayout need =
          costs.candidates(edge.to()).get(chosen[edge.to()]).inputs().get(edge.input());
      if (!Layouts.sameSlices(chosenLayout, need)) {
        paramLayouts.put(e.getKey(), chosenLayout);
      }
    }
    return new Result(global.withAttrs(extra), costs, chosen, opOf, paramLayouts, mode, opNames);
  }

  /**
   * The data-parallel strategy of a call its cell marked with {@code Cell.set_data_parallel}
   * (attribute {@code strategy_gen_mode = "data_parallel"}) and no strategy of its own: every
   * dimension that carries input 0's first dimension split over all devices, the others whole
   * (MindSpore's GenerateBatchStrategies: {@code ((8, 1), (1, 1))} for a MatMul on 8); null when
   * unmarked, or when that dimension does not divide.
   */
  private static List<List<Integer>> dataParallelStrategy(Node node, int devices) {
    Attrs a = node.attrs();
    if (!a.has("strategy_gen_mode")
        || !"data_parallel".equals(a.string("strategy_gen_mode"))
        || dev.msjvm.engine.parallel.rules.RulesOracle.hasOwnStrategy(a)
        || node.inShapes().length == 0
        || node.inShapes()[0].rank() == 0) {
      return null;
    }
    EinsumSpec spec = node.op().sharding().specFor(a, List.of(node.inShapes()));
    char batch = spec.inputs().get(0).charAt(0);
    List<List<Integer>> strategy = new ArrayList<>();
    for (int i = 0; i < node.inShapes().length; i++) {
      String letters = spec.inputs().get(i);
      List<Integer> s = new ArrayList<>();
      for (int d = 0; d < letters.length(); d++) {
        boolean split = letters.charAt(d) == batch && batch != EinsumSpec.FRESH;
        if (split && node.inShapes()[i].dim(d) % devices != 0) {
          return null;
        }
        s.add(split ? devices : 1);
      }
      strategy.add(s);
    }
    return strategy;
  }

  /**
   * Whether the search decides {@code node}: a call with a sharding rule that updates no state, or
   * only side state (BatchNorm, as MindSpore's BatchNormInfo is searched).
   */
  private static boolean searched(Node node) {
    String op = node.op().name();
    return !op.equals("Load")
        && (!node.op().stateful() || node.op().updatesSideState())
        && Rules.has(op)
        && !OptimizerRules.isUpdate(op);
  }

  /** {@code Default/<Prim>-op<k>} for the k-th searched forward call, by node index. */
  static Map<Integer, String> operatorNames(Graph g) {
    Map<Integer, String> names = new LinkedHashMap<>();
    for (int n = 0; n < g.forwardNodes(); n++) {
      Node node = g.nodes().get(n);
      if (searched(node)) {
        names.put(n, "Default/" + node.op().name() + "-op" + names.size());
      }
    }
    return names;
  }

  private static int add(List<OpGraph.Node> ops, OpGraph.Node node) {
    ops.add(node);
    return ops.size() - 1;
  }
}
