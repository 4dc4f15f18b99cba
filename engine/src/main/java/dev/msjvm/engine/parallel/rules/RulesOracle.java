package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
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
    List<TensorLayout> inLayouts = layoutAttr(op, attrs, "in_layout", inputShapes, devices);
    List<TensorLayout> outLayouts = layoutAttr(op, attrs, "out_layout", outputShapes, devices);
    List<List<Integer>> strategy =
        inLayouts != null ? splits(inLayouts) : strategyAttr(attrs, "in_strategy");
    if (strategy == null && OptimizerRules.isUpdate(op) && current.get(0) != null) {
      return updateInPlace(current.get(0), inputShapes, outputShapes);
    }
    List<List<Integer>> outStrategy =
        outLayouts != null ? splits(outLayouts) : strategyAttr(attrs, "out_strategy");
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
    if (inLayouts != null && !allSameSlices(inLayouts, s.inputLayouts())) {
      // The Layout arranges the slices its own way: run the op in it where every letter has one
      // device axis across the inputs (and no out_strategy asks for a ReduceScatter).
      OpSharding own =
          outStrategy == null
              ? Interpreter.withInputLayouts(rule, attrs, inputShapes, s, inLayouts)
              : null;
      if (own == null) {
        requireSameSlices(op, "input", inLayouts, s.inputLayouts());
      }
      s = own;
    }
    if (outLayouts != null) {
      requireSameSlices(op, "output", outLayouts, s.outputLayouts());
    }
    OpSharding sharding = s;
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
      partial.add(s.partial(o).map(p -> toNodePartial(p, sharding.deviceMatrix())).orElse(null));
    }
    // A Layout strategy giving the same slices keeps its own device matrix and tensor map (the
    // parameters' layouts MindSpore reports).
    return new NodeSharding(
        sharding.strategy(),
        inLayouts != null ? inLayouts : sharding.inputLayouts(),
        outLayouts != null && partial.stream().allMatch(Objects::isNull)
            ? outLayouts
            : sharding.outputLayouts(),
        partial,
        (a, rank) -> rule.localAttrs(a, sharding, rank));
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
    return current.stream().allMatch(l -> l == null || !l.isMapped())
        || current.stream().anyMatch(Objects::isNull);
  }

  /** The partitioner's form of a rule's partial output (its axes index the op's matrix). */
  private static NodeSharding.Partial toNodePartial(Partial p, DeviceMatrix opDevices) {
    String reduce =
        switch (p.op()) {
          case SUM -> NodeSharding.Partial.SUM;
          case MEAN -> NodeSharding.Partial.MEAN;
          case MAX -> "max";
          case MIN -> "min";
          case NONE -> null;
        };
    return reduce == null
        ? null
        : new NodeSharding.Partial(p.deviceAxes(), reduce, p.scatterDim(), opDevices);
  }

  /**
   * A Layout strategy ({@code in_layout}/{@code out_layout}: per tensor its device matrix and, per
   * dimension, the device axes it is split over, counted from the right, {@code [-1]} for none) as
   * layouts over ranks {@code 0..devices-1}, or null when absent. A dimension split over several
   * axes (MindSpore's {@code layout(("dp", "mp"), "None")}) needs them adjacent and in order: they
   * are merged into one axis of the device matrix, which gives every rank the same slice.
   */
  static List<TensorLayout> layoutAttr(
      String op, Attrs attrs, String name, List<Shape> shapes, int devices) {
    if (!attrs.has(name) || attrs.get(name) == null) {
      return null;
    }
    List<?> entries = (List<?>) attrs.get(name);
    if (entries.size() > shapes.size()) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the "
              + name
              + " has "
              + entries.size()
              + " layouts but the call has "
              + shapes.size()
              + " tensors.");
    }
    List<TensorLayout> out = new ArrayList<>();
    for (int t = 0; t < entries.size(); t++) {
      List<?> entry = (List<?>) entries.get(t);
      List<Integer> dm = ints((List<?>) entry.get(0));
      List<List<Integer>> map = new ArrayList<>();
      for (Object dim : (List<?>) entry.get(1)) {
        map.add(ints((List<?>) dim));
      }
      out.add(merged(op, dm, map, shapes.get(t), devices));
    }
    return out;
  }

  private static TensorLayout merged(
      String op, List<Integer> dm, List<List<Integer>> map, Shape shape, int devices) {
    int product = dm.stream().reduce(1, Math::multiplyExact);
    if (product != devices) {
      throw MsException.runtimeError(
          "For '"
              + op
              + "', the device matrix "
              + dm
              + " of a Layout strategy holds "
              + product
              + " devices but the stage has "
              + devices
              + ".");
    }
    if (map.size() != shape.rank()) {
      throw MsException.runtimeError(
          "For '"
              + op
              + "', a Layout strategy maps "
              + map.size()
              + " dimensions of a tensor of"
              + " shape "
              + shape
              + ".");
    }
    int axes = dm.size();
    // groupOf[a]: the merged axis device axis a (counted from the left) falls into.
    int[] groupOf = new int[axes];
    java.util.Arrays.fill(groupOf, -1);
    List<Integer> mergedDims = new ArrayList<>();
    List<Integer> dimGroup = new ArrayList<>();
    int next = 0;
    for (int a = 0; a < axes; a++) {
      if (groupOf[a] >= 0) {
        continue;
      }
      List<Integer> run = null;
      for (List<Integer> m : map) {
        if (m.size() > 1 && m.contains(axes - 1 - a)) {
          run = m;
        }
      }
      int size = 1;
      if (run == null) {
        groupOf[a] = next;
        size = dm.get(a);
      } else {
        for (int k = 0; k < run.size(); k++) {
          int left = axes - 1 - run.get(k);
          if (run.get(k) < 0 || left != a + k) {
            throw MsException.runtimeError(
                "For '"
                    + op
                    + "', a Layout strategy splits a dimension over device axes "
                    + run
                    + " (counted from the right); msjvm supports only adjacent axes in order.");
          }
          groupOf[left] = next;
          size *= dm.get(left);
        }
      }
      mergedDims.add(size);
      next++;
    }
    for (List<Integer> m : map) {
      dimGroup.add(m.get(0) < 0 ? -1 : next - 1 - groupOf[axes - 1 - m.get(0)]);
    }
    DeviceMatrix matrix =
        DeviceMatrix.of(mergedDims.stream().mapToInt(Integer::intValue).toArray());
    return TensorLayout.of(matrix, dimGroup, shape);
  }

  /** Per dimension the number of slices (MindSpore's tuple strategy of these layouts). */
  private static List<List<Integer>> splits(List<TensorLayout> layouts) {
    return layouts.stream().map(TensorLayout::strategy).toList();
  }

  private static boolean allSameSlices(List<TensorLayout> a, List<TensorLayout> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!Layouts.sameSlices(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static void requireSameSlices(
      String op, String what, List<TensorLayout> user, List<TensorLayout> derived) {
    for (int i = 0; i < user.size(); i++) {
      if (!Layouts.sameSlices(user.get(i), derived.get(i))) {
        throw MsException.runtimeError(
            "For '"
                + op
                + "', the Layout strategy of "
                + what
                + " "
                + i
                + " ("
                + user.get(i)
                + ") gives the ranks other slices than the operator's own layout for the same"
                + " splits ("
                + derived.get(i)
                + "); msjvm does not run such layouts yet.");
      }
    }
  }

  private static List<Integer> ints(List<?> values) {
    return values.stream().map(v -> ((Number) v).intValue()).toList();
  }

  /** A strategy attribute ({@code ((2, 4), (4, 1))} as nested lists), or null when absent. */
  /** Whether a call's attributes carry a user strategy ({@code in_strategy} or a Layout). */
  public static boolean hasOwnStrategy(Attrs attrs) {
    return (attrs.has("in_strategy") && attrs.get("in_strategy") != null)
        || (attrs.has("in_layout") && attrs.get("in_layout") != null);
  }

  /** A strategy-valued attribute ({@code in_strategy}, {@code out_strategy}), or null. */
  public static List<List<Integer>> strategyAttr(Attrs attrs, String name) {
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
