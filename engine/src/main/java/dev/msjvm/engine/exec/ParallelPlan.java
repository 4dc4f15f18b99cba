package dev.msjvm.engine.exec;

import dev.msjvm.engine.comm.Communicator;
import dev.msjvm.engine.comm.SubWorldCommunicator;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a parallel compile decided for every rank of a job ({@link ParallelCompiler}): the global
 * graph with its strategies, each operator's sharding, each parameter's layout, the pipeline stages
 * and the search's choices. Immutable; {@link #describe} is the same text for the same request and
 * traced graph in any rank or process. Each rank turns it into its own program with {@link #lower},
 * which is where communicators, slices and variables come in.
 *
 * <p>Example: rank 3 of 8 runs {@code plan.lower(comm3, variablesOfRank3).program().graph()}.
 */
public final class ParallelPlan {
  private final CompileRequest request;
  private final Graph graph;
  private final List<TensorLayout> argLayouts;
  private final Map<String, TensorLayout> placed;
  private final List<NodeSharding> shardings;
  private final Map<Integer, List<List<Integer>>> strategies;
  private final Map<String, TensorLayout> parameterLayouts;
  private final PipelineStages colours;
  private final StrategySearchPass.Result searched;

  ParallelPlan(
      CompileRequest request,
      Graph graph,
      List<TensorLayout> argLayouts,
      Map<String, TensorLayout> placed,
      SpmdPartitioner.Decisions decisions,
      PipelineStages colours,
      StrategySearchPass.Result searched) {
    this.request = request;
    this.graph = graph;
    this.argLayouts = argLayouts;
    this.placed = Collections.unmodifiableMap(new LinkedHashMap<>(placed));
    this.shardings = decisions.shardings();
    this.strategies = decisions.strategies();
    this.parameterLayouts =
        Collections.unmodifiableMap(ParallelCompiler.byName(decisions.variableLayouts()));
    this.colours = colours;
    this.searched = searched;
  }

  public CompileRequest request() {
    return request;
  }

  /**
   * By parameter name, the pipeline stages that read it (bit s for stage s), for the parameters
   * more than one stage reads: a parameter used by two stages' cells (a tied embedding read by the
   * first stage's lookup and the last stage's head) is held by each of them, and MindSpore's {@code
   * sync_pipeline_shared_parameters} copies the lowest stage's value to the others. Empty without
   * pipeline stages.
   */
  public Map<String, Long> sharedParameterStages() {
    Map<String, Long> stages = new LinkedHashMap<>();
    if (colours == null) {
      return stages;
    }
    List<Graph.Node> nodes = graph.nodes();
    for (int n = 0; n < nodes.size(); n++) {
      for (Graph.Ref r : nodes.get(n).inputs()) {
        if (r instanceof Graph.Var v) {
          long mask = 0;
          for (int s = 0; s < colours.stages(); s++) {
            if (colours.runsOn(n, s)) {
              mask |= 1L << s;
            }
          }
          stages.merge(v.variable().name(), mask, (a, b) -> a | b);
        }
      }
    }
    stages.values().removeIf(mask -> Long.bitCount(mask) < 2);
    return stages;
  }

  /** The strategy search's result (its report, the operator strategies), or null without one. */
  public StrategySearchPass.Result search() {
    return searched;
  }

  /**
   * The input strategy of every forward call that has one, keyed as MindSpore's {@code
   * _cell_graph_executor._get_shard_strategy} keys them: {@code Default/<Prim>-op<k>}, {@code k}
   * counting that primitive's forward calls in trace order from 0 (MindSpore numbers the nodes of a
   * primitive in creation order once {@code _reset_op_id} restarted it).
   */
  public Map<String, List<List<Integer>>> operatorStrategies() {
    Map<String, Integer> seen = new java.util.HashMap<>();
    Map<String, List<List<Integer>>> out = new LinkedHashMap<>();
    for (int n = 0; n < graph.forwardNodes(); n++) {
      String op = graph.nodes().get(n).op().name();
      if (op.equals("Load")) {
        continue;
      }
      int k = seen.merge(op, 1, Integer::sum) - 1;
      List<List<Integer>> s = strategies.get(n);
      if (s != null) {
        out.put("Default/" + op + "-op" + k, s);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** The layout of every parameter the graph uses, by name. */
  public Map<String, TensorLayout> parameterLayouts() {
    return parameterLayouts;
  }

  /**
   * Whether other ranks can lower this plan with their own parameters: the graph is {@link
   * Graph#portable} and uses only the request's parameters (found by name).
   */
  public boolean shareable() {
    Set<String> names = new HashSet<>();
    request.parameters().forEach(p -> names.add(p.name()));
    return graph.portable() && names.containsAll(graph.variableNames());
  }

  /** The names of the variables the graph uses (those {@link #lower} needs), in first-use order. */
  public List<String> variableNames() {
    return graph.variableNames();
  }

  /**
   * The program of {@code job}'s rank. {@code variables}: the rank's parameters by name when the
   * plan was traced by another rank (null: the variables the graph was traced with). Cuts the
   * rank's variables to their slices (or optimizer-parallel pieces).
   */
  public RankProgram lower(Communicator job, Map<String, Variable> variables) {
    return lower(job, variables, true);
  }

  /**
   * {@link #lower(Communicator, Map)}; {@code fill} false for a dry run: the rank's deferred
   * variables get abstract tensors of their slices' (or pieces') types and nothing is made.
   */
  public RankProgram lower(Communicator job, Map<String, Variable> variables, boolean fill) {
    ParallelSettings settings = request.settings();
    Graph g = variables == null ? graph : graph.rebound(v -> variables.get(v.name()));
    int n = settings.stageDevices();
    // With pipeline stages every strategy, layout and collective is relative to the stage's
    // devices (reference §5.1): stage s owns world ranks [s·n, (s+1)·n).
    Communicator comm = SubWorldCommunicator.of(job, job.rank() / n * n, n);
    Map<Variable, TensorLayout> placedHere = new LinkedHashMap<>();
    for (Variable v : g.variables()) {
      TensorLayout l = placed.get(v.name());
      if (l != null) {
        placedHere.put(v, l);
      }
    }
    SpmdPartitioner.Result result =
        SpmdPartitioner.lower(
            g, argLayouts, placedHere, shardings, comm, n, settings.allToAll(), fill);
    Map<Variable, OptimizerShard.Piece> pieces = Map.of();
    if (settings.optimizer() != null) {
      SpmdPartitioner.Result partitioned = result;
      OptimizerShard.Result sharded =
          OptimizerShard.apply(
              result,
              request.shardable(),
              settings.optimizer(),
              comm,
              g.forwardNodes(),
              colours == null
                  ? k -> true
                  : k -> colours.runsOn(partitioned.origin(k), job.rank() / n));
      result = sharded.program();
      pieces = sharded.pieces();
    }
    SpmdPartitioner.Result sharded = result;
    result =
        CommFusion.apply(
            sharded,
            settings.fusion(),
            request.fusionIds(),
            comm,
            colours == null ? k -> 0 : k -> colours.stage(sharded.origin(k)));
    Timeline timeline = null;
    if (colours != null) {
      PipelineProgram.Result prog =
          PipelineProgram.build(
              g,
              colours,
              result,
              job,
              settings.pipelineScheduler(),
              settings.pipelineResultBroadcast());
      timeline = prog.timeline();
      List<String> lines = new ArrayList<>(result.plan());
      lines.addAll(prog.plan());
      result =
          new SpmdPartitioner.Result(
              prog.graph(), result.variableLayouts(), lines, result.strategies(), new int[0]);
    }
    int stage = colours == null ? 0 : job.rank() / n;
    java.util.function.IntPredicate onStage =
        colours == null ? k -> true : k -> colours.runsOn(k, stage);
    return new RankProgram(g, sharded, result, pieces, timeline, stage, onStage);
  }

  /**
   * One rank's lowering of a plan: the global graph over the rank's variables, the partitioned step
   * before communication fusion (what a strategy checkpoint records), the program the rank runs,
   * the optimizer-parallel pieces it stores and, with pipeline stages, its timeline, its stage and
   * which nodes of the global graph run on that stage (all of them without pipeline stages).
   */
  public record RankProgram(
      Graph global,
      SpmdPartitioner.Result sharded,
      SpmdPartitioner.Result program,
      Map<Variable, OptimizerShard.Piece> pieces,
      Timeline timeline,
      int stage,
      java.util.function.IntPredicate onStage) {}

  /**
   * The plan as canonical text: the request, then per operator its sharding, then per parameter its
   * layout.
   */
  public String describe() {
    StringBuilder s = new StringBuilder(request.describe());
    List<Graph.Node> nodes = graph.nodes();
    for (int n = 0; n < nodes.size(); n++) {
      NodeSharding sh = shardings.get(n);
      s.append('#').append(n).append(' ').append(nodes.get(n).op().name());
      if (colours != null) {
        s.append(" stage ").append(colours.stage(n));
      }
      if (sh != null) {
        s.append(" strategy ").append(TensorLayout.strategyString(sh.strategy()));
        s.append(" in ").append(layouts(sh.inputs()));
        s.append(" out ").append(layouts(sh.outputs()));
        s.append(" partial ").append(sh.partial());
      }
      s.append('\n');
    }
    parameterLayouts.forEach(
        (name, l) ->
            s.append("layout ")
                .append(name)
                .append(' ')
                .append(l.deviceMatrix())
                .append(' ')
                .append(l)
                .append('\n'));
    return s.toString();
  }

  private static String layouts(List<TensorLayout> ls) {
    List<String> out = new ArrayList<>();
    for (TensorLayout l : ls) {
      out.add(l == null ? "null" : l.deviceMatrix() + " " + l);
    }
    return out.toString();
  }

  /** A SHA-256 digest of {@link #describe}: equal plans, equal digests. */
  public String digest() {
    return CompileRequest.sha256(describe());
  }
}
