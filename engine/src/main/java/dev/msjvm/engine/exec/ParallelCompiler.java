package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.ShardingOracle;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.OptimizerRules;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.parallel.search.StrategySearch;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The semi_auto/auto_parallel compiler: from a {@link CompileRequest} and the graph traced on
 * global shapes to an immutable {@link ParallelPlan}, the same for every rank. In order: pipeline
 * stages colour the graph, a loaded strategy checkpoint fixes the operators it names, the strategy
 * search ({@code auto_parallel}) chooses the rest, and the partitioner decides each operator's
 * sharding and each parameter's layout ({@link SpmdPartitioner#decide}). Nothing here depends on a
 * rank, touches a variable or communicates; each rank then lowers the plan to its own program
 * ({@link ParallelPlan#lower}). See {@code docs/design-parallel-execution.md}.
 *
 * <p>Example: {@code ParallelCompiler.plan(request, graph).lower(comm, null)} is what a
 * stand-alone-of-one-rank test runs.
 */
public final class ParallelCompiler {
  private ParallelCompiler() {}

  /** The plan of {@code traced} under {@code request}, with MindSpore's sharding rules. */
  public static ParallelPlan plan(CompileRequest request, Graph traced) {
    return plan(request, traced, RulesOracle.INSTANCE);
  }

  /** {@link #plan(CompileRequest, Graph)} asking {@code oracle} for each operator's sharding. */
  public static ParallelPlan plan(CompileRequest request, Graph traced, ShardingOracle oracle) {
    ParallelSettings settings = request.settings();
    int devices = settings.stageDevices();
    List<TensorLayout> argLayouts = argLayouts(request.args(), devices);
    PipelineStages colours =
        settings.stages() > 1 ? PipelineStages.of(traced, settings.stages()) : null;
    Graph graph = traced;
    if (request.loaded() != null) {
      graph = StrategyCheckpointPass.applyLoaded(graph, request.loaded());
    }
    Map<Variable, TensorLayout> placed = new LinkedHashMap<>();
    for (Variable v : graph.variables()) {
      TensorLayout l = request.placed().get(v.name());
      if (l != null) {
        placed.put(v, l);
      }
    }
    StrategySearchPass.Result searched = null;
    if (settings.searches()) {
      boolean propagation = StrategySearch.SHARDING_PROPAGATION.equals(settings.searchMode());
      searched =
          StrategySearchPass.search(
              graph,
              argLayouts,
              settings.searchMode(),
              settings.costModel(),
              devices,
              request.parameterPlan(),
              propagation ? request.loadedOperators() : null);
      graph = searched.graph();
      searched.paramLayouts().forEach(placed::putIfAbsent);
    }
    placeWholeUpdated(graph, placed, devices);
    SpmdPartitioner.Decisions decisions =
        SpmdPartitioner.decide(graph, argLayouts, placed, oracle, devices);
    return new ParallelPlan(
        request, graph, argLayouts, byName(placed), decisions, colours, searched);
  }

  /**
   * The parameters an update that needs them whole writes (Lamb's trust ratio takes norms over the
   * whole parameter) are laid out whole from the start, unless a layout was given for them: an
   * unannotated forward reader (a mixed-precision Cast, whose default strategy splits dimension 0)
   * then slices its local piece from the whole parameter instead of laying the parameter out split,
   * which the update could not run on. MindSpore lays such a parameter out by that reader and runs
   * Lamb on the slice, with norms over the slice; msjvm keeps the stand-alone update.
   */
  private static void placeWholeUpdated(
      Graph graph, Map<Variable, TensorLayout> placed, int devices) {
    for (Graph.Node node : graph.nodes()) {
      if (!OptimizerRules.needsWholeParameter(node.op().name())) {
        continue;
      }
      for (int i = 0; i < node.inputs().length; i++) {
        if (node.inputs()[i] instanceof Graph.Var v) {
          placed.putIfAbsent(
              v.variable(), TensorLayout.whole(DeviceMatrix.of(devices), node.inShapes()[i]));
        }
      }
    }
  }

  /**
   * The layout of each argument: split along dimension 0 over the devices, whole, or by its dataset
   * strategy: the device matrix is the strategy with the devices it leaves over as a leading
   * (outermost) axis, as MindSpore's virtual dataset lays it out, so with {@code (1, 4)} on 8
   * devices rank r holds block {@code r % 4} of dimension 1.
   */
  static List<TensorLayout> argLayouts(List<CompileRequest.ArgSpec> args, int devices) {
    List<TensorLayout> layouts = new ArrayList<>();
    for (CompileRequest.ArgSpec a : args) {
      int[] map = new int[a.shape().rank()];
      Arrays.fill(map, -1);
      List<Integer> strategy = a.strategy();
      if (!strategy.isEmpty()) {
        layouts.add(strategyLayout(a.shape(), strategy, devices));
        continue;
      }
      if (a.batchSplit() && map.length > 0) {
        map[0] = 0;
      }
      layouts.add(TensorLayout.of(DeviceMatrix.of(devices), map, a.shape().toArray()));
    }
    return List.copyOf(layouts);
  }

  private static TensorLayout strategyLayout(Shape shape, List<Integer> strategy, int devices) {
    int rank = shape.rank();
    long used = 1;
    for (int s : strategy) {
      used *= s;
    }
    if (strategy.size() != rank || used <= 0 || devices % used != 0) {
      throw MsException.valueError(
          "The dataset strategy "
              + strategy
              + " does not fit an input of shape "
              + shape
              + " on "
              + devices
              + " devices: it needs one positive factor per dimension whose product divides the"
              + " device count.");
    }
    int repeat = (int) (devices / used);
    int[] dims = new int[rank + (repeat > 1 ? 1 : 0)];
    int at = 0;
    if (repeat > 1) {
      dims[at++] = repeat;
    }
    int[] map = new int[rank];
    for (int d = 0; d < rank; d++) {
      dims[at++] = strategy.get(d);
      map[d] = strategy.get(d) > 1 ? rank - 1 - d : -1;
    }
    return TensorLayout.of(DeviceMatrix.of(dims), map, shape.toArray());
  }

  static Map<String, TensorLayout> byName(Map<Variable, TensorLayout> layouts) {
    Map<String, TensorLayout> out = new LinkedHashMap<>();
    layouts.forEach((v, l) -> out.put(v.name(), l));
    return out;
  }
}
