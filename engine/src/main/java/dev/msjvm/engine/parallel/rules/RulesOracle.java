package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.ShardingOracle;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The graph partitioner's oracle over the operator rules: a call with a {@code shard} strategy (its
 * {@code in_strategy} attribute) runs with it; a call that is the first to read a parameter, or
 * whose inputs are all whole, gets MindSpore's default batch-parallel strategy (so parameters are
 * laid out as MindSpore lays them out); every other call, backward and optimizer nodes included,
 * follows its inputs' layouts (no data moves where the rule allows it). Stateless; one instance
 * serves every rank.
 */
public final class RulesOracle implements ShardingOracle {

  public static final RulesOracle INSTANCE = new RulesOracle();

  private RulesOracle() {}

  @Override
  public NodeSharding shard(
      String op,
      Attrs attrs,
      List<Shape> inputShapes,
      List<Shape> outputShapes,
      List<TensorLayout> current,
      int devices) {
    ShardingRule rule = Rules.of(op);
    List<List<Integer>> strategy = strategyAttr(attrs, "in_strategy");
    if (strategy == null && OptimizerRules.isUpdate(op) && current.get(0) != null) {
      return updateInPlace(current.get(0), inputShapes, outputShapes);
    }
    List<List<Integer>> outStrategy = strategyAttr(attrs, "out_strategy");
    OpSharding s = null;
    if (strategy == null && takesDefault(op, current)) {
      try {
        strategy = rule.defaultStrategy(attrs, inputShapes, devices);
        s = rule.shard(attrs, inputShapes, strategy, outStrategy, ShardingRule.ranks(devices));
      } catch (ShardingException e) {
        strategy = null; // a shape the batch split does not divide (a [1] step counter): follow
      }
    }
    if (strategy == null) {
      strategy = rule.strategyFollowing(attrs, inputShapes, current, devices);
    }
    if (s == null) {
      s = rule.shard(attrs, inputShapes, strategy, outStrategy, ShardingRule.ranks(devices));
    }
    if (s.inputLayouts().size() != inputShapes.size()) {
      throw MsException.runtimeError(
          "The sharding rule of "
              + op
              + " describes "
              + s.inputLayouts().size()
              + " inputs but the call has "
              + inputShapes.size()
              + ".");
    }
    List<NodeSharding.Partial> partial = new ArrayList<>();
    for (int o = 0; o < s.outputLayouts().size(); o++) {
      partial.add(s.partial(o).map(p -> toNodePartial(op, p)).orElse(null));
    }
    return new NodeSharding(s.strategy(), s.inputLayouts(), s.outputLayouts(), partial);
  }

  /**
   * An optimizer update runs where its parameter lives: every parameter-shaped input and output
   * takes the parameter's layout (the states were cloned from it), scalars are whole. Deriving the
   * layouts from a strategy instead would append the repeated-calculation axis on the right and
   * could give a rank another slice of the state than of the parameter.
   */
  private static NodeSharding updateInPlace(
      TensorLayout param, List<Shape> inputShapes, List<Shape> outputShapes) {
    List<TensorLayout> in = inputShapes.stream().map(shape -> stateLayout(param, shape)).toList();
    List<TensorLayout> out = outputShapes.stream().map(shape -> stateLayout(param, shape)).toList();
    return new NodeSharding(
        in.stream().map(TensorLayout::strategy).toList(),
        in,
        out,
        Collections.nCopies(out.size(), null));
  }

  /** The parameter's layout for a parameter-shaped state, the whole tensor for anything else. */
  private static TensorLayout stateLayout(TensorLayout param, Shape shape) {
    return shape.equals(param.shape()) ? param : TensorLayout.whole(param.deviceMatrix(), shape);
  }

  /**
   * MindSpore's default batch-parallel strategy applies to a forward call without a strategy that
   * reads a parameter nobody has placed yet or whose inputs are all whole (full_batch data); other
   * calls (backward nodes, optimizer updates, calls on sharded activations) follow their inputs.
   */
  private static boolean takesDefault(String op, List<TensorLayout> current) {
    if (OptimizerRules.isUpdate(op)) {
      return false;
    }
    return current.stream().allMatch(l -> l == null || !l.isSliced())
        || current.stream().anyMatch(Objects::isNull);
  }

  private static NodeSharding.Partial toNodePartial(String op, Partial p) {
    if (p.reduceScatter()) {
      throw MsException.runtimeError(
          "For '"
              + op
              + "', an out_strategy that makes the output a ReduceScatter is not supported by msjvm"
              + " yet.");
    }
    return switch (p.op()) {
      case SUM -> new NodeSharding.Partial(p.deviceAxes(), NodeSharding.Partial.SUM);
      case MEAN -> new NodeSharding.Partial(p.deviceAxes(), NodeSharding.Partial.MEAN);
      case MAX -> new NodeSharding.Partial(p.deviceAxes(), "max");
      case MIN -> new NodeSharding.Partial(p.deviceAxes(), "min");
      case NONE -> null;
    };
  }

  /** A strategy attribute ({@code ((2, 4), (4, 1))} as nested lists), or null when absent. */
  static List<List<Integer>> strategyAttr(Attrs attrs, String name) {
    if (!attrs.has(name) || attrs.get(name) == null) {
      return null;
    }
    List<List<Integer>> out = new ArrayList<>();
    for (Object dim : (List<?>) attrs.get(name)) {
      List<Integer> row = new ArrayList<>();
      for (Object v : (List<?>) dim) {
        row.add(((Number) v).intValue());
      }
      out.add(row);
    }
    return out;
  }
}
