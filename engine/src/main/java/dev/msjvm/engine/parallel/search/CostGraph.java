package dev.msjvm.engine.parallel.search;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.RedistributionCost;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.TensorRedistribution;
import dev.msjvm.engine.parallel.rules.Rules;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * MindSpore's cost graph ({@code ParallelStrategySearch}, reference §3.0) over an {@link OpGraph}:
 * per node its candidate strategies, each with the layouts it gives the node's inputs and outputs
 * and its own {@link Cost}; per data dependency an edge whose cost for a pair of candidates is the
 * redistribution from the producer's output layout to the consumer's input layout.
 *
 * <p>Candidates: a configured node has exactly its strategy; an op every strategy its rule accepts
 * ({@link ShardingRule#candidates}; with {@code enable_algo_approxi} an evenly spaced {@code
 * 1/algo_approxi_epsilon} of them); a parameter every layout its users' candidates want for it
 * (with a {@code parameter_plan}: that split, laid out as an identity op lays it out); a dataset
 * input its fixed layout. Layouts come from the same {@link RulesOracle} the partitioner uses, so
 * what the search costs is what runs.
 *
 * <p>Operator cost, per candidate, in bytes of float32 slices ({@code OperatorInfo::ComputeCost}
 * with the op-class rules of {@code operator_costmodel.cc} written once over the rules):
 * computation = the input slices, plus each partial output's slice (its AllReduce), plus each
 * parameter slice held by more than one device (its gradient AllReduce); forward communication =
 * the partial outputs' slices; backward communication = the replicated parameter slices. Then
 * MindSpore's tie-break toward data parallel (every component above 1 less 1 when input 0's first
 * dimension is split over all devices) and {@code RefineForPracticalCost}. Edge cost: {@link
 * RedistributionCost} times 4 bytes, forward and backward parts each refined.
 */
public final class CostGraph {

  /** Bytes per element: the search plans float32 training. */
  static final int TYPE_LENGTH = 4;

  /** One strategy of a node with the layouts it gives and its own cost. */
  public record Candidate(
      List<List<Integer>> strategy,
      List<TensorLayout> inputs,
      List<TensorLayout> outputs,
      Cost cost) {}

  /** Output {@code output} of node {@code from} feeds input {@code input} of node {@code to}. */
  public record Edge(int from, int output, int to, int input) {}

  private final OpGraph graph;
  private final CostModel model;
  private final List<List<Candidate>> candidates = new ArrayList<>();
  private final List<Edge> edges = new ArrayList<>();
  private final List<List<Integer>> outEdges = new ArrayList<>();
  private final List<List<Integer>> inEdges = new ArrayList<>();
  private final Map<List<TensorLayout>, Cost> redistribution = new HashMap<>();

  /**
   * Operators' candidates by everything they depend on (name, attributes, shapes, which inputs are
   * parameters): repeated layers share one list.
   */
  private final Map<List<Object>, List<Candidate>> byCall = new HashMap<>();

  /** Whether window ops offer their spatial splits too (sharding propagation's candidates). */
  private final boolean windowSplits;

  public CostGraph(OpGraph graph, CostModel model) {
    this(graph, model, false);
  }

  /**
   * The cost graph of {@code graph}; {@code windowSplits}: every strategy an operator accepts is a
   * candidate, the H/W (D/H) splits of convolutions and poolings included, as MindSpore's
   * GenerateOpStrategies gives them under sharding propagation (the other searches get the
   * strategies the rules offer).
   */
  public CostGraph(OpGraph graph, CostModel model, boolean windowSplits) {
    this.graph = graph;
    this.model = model;
    this.windowSplits = windowSplits;
    List<Integer> users = new ArrayList<>(Collections.nCopies(graph.nodes().size(), 0));
    for (OpGraph.Node node : graph.nodes()) {
      for (OpGraph.Src s : node.inputs()) {
        if (s != null) {
          users.set(s.node(), users.get(s.node()) + 1);
        }
      }
    }
    for (int n = 0; n < graph.nodes().size(); n++) {
      outEdges.add(new ArrayList<>());
      inEdges.add(new ArrayList<>());
      OpGraph.Node node = graph.nodes().get(n);
      for (int i = 0; i < node.inputs().size(); i++) {
        OpGraph.Src s = node.inputs().get(i);
        if (s != null) {
          int e = edges.size();
          edges.add(new Edge(s.node(), s.output(), n, i));
          outEdges.get(s.node()).add(e);
          inEdges.get(n).add(e);
        }
      }
      candidates.add(node.kind() == OpGraph.Kind.PARAM ? null : cachedCandidates(node));
    }
    for (int n = 0; n < graph.nodes().size(); n++) {
      if (candidates.get(n) == null) {
        candidates.set(n, List.copyOf(parameterCandidates(n)));
      }
    }
  }

  /**
   * A parameter's candidates: its {@code parameter_plan} strategy if it has one, else every layout
   * one of its users' candidates wants for it (so a user can always read it without moving data;
   * several users choose one layout among them, MindSpore's {@code TmpIdentityInfo}).
   */
  private List<Candidate> parameterCandidates(int p) {
    OpGraph.Node node = graph.nodes().get(p);
    if (node.configured() != null) {
      return candidatesOf(node);
    }
    java.util.LinkedHashSet<TensorLayout> layouts = new java.util.LinkedHashSet<>();
    for (int e : outEdges.get(p)) {
      Edge edge = edges.get(e);
      for (Candidate c : candidates.get(edge.to())) {
        layouts.add(c.inputs().get(edge.input()));
      }
    }
    if (layouts.isEmpty()) {
      return candidatesOf(node);
    }
    List<Candidate> out = new ArrayList<>();
    for (TensorLayout l : layouts) {
      out.add(new Candidate(List.of(l.strategy()), List.of(), List.of(l), Cost.ZERO));
    }
    return out;
  }

  private List<Candidate> cachedCandidates(OpGraph.Node node) {
    if (node.kind() != OpGraph.Kind.OP) {
      return List.copyOf(candidatesOf(node));
    }
    List<Boolean> params = new ArrayList<>();
    for (OpGraph.Src s : node.inputs()) {
      params.add(s != null && graph.nodes().get(s.node()).kind() == OpGraph.Kind.PARAM);
    }
    // Pipeline labels (micro-batch, stage, recompute) do not change an operator's candidates: the
    // micro-batches of one layer share them.
    Map<String, Object> attrs = new java.util.TreeMap<>(node.attrs().asMap());
    attrs.keySet().removeAll(dev.msjvm.engine.exec.Runtime.LABEL_KEYS);
    List<Object> key =
        java.util.Arrays.asList(
            node.name(), attrs, node.inShapes(), node.outShapes(), node.configured(), params);
    return byCall.computeIfAbsent(key, k -> List.copyOf(candidatesOf(node)));
  }

  private List<Candidate> candidatesOf(OpGraph.Node node) {
    int n = graph.devices();
    return switch (node.kind()) {
      case DATA -> List.of(new Candidate(List.of(), List.of(), List.of(node.fixed()), Cost.ZERO));
      case PARAM -> {
        ShardingRule identity = Rules.of("Identity");
        List<Shape> shape = node.outShapes();
        List<List<List<Integer>>> strategies =
            node.configured() != null
                ? List.of(node.configured())
                : identity.candidates(Attrs.EMPTY, shape, n, model.fullyUseDevices());
        List<Candidate> out = new ArrayList<>();
        for (List<List<Integer>> s : strategies) {
          TensorLayout l = identity.shard(Attrs.EMPTY, shape, s, n).inputLayouts().get(0);
          out.add(new Candidate(s, List.of(), List.of(l), Cost.ZERO));
        }
        yield out;
      }
      case OP -> {
        List<Boolean> params = new ArrayList<>();
        for (OpGraph.Src s : node.inputs()) {
          params.add(s != null && graph.nodes().get(s.node()).kind() == OpGraph.Kind.PARAM);
        }
        List<List<List<Integer>>> strategies;
        if (node.configured() != null) {
          strategies = List.of(node.configured());
        } else if (node.isConfigured()) {
          strategies = Collections.singletonList(null); // its own in_strategy / in_layout
        } else {
          strategies =
              approximate(
                  Rules.of(node.name())
                      .candidates(
                          node.attrs(), node.inShapes(), n, model.fullyUseDevices(), windowSplits));
          if (strategies.isEmpty()) {
            // Every enumerated split refused (an op check beyond the splits): the partitioner's
            // own choice for the call, which is always one.
            strategies = Collections.singletonList(null);
          }
        }
        List<Candidate> out = new ArrayList<>();
        for (List<List<Integer>> s : strategies) {
          Attrs attrs = s == null ? node.attrs() : node.attrs().with("in_strategy", s);
          NodeSharding sharding =
              RulesOracle.INSTANCE.shard(
                  node.name(),
                  attrs,
                  node.inShapes(),
                  node.outShapes(),
                  Collections.nCopies(node.inShapes().size(), null),
                  n);
          out.add(
              new Candidate(
                  sharding.strategy(),
                  sharding.inputs(),
                  sharding.outputs(),
                  opCost(sharding, params)));
        }
        yield out;
      }
    };
  }

  /**
   * {@code enable_algo_approxi}: about {@code 1/algo_approxi_epsilon} of an operator's candidates,
   * evenly spaced through the enumeration (the first and the last always kept), as MindSpore's
   * approximation keeps a fraction of each operator's strategies; all of them otherwise.
   */
  private <T> List<T> approximate(List<T> all) {
    if (!model.enableAlgoApproxi() || all.size() <= 2) {
      return all;
    }
    int keep = Math.max(2, (int) Math.ceil(1 / model.algoApproxiEpsilon()));
    if (keep >= all.size()) {
      return all;
    }
    java.util.LinkedHashSet<T> out = new java.util.LinkedHashSet<>();
    for (int i = 0; i < keep; i++) {
      out.add(all.get((int) Math.round((double) i * (all.size() - 1) / (keep - 1))));
    }
    return List.copyOf(out);
  }

  /** The cost of one op under {@code s}; see the class comment. */
  Cost opCost(NodeSharding s, List<Boolean> paramInputs) {
    int n = graph.devices();
    double comp = 0;
    double fwd = 0;
    double bwd = 0;
    double mem = 0;
    for (int i = 0; i < s.inputs().size(); i++) {
      TensorLayout l = s.inputs().get(i);
      double e = l.sliceShape().size();
      comp += e;
      mem += e;
      if (i < paramInputs.size() && paramInputs.get(i) && used(l) < n) {
        bwd += e;
        comp += e;
      }
    }
    for (int o = 0; o < s.outputs().size(); o++) {
      double e = s.outputs().get(o).sliceShape().size();
      mem += e;
      if (s.partial().get(o) != null) {
        fwd += e;
        comp += e;
      }
    }
    comp *= TYPE_LENGTH;
    fwd *= TYPE_LENGTH;
    bwd *= TYPE_LENGTH;
    mem *= TYPE_LENGTH;
    if (!s.strategy().isEmpty()
        && !s.strategy().get(0).isEmpty()
        && s.strategy().get(0).get(0) == n) {
      // BreakingTiesForPreferringDataParallel
      comp = lessOne(comp);
      fwd = lessOne(fwd);
      bwd = lessOne(bwd);
    }
    double forward = model.refine(fwd);
    return new Cost(comp, forward + bwd, forward, forward + model.gamma() * bwd, mem);
  }

  private static double lessOne(double x) {
    return x > 1 ? x - 1 : x;
  }

  /** The number of distinct slices of a layout (devices not repeating one another). */
  private static int used(TensorLayout l) {
    int p = 1;
    for (int s : l.strategy()) {
      p *= s;
    }
    return p;
  }

  public OpGraph graph() {
    return graph;
  }

  public CostModel model() {
    return model;
  }

  public int size() {
    return candidates.size();
  }

  public List<Candidate> candidates(int node) {
    return candidates.get(node);
  }

  public List<Edge> edges() {
    return Collections.unmodifiableList(edges);
  }

  /** Indices into {@link #edges} of the edges leaving {@code node}, in input order of the users. */
  public List<Integer> outEdges(int node) {
    return Collections.unmodifiableList(outEdges.get(node));
  }

  /** Indices into {@link #edges} of the edges entering {@code node}, in input order. */
  public List<Integer> inEdges(int node) {
    return Collections.unmodifiableList(inEdges.get(node));
  }

  /**
   * The cost of edge {@code e} when its producer runs candidate {@code from}, its user {@code to}.
   */
  public Cost edgeCost(int e, int from, int to) {
    Edge edge = edges.get(e);
    TensorLayout out = candidates.get(edge.from()).get(from).outputs().get(edge.output());
    TensorLayout in = candidates.get(edge.to()).get(to).inputs().get(edge.input());
    if (follows(edge) && !out.equalsWithoutUnitAxes(in)) {
      return Cost.INFEASIBLE;
    }
    return redistributionCost(out, in);
  }

  /**
   * Whether {@code edge} is one of MindSpore's identity edges under {@code
   * elementwise_op_strategy_follow}: leaving a pointwise operator, it admits only pairs that need
   * no redistribution, so the user follows the operator's layout ({@code ConstructCostGraphEdges}'
   * {@code follow_strategy}).
   */
  private boolean follows(Edge edge) {
    if (!model.elementwiseOpStrategyFollow()) {
      return false;
    }
    OpGraph.Node producer = graph.nodes().get(edge.from());
    return producer.kind() == OpGraph.Kind.OP && Rules.isElementwise(producer.name());
  }

  /** What moving a tensor from layout {@code from} to layout {@code to} costs (cached). */
  public Cost redistributionCost(TensorLayout from, TensorLayout to) {
    if (from.equals(to)) {
      return Cost.ZERO;
    }
    return redistribution.computeIfAbsent(
        List.of(from, to),
        k -> {
          RedistributionCost c =
              TensorRedistribution.plan(from, to, 0, model.enableAllToAll()).cost();
          double f = model.refine(c.forwardCommunication() * TYPE_LENGTH);
          double b = model.refine(c.backwardCommunication() * TYPE_LENGTH);
          return new Cost(
              c.computation() * TYPE_LENGTH, f + b, f + b, f + b, c.memory() * TYPE_LENGTH);
        });
  }

  /**
   * The objective of the edges of node {@code v} when it runs candidate {@code c} and every other
   * node runs its entry of {@code chosen}.
   */
  public double edgeObjective(int v, int c, int[] chosen) {
    double cost = 0;
    for (int e : inEdges.get(v)) {
      cost += edgeCost(e, chosen[edges.get(e).from()], c).objective(model);
    }
    for (int e : outEdges.get(v)) {
      cost += edgeCost(e, c, chosen[edges.get(e).to()]).objective(model);
    }
    return cost;
  }

  /** What node {@code v} adds to the objective with candidate {@code c}: its cost and its edges. */
  public double localObjective(int v, int c, int[] chosen) {
    return candidates.get(v).get(c).cost().objective(model) + edgeObjective(v, c, chosen);
  }

  /** The summed cost of a full assignment (node and edge costs), for tests and reports. */
  public Cost total(int[] chosen) {
    Cost sum = Cost.ZERO;
    for (int n = 0; n < size(); n++) {
      sum = sum.plus(candidates.get(n).get(chosen[n]).cost());
    }
    for (int e = 0; e < edges.size(); e++) {
      sum = sum.plus(edgeCost(e, chosen[edges.get(e).from()], chosen[edges.get(e).to()]));
    }
    return sum;
  }
}
