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
    if ((op.equals("MatMul") || op.equals("BatchMatMul"))
        && attrs.bool("enable_nd_tp", false)
        && attrs.has("in_layout")
        && attrs.get("in_layout") != null) {
      return twoDimensionMatMul(op, attrs, inputShapes, outputShapes, devices);
    }
    List<TensorLayout> inLayouts = layoutAttr(op, attrs, "in_layout", inputShapes, devices);
    List<TensorLayout> outLayouts = layoutAttr(op, attrs, "out_layout", outputShapes, devices);
    List<List<Integer>> strategy =
        inLayouts != null ? splits(inLayouts) : strategyAttr(attrs, "in_strategy");
    if (strategy == null
        && (OptimizerRules.isUpdate(op) || op.equals("Assign"))
        && current.get(0) != null) {
      // An update (Assign included) writes its variable where the variable lives.
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
        (a, rank) -> rule.localAttrs(a, sharding, rank),
        rank -> rule.lowering(attrs, sharding, rank));
  }

  /**
   * MatMul/BatchMatMul with {@code enable_nd_tp} (MindSpore's 2D tensor parallel, {@code
   * MatMul::Check2DTPInputLayout} and {@code Infer2DTPOutputLayout}): for {@code a} laid out {@code
   * (..., (x, y))} (or {@code (..., x)}) along its reduction dimension and {@code b} laid out
   * {@code (x, y)}, {@code a} is gathered over {@code y} so its reduction dimension is split as
   * {@code b}'s ({@code (..., x)}), each rank multiplies its blocks into a result partial over
   * {@code x} whose last dimension is split over {@code y}, and a ReduceScatter over {@code x}
   * along that dimension gives the output laid out {@code (..., (y, x))}. The 3D form (a dimension
   * of {@code b} split over two axes) is refused.
   */
  private static NodeSharding twoDimensionMatMul(
      String op, Attrs attrs, List<Shape> inputShapes, List<Shape> outputShapes, int devices) {
    List<?> entries = (List<?>) attrs.get("in_layout");
    if (entries.size() != 2) {
      throw MsException.valueError(
          "For '" + op + "', the in_layout has " + entries.size() + " layouts but the call has 2.");
    }
    List<List<Integer>> dms = new ArrayList<>();
    List<List<List<Integer>>> runs = new ArrayList<>();
    parseEntries(op, entries, dms, runs);
    if (!dms.get(0).equals(dms.get(1))) {
      throw initFailed(
          op,
          "The device_matrix of input0 "
              + dms.get(0)
              + " does not equal to device_matrix of input1 "
              + dms.get(1));
    }
    List<Integer> dm = dms.get(0);
    List<List<Integer>> a = runs.get(0);
    List<List<Integer>> b = runs.get(1);
    boolean ta = attrs.bool("transpose_a", false);
    boolean tb = attrs.bool("transpose_b", false);
    int ra = a.size();
    int rb = b.size();
    int ka = ta ? ra - 2 : ra - 1;
    int ma = ta ? ra - 1 : ra - 2;
    int kb = tb ? rb - 1 : rb - 2;
    int nb = tb ? rb - 2 : rb - 1;
    if (b.get(kb).size() != 1 || b.get(nb).size() != 1) {
      throw initFailed(op, "msjvm runs the 2D form of enable_nd_tp only, not the 3D one.");
    }
    int x = b.get(kb).get(0);
    int y = b.get(nb).get(0);
    List<Integer> aK = a.get(ka);
    if (!aK.equals(List.of(x)) && !aK.equals(List.of(x, y))) {
      int fromRight = dm.size() - 1;
      throw initFailed(
          op,
          "For 2D MatMul/Batch MatMul, the input layout for the last two dimensions should be"
              + " like: \n ( , (x, y)), (y, x) when one of transpose_a and transpose_b is 'true';"
              + " or ( , (x, y)), (x, y) in the other situation. But now they are: ("
              + fromRightMap(a.get(ra - 2), fromRight)
              + ", "
              + fromRightMap(a.get(ra - 1), fromRight)
              + "), ("
              + fromRightMap(b.get(rb - 2), fromRight)
              + ", "
              + fromRightMap(b.get(rb - 1), fromRight)
              + ").");
    }
    List<List<Integer>> aNeeded = new ArrayList<>(a);
    aNeeded.set(ka, List.of(x));
    List<List<Integer>> out = new ArrayList<>(a.subList(0, ra - 2));
    out.add(a.get(ma));
    out.add(List.of(y, x));
    TensorLayout inA = merged(op, dm, aNeeded, List.of(), inputShapes.get(0), devices);
    TensorLayout inB = merged(op, dm, b, List.of(), inputShapes.get(1), devices);
    TensorLayout output = merged(op, dm, out, List.of(List.of(y, x)), outputShapes.get(0), devices);
    List<List<Integer>> strategy = splits(layoutAttr(op, attrs, "in_layout", inputShapes, devices));
    NodeSharding.Partial partial =
        new NodeSharding.Partial(
            List.of(x),
            NodeSharding.Partial.SUM,
            outputShapes.get(0).rank() - 1,
            DeviceMatrix.of(dm.stream().mapToInt(Integer::intValue).toArray()));
    return new NodeSharding(strategy, List.of(inA, inB), List.of(output), List.of(partial));
  }

  private static List<Integer> fromRightMap(List<Integer> run, int last) {
    return run.isEmpty() ? List.of(-1) : run.stream().map(axis -> last - axis).toList();
  }

  private static ShardingException initFailed(String op, String why) {
    return new ShardingException(op, why);
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
          case PROD -> "prod";
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
   * axes (MindSpore's {@code layout(("dp", "mp"), "None")}, in any order, adjacent or not) becomes
   * one axis of a device matrix whose axes are reordered to bring those axes together, outermost
   * first, with the ranks listed so that each keeps its coordinates: every rank holds the slice
   * MindSpore gives it. When the tensors of the call agree (a run of axes merged in one is merged
   * or unused in the others) they share that matrix, so an operator can run on their layouts.
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
    List<List<Integer>> dms = new ArrayList<>();
    List<List<List<Integer>>> runs = new ArrayList<>();
    parseEntries(op, entries, dms, runs);
    List<List<Integer>> shared = sharedGroups(dms, runs);
    List<TensorLayout> out = new ArrayList<>();
    for (int t = 0; t < entries.size(); t++) {
      List<List<Integer>> groups = shared;
      if (groups == null) {
        groups = runs.get(t).stream().filter(r -> r.size() > 1).distinct().toList();
      }
      out.add(merged(op, dms.get(t), runs.get(t), groups, shapes.get(t), devices));
    }
    return out;
  }

  /**
   * Each Layout entry ({@code [device matrix, per dimension its axes counted from the right]}) as
   * its device matrix (into {@code dms}) and its runs ({@link #runsOf}, into {@code runs}).
   */
  private static void parseEntries(
      String op, List<?> entries, List<List<Integer>> dms, List<List<List<Integer>>> runs) {
    for (Object e : entries) {
      List<?> entry = (List<?>) e;
      List<Integer> dm = ints((List<?>) entry.get(0));
      List<List<Integer>> map = new ArrayList<>();
      for (Object dim : (List<?>) entry.get(1)) {
        map.add(ints((List<?>) dim));
      }
      dms.add(dm);
      runs.add(runsOf(op, dm, map));
    }
  }

  /**
   * Per dimension the device axes (counted from the left) it is split over, outermost first; empty
   * for none. Refuses an axis used twice or outside the matrix.
   */
  private static List<List<Integer>> runsOf(String op, List<Integer> dm, List<List<Integer>> map) {
    int axes = dm.size();
    boolean[] used = new boolean[axes];
    List<List<Integer>> runs = new ArrayList<>();
    for (List<Integer> m : map) {
      if (m.isEmpty() || (m.size() == 1 && m.get(0) < 0)) {
        runs.add(List.of());
        continue;
      }
      List<Integer> run = new ArrayList<>();
      for (int fromRight : m) {
        int a = axes - 1 - fromRight;
        if (fromRight < 0 || a < 0 || used[a]) {
          throw MsException.runtimeError(
              "For '"
                  + op
                  + "', a Layout strategy maps device axis "
                  + fromRight
                  + " (counted from the right) of the device matrix "
                  + dm
                  + " twice or outside it.");
        }
        used[a] = true;
        run.add(a);
      }
      runs.add(List.copyOf(run));
    }
    return runs;
  }

  /**
   * The multi-axis runs every tensor of a call can share (same device matrix; each run merged whole
   * or not touched by the others), or null when they cannot.
   */
  private static List<List<Integer>> sharedGroups(
      List<List<Integer>> dms, List<List<List<Integer>>> runs) {
    if (dms.stream().distinct().count() > 1) {
      return null;
    }
    List<List<Integer>> groups = new ArrayList<>();
    for (List<List<Integer>> tensor : runs) {
      for (List<Integer> run : tensor) {
        if (run.size() > 1 && !groups.contains(run)) {
          groups.add(run);
        }
      }
    }
    for (List<List<Integer>> tensor : runs) {
      for (List<Integer> run : tensor) {
        for (List<Integer> g : groups) {
          if (!run.equals(g) && run.stream().anyMatch(g::contains)) {
            return null;
          }
        }
      }
    }
    return groups;
  }

  private static TensorLayout merged(
      String op,
      List<Integer> dm,
      List<List<Integer>> runs,
      List<List<Integer>> groups,
      Shape shape,
      int devices) {
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
    if (runs.size() != shape.rank()) {
      throw MsException.runtimeError(
          "For '"
              + op
              + "', a Layout strategy maps "
              + runs.size()
              + " dimensions of a tensor of"
              + " shape "
              + shape
              + ".");
    }
    int axes = dm.size();
    // The device axes reordered so that the axes splitting one dimension stand next to each other,
    // outermost first (a dimension split over ("dp", "mp") takes slice dp * |mp| + mp, wherever the
    // two stand in the matrix); each run then merges into one axis. The ranks keep their original
    // coordinates: the merged matrix lists them in its own row-major order.
    List<Integer> order = new ArrayList<>();
    List<Integer> mergedDims = new ArrayList<>();
    int[] groupOf = new int[axes];
    for (int a = 0; a < axes; a++) {
      if (order.contains(a)) {
        continue;
      }
      List<Integer> run = List.of(a);
      for (List<Integer> g : groups) {
        if (g.contains(a)) {
          run = g;
        }
      }
      int size = 1;
      for (int member : run) {
        order.add(member);
        groupOf[member] = mergedDims.size();
        size *= dm.get(member);
      }
      mergedDims.add(size);
    }
    int count = mergedDims.size();
    List<Integer> dimGroup = new ArrayList<>();
    for (List<Integer> run : runs) {
      dimGroup.add(run.isEmpty() ? -1 : count - 1 - groupOf[run.get(0)]);
    }
    int[] merged = mergedDims.stream().mapToInt(Integer::intValue).toArray();
    TensorLayout.Declared declared = null;
    if (!groups.isEmpty()) { // the matrix is not the one the user wrote
      declared =
          new TensorLayout.Declared(
              dm,
              runs.stream()
                  .map(r -> r.isEmpty() ? List.of(-1) : r.stream().map(a -> axes - 1 - a).toList())
                  .toList());
    }
    if (order.equals(java.util.stream.IntStream.range(0, axes).boxed().toList())) {
      return TensorLayout.of(DeviceMatrix.of(merged), dimGroup, shape).withDeclared(declared);
    }
    DeviceMatrix original = DeviceMatrix.of(dm.stream().mapToInt(Integer::intValue).toArray());
    List<Integer> ranks = new ArrayList<>(devices);
    int[] coordinate = new int[axes];
    for (int i = 0; i < devices; i++) {
      // coordinate of i in the reordered axes, row-major, the last axis fastest
      int rest = i;
      for (int k = axes - 1; k >= 0; k--) {
        int a = order.get(k);
        coordinate[a] = rest % dm.get(a);
        rest /= dm.get(a);
      }
      ranks.add(original.rankAt(java.util.Arrays.stream(coordinate).boxed().toList()));
    }
    List<Integer> mergedShape = java.util.Arrays.stream(merged).boxed().toList();
    return TensorLayout.of(new DeviceMatrix(mergedShape, ranks), dimGroup, shape)
        .withDeclared(declared);
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
