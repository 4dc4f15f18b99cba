package dev.msjvm.engine.exec;

import dev.msjvm.engine.exec.Graph.Node;
import dev.msjvm.engine.exec.Graph.Out;
import dev.msjvm.engine.exec.Graph.Ref;
import dev.msjvm.engine.exec.Graph.Var;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.StrategyFile;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.parallel.rules.RulesOracle;
import dev.msjvm.engine.tensor.Variable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Strategy checkpoints for a graph traced on global shapes (MindSpore's {@code
 * strategy_ckpt_load_file}/{@code strategy_ckpt_save_file}, reference §2): every forward call that
 * reads a parameter is named {@code <Prim>_<first parameter name>}.
 *
 * <p>Loading gives each named call without a user strategy the file's strategy: in {@code
 * semi_auto_parallel} the user's {@code shard} wins and the file fills the rest; in {@code
 * auto_parallel} a loaded call is configured, so the search keeps it. Saving records, after
 * partitioning, the strategy every named call ran with and the layout of the parameters they read
 * (all parameters' layouts, optimizer states included, when {@code only_trainable_params} is
 * false).
 */
public final class StrategyCheckpointPass {

  private StrategyCheckpointPass() {}

  /** The checkpoint name of each forward call reading a parameter, by node index. */
  public static Map<Integer, String> nodeNames(Graph g) {
    Map<Integer, String> names = new LinkedHashMap<>();
    List<Node> nodes = g.nodes();
    for (int n = 0; n < g.forwardNodes(); n++) {
      Node node = nodes.get(n);
      if (node.op().name().equals("Load") || node.op().stateful()) {
        continue;
      }
      Variable first = firstParameter(g, node);
      if (first != null) {
        names.putIfAbsent(n, node.op().name() + "_" + first.name());
      }
    }
    return names;
  }

  private static Variable firstParameter(Graph g, Node node) {
    for (Ref r : node.inputs()) {
      if (r instanceof Out o
          && g.nodes().get(o.node()).op().name().equals("Load")
          && g.nodes().get(o.node()).inputs()[0] instanceof Var v) {
        return v.variable();
      }
      if (r instanceof Var v) {
        return v.variable();
      }
    }
    return null;
  }

  /** {@code g} with the file's strategies on the named calls that have no strategy of their own. */
  public static Graph applyLoaded(Graph g, StrategyFile.Contents file) {
    return withNamedStrategies(g, nodeNames(g), file.strategies(), Map.of());
  }

  /**
   * {@code g} where each call named in {@code names} that has no strategy of its own takes the
   * {@code in} entry of its name as {@code in_strategy} (and the {@code out} entry, if any, as
   * {@code out_strategy}): how a loaded strategy file fixes calls.
   */
  static Graph withNamedStrategies(
      Graph g,
      Map<Integer, String> names,
      Map<String, StrategyFile.StrategyEntry> in,
      Map<String, StrategyFile.StrategyEntry> out) {
    Map<Integer, Attrs> extra = new HashMap<>();
    names.forEach(
        (n, name) -> {
          StrategyFile.StrategyEntry e = in.get(name);
          if (e != null && !RulesOracle.hasOwnStrategy(g.nodes().get(n).attrs())) {
            StrategyFile.StrategyEntry o = out.get(name);
            Attrs a = Attrs.of("in_strategy", e.strategy());
            extra.put(n, o == null ? a : a.with("out_strategy", o.strategy()));
          }
        });
    return extra.isEmpty() ? g : g.withAttrs(extra);
  }

  /**
   * The file to save after {@code g} was partitioned into {@code result}; {@code saves} is the
   * file's {@code current_stage}. With pipeline stages a rank records its own stage as MindSpore
   * does: the calls of {@code stage} (those {@code onStage} accepts) with their stage, and the
   * parameters those calls read ({@code merge_pipeline_strategys} joins the stages' files).
   */
  public static StrategyFile.Contents toSave(
      Graph g,
      SpmdPartitioner.Result result,
      int saves,
      boolean onlyTrainableParams,
      int stage,
      IntPredicate onStage) {
    Map<String, StrategyFile.StrategyEntry> strategies = new LinkedHashMap<>();
    Set<Variable> read = new LinkedHashSet<>();
    Set<Variable> readOnStage = new LinkedHashSet<>();
    nodeNames(g)
        .forEach(
            (n, name) -> {
              if (!onStage.test(n)) {
                return;
              }
              List<List<Integer>> s = result.strategies().get(n);
              if (s != null) {
                strategies.putIfAbsent(name, new StrategyFile.StrategyEntry(stage, s));
              }
              for (Ref r : g.nodes().get(n).inputs()) {
                if (r instanceof Out o
                    && g.nodes().get(o.node()).op().name().equals("Load")
                    && g.nodes().get(o.node()).inputs()[0] instanceof Var v) {
                  read.add(v.variable());
                }
              }
            });
    List<Node> nodes = g.nodes();
    for (int n = 0; n < nodes.size(); n++) {
      if (onStage.test(n)) {
        for (Ref r : nodes.get(n).inputs()) {
          if (r instanceof Var v) {
            readOnStage.add(v.variable());
          }
        }
      }
    }
    Map<String, StrategyFile.LayoutEntry> layouts = new LinkedHashMap<>();
    result
        .variableLayouts()
        .forEach(
            (v, l) -> {
              if ((!onlyTrainableParams || read.contains(v)) && readOnStage.contains(v)) {
                layouts.put(v.name(), layoutEntry(l));
              }
            });
    return new StrategyFile.Contents(saves, strategies, layouts);
  }

  private static StrategyFile.LayoutEntry layoutEntry(TensorLayout l) {
    return new StrategyFile.LayoutEntry(
        l.deviceMatrix().shape(), l.tensorMap(), l.shape().dims(), 0, 0, 0);
  }
}
