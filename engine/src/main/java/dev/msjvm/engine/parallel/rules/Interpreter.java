package dev.msjvm.engine.parallel.rules;

import static dev.msjvm.engine.parallel.rules.EinsumSpec.FRESH;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.DeviceMatrix;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one generic interpreter of {@link EinsumSpec}s: MindSpore's {@code OperatorInfo::Init}
 * pipeline (CheckStrategy, InferDevMatrixShape, InferRepeatedCalcInfo, InferTensorMap,
 * InferForwardCommunication) computed from letters instead of per-op code.
 */
final class Interpreter {
  private Interpreter() {}

  static OpSharding shard(
      ShardingRule rule,
      Attrs attrs,
      List<Shape> inShapes,
      List<List<Integer>> strategy,
      List<List<Integer>> outStrategy,
      List<Integer> rankList) {
    String op = rule.name();
    EinsumSpec spec = rule.specFor(attrs, inShapes);
    checkShapes(op, spec, inShapes);
    List<Shape> outShapes = outputShapes(spec, inShapes);
    List<Shape> stShapes = strategyShapes(spec, inShapes, outShapes);
    int n = rankList.size();
    if (strategy == null) {
      strategy = defaultStrategy(spec, inShapes, n);
    }
    StrategyChecks.checkStrategyByVector(op, strategy, stShapes, n);
    strategy = rule.deriver().strategy(spec, strategy);
    String problem = rule.check().problem(attrs, spec, strategy, stShapes, n);
    if (problem != null) {
      throw new ShardingException(op, problem);
    }
    Map<Character, Integer> splits = letterSplits(op, spec, strategy);
    List<Integer> dev = new ArrayList<>();
    long devices = 1;
    for (char c : spec.matrix().toCharArray()) {
      dev.add(splits.getOrDefault(c, 1));
      devices *= dev.getLast();
    }
    if (n % devices != 0) {
      throw new ShardingException(
          op,
          "The strategy is "
              + TensorLayout.strategyString(strategy)
              + ", it requires "
              + devices
              + " devices, but the device number of this stage is "
              + n
              + ", it can not be divisible by "
              + devices);
    }
    int repeated = (int) (n / devices);
    if (repeated > 1) {
      dev.add(repeated); // SetRepeatedCalcDevMatrix: on the right by default
    }
    if (dev.isEmpty()) {
      dev.add(1); // a letterless operator (a scalar's) on a one-device stage
    }
    DeviceMatrix matrix = new DeviceMatrix(dev, rankList);
    List<TensorLayout> inLayouts = new ArrayList<>();
    for (int i = 0; i < inShapes.size(); i++) {
      inLayouts.add(layout(spec, spec.layouts().get(i), matrix, inShapes.get(i)));
    }
    List<TensorLayout> outLayouts = new ArrayList<>();
    List<Optional<Partial>> partials = new ArrayList<>();
    boolean scatter =
        rule.outCheck().scatter(op, spec, strategy, outStrategy, splits, outShapes, n);
    for (int o = 0; o < outShapes.size(); o++) {
      List<Integer> axes = new ArrayList<>();
      PartialOp reduceOp = null;
      for (char c : spec.contracted(o).toCharArray()) {
        if (splits.getOrDefault(c, 1) > 1 && spec.reduce().get(c) != PartialOp.NONE) {
          axes.add(spec.matrix().indexOf(c));
          reduceOp = spec.reduce().get(c);
        }
      }
      if (scatter && o == 0 && !axes.isEmpty()) {
        outLayouts.add(OutStrategy.scatterLayout(spec, matrix, outShapes.get(0)));
        partials.add(Optional.of(new Partial(axes, reduceOp, 0)));
        continue;
      }
      outLayouts.add(layout(spec, spec.outputs().get(o), matrix, outShapes.get(o)));
      partials.add(
          axes.isEmpty() ? Optional.empty() : Optional.of(new Partial(axes, reduceOp, -1)));
    }
    return new OpSharding(
        op, spec, strategy, outStrategy, matrix, repeated, inLayouts, outLayouts, partials);
  }

  /**
   * The op under layouts the user gave for its inputs (a Layout strategy) instead of the ones its
   * strategy derives: every letter takes the device axis (counted from the left, -1: whole) it has
   * in the inputs, which must agree wherever it appears; outputs map their letters the same way and
   * are partial over the axes of split contracted letters. {@code derived} is the sharding for the
   * same splits (already validated), for its strategy and checks. Null when a letter's axis is
   * ambiguous (the caller refuses the Layout).
   */
  static OpSharding withInputLayouts(
      ShardingRule rule,
      Attrs attrs,
      List<Shape> inShapes,
      OpSharding derived,
      List<TensorLayout> user) {
    EinsumSpec spec = rule.specFor(attrs, inShapes);
    DeviceMatrix matrix = user.get(0).deviceMatrix();
    int axes = matrix.axes();
    Map<Character, Integer> axisOf = new HashMap<>();
    for (int i = 0; i < user.size(); i++) {
      TensorLayout l = user.get(i);
      if (!l.deviceMatrix().equals(matrix)) {
        return null;
      }
      String letters = spec.layouts().get(i);
      for (int d = 0; d < letters.length(); d++) {
        char c = letters.charAt(d);
        int v = l.tensorMap().get(d);
        int axis = v < 0 ? -1 : axes - 1 - v;
        if (c == FRESH) {
          if (axis >= 0) {
            return null;
          }
          continue;
        }
        Integer before = axisOf.putIfAbsent(c, axis);
        if (before != null && before != axis) {
          return null;
        }
      }
    }
    List<Shape> outShapes = outputShapes(spec, inShapes);
    List<TensorLayout> outLayouts = new ArrayList<>();
    List<Optional<Partial>> partials = new ArrayList<>();
    for (int o = 0; o < outShapes.size(); o++) {
      List<Integer> map = new ArrayList<>();
      for (char c : spec.outputs().get(o).toCharArray()) {
        int axis = c == FRESH ? -1 : axisOf.getOrDefault(c, -1);
        map.add(axis < 0 ? -1 : axes - 1 - axis);
      }
      outLayouts.add(new TensorLayout(matrix, map, outShapes.get(o)));
      List<Integer> partialAxes = new ArrayList<>();
      PartialOp reduceOp = null;
      for (char c : spec.contracted(o).toCharArray()) {
        int axis = axisOf.getOrDefault(c, -1);
        if (axis >= 0 && spec.reduce().get(c) != PartialOp.NONE) {
          partialAxes.add(axis);
          reduceOp = spec.reduce().get(c);
        }
      }
      partials.add(
          partialAxes.isEmpty()
              ? Optional.empty()
              : Optional.of(new Partial(partialAxes, reduceOp, -1)));
    }
    int used = 1;
    for (int a : new java.util.TreeSet<>(axisOf.values())) {
      used *= a < 0 ? 1 : matrix.shape().get(a);
    }
    return new OpSharding(
        rule.name(),
        spec,
        derived.strategy(),
        null,
        matrix,
        matrix.size() / used,
        user,
        outLayouts,
        partials);
  }

  /** The layout of a tensor with {@code letters}: letter at matrix index m maps to axes-1-m. */
  private static TensorLayout layout(
      EinsumSpec spec, String letters, DeviceMatrix matrix, Shape shape) {
    List<Integer> map = new ArrayList<>();
    for (char c : letters.toCharArray()) {
      int m = c == FRESH ? -1 : spec.matrix().indexOf(c);
      map.add(m < 0 ? -1 : matrix.axes() - 1 - m);
    }
    return new TensorLayout(matrix, map, shape);
  }

  private static void checkShapes(String op, EinsumSpec spec, List<Shape> inShapes) {
    if (inShapes.size() != spec.layouts().size()) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the sharding rule expects "
              + spec.layouts().size()
              + " inputs, but got "
              + inShapes.size());
    }
    for (int i = 0; i < inShapes.size(); i++) {
      if (inShapes.get(i).rank() != spec.layouts().get(i).length()) {
        throw MsException.valueError(
            "For '"
                + op
                + "', input "
                + i
                + " has shape "
                + inShapes.get(i)
                + " but the sharding rule "
                + spec
                + " expects rank "
                + spec.layouts().get(i).length());
      }
    }
  }

  /** Sizes of letters from the real inputs (first occurrence). */
  private static Map<Character, Integer> letterSizes(EinsumSpec spec, List<Shape> inShapes) {
    Map<Character, Integer> size = new HashMap<>();
    for (int i = 0; i < inShapes.size(); i++) {
      String letters = spec.layouts().get(i);
      for (int d = 0; d < letters.length(); d++) {
        size.putIfAbsent(letters.charAt(d), inShapes.get(i).dim(d));
      }
    }
    return size;
  }

  static List<Shape> outputShapes(EinsumSpec spec, List<Shape> inShapes) {
    if (spec.outputShapes() != null) {
      return spec.outputShapes();
    }
    Map<Character, Integer> size = letterSizes(spec, inShapes);
    List<Shape> out = new ArrayList<>();
    for (String letters : spec.outputs()) {
      int[] dims = new int[letters.length()];
      for (int d = 0; d < dims.length; d++) {
        char c = letters.charAt(d);
        dims[d] = c == FRESH ? 1 : size.get(c);
      }
      out.add(Shape.of(dims));
    }
    return out;
  }

  /** The shapes the strategy describes: the inputs', unless the spec's strategy letters differ. */
  static List<Shape> strategyShapes(EinsumSpec spec, List<Shape> inShapes, List<Shape> outShapes) {
    if (spec.inputs().equals(spec.layouts())) {
      return inShapes;
    }
    Map<Character, Integer> size = letterSizes(spec, inShapes);
    for (int o = 0; o < outShapes.size(); o++) {
      String letters = spec.outputs().get(o);
      for (int d = 0; d < letters.length(); d++) {
        size.putIfAbsent(letters.charAt(d), outShapes.get(o).dim(d));
      }
    }
    List<Shape> out = new ArrayList<>();
    for (String letters : spec.inputs()) {
      int[] dims = new int[letters.length()];
      for (int d = 0; d < dims.length; d++) {
        dims[d] = letters.charAt(d) == FRESH ? 1 : size.get(letters.charAt(d));
      }
      out.add(Shape.of(dims));
    }
    return out;
  }

  /** The split of every letter; refuses unequal splits of one letter and split unsplit letters. */
  private static Map<Character, Integer> letterSplits(
      String op, EinsumSpec spec, List<List<Integer>> strategy) {
    Map<Character, Integer> split = new HashMap<>();
    Map<Character, int[]> where = new HashMap<>();
    for (int i = 0; i < strategy.size(); i++) {
      String letters = spec.inputs().get(i);
      for (int d = 0; d < letters.length(); d++) {
        char c = letters.charAt(d);
        int v = strategy.get(i).get(d);
        if (!spec.splittable(c) && v != 1) {
          throw new ShardingException(
              op,
              "The strategy is "
                  + TensorLayout.strategyString(strategy)
                  + ", dimension "
                  + d
                  + " of input "
                  + i
                  + " can not be split (rule "
                  + spec
                  + "), but its strategy value is "
                  + v);
        }
        if (c == FRESH) {
          continue;
        }
        Integer old = split.putIfAbsent(c, v);
        if (old == null) {
          where.put(c, new int[] {i, d});
        } else if (old != v) {
          int[] first = where.get(c);
          throw new ShardingException(
              op,
              "The strategy is "
                  + TensorLayout.strategyString(strategy)
                  + ", dimension "
                  + first[1]
                  + " of input "
                  + first[0]
                  + " and dimension "
                  + d
                  + " of input "
                  + i
                  + " are the same dimension '"
                  + c
                  + "' of the operator (rule "
                  + spec
                  + ") and must have equal strategy values, but got "
                  + old
                  + " and "
                  + v);
        }
      }
    }
    return split;
  }

  /** GenerateBatchParallelStrategy: the batch letter split by the device count, all else 1. */
  static List<List<Integer>> defaultStrategy(EinsumSpec spec, List<Shape> inShapes, int n) {
    char batch = spec.batchLetter();
    boolean split = batch != 0 && spec.splittable(batch);
    List<List<Integer>> out = new ArrayList<>();
    for (String letters : spec.inputs()) {
      List<Integer> s = new ArrayList<>();
      for (char c : letters.toCharArray()) {
        s.add(split && c == batch ? n : 1);
      }
      out.add(s);
    }
    return out;
  }

  static List<List<Integer>> following(
      ShardingRule rule, Attrs attrs, List<Shape> inShapes, List<TensorLayout> layouts, int n) {
    EinsumSpec spec = rule.specFor(attrs, inShapes);
    Map<Character, Integer> split = new HashMap<>();
    for (int i = 0; i < layouts.size() && i < spec.layouts().size(); i++) {
      TensorLayout l = layouts.get(i);
      if (l == null) {
        continue;
      }
      String letters = spec.layouts().get(i);
      for (int d = 0; d < letters.length() && d < l.rank(); d++) {
        char c = letters.charAt(d);
        if (spec.splittable(c)) {
          split.putIfAbsent(c, l.splitCount(d));
        }
      }
    }
    List<List<Integer>> strategy = new ArrayList<>();
    for (String letters : spec.inputs()) {
      List<Integer> s = new ArrayList<>();
      for (char c : letters.toCharArray()) {
        s.add(spec.splittable(c) ? split.getOrDefault(c, 1) : 1);
      }
      strategy.add(s);
    }
    for (List<List<Integer>> candidate :
        List.of(strategy, defaultStrategy(spec, inShapes, n), ones(spec))) {
      try {
        rule.shard(attrs, inShapes, candidate, null, ShardingRule.ranks(n));
        return candidate;
      } catch (ShardingException e) {
        // try the next candidate
      }
    }
    return ones(spec);
  }

  /**
   * Every valid strategy of the call on {@code n} devices, as a strategy search considers them
   * (MindSpore's {@code GenerateOpStrategies} over one combined list of the op's dimensions): each
   * splittable letter takes a factor dividing what the letters before it left of {@code n} and its
   * size; the product divides {@code n} (equals it, or is 1, with {@code fullyUseDevices}). Letters
   * shared between inputs split together (MatMul's k), so the enumeration runs over letters, not
   * tensor dimensions. The op's own checks drop what it refuses. Order: earlier letters' factors
   * vary slowest, ascending; the all-ones strategy first.
   */
  static List<List<List<Integer>>> candidates(
      ShardingRule rule, Attrs attrs, List<Shape> inShapes, int n, boolean fullyUseDevices) {
    EinsumSpec spec = rule.specFor(attrs, inShapes);
    List<Shape> stShapes = strategyShapes(spec, inShapes, outputShapes(spec, inShapes));
    Map<Character, Integer> size = new HashMap<>();
    for (int i = 0; i < stShapes.size(); i++) {
      String letters = spec.inputs().get(i);
      for (int d = 0; d < letters.length(); d++) {
        size.putIfAbsent(letters.charAt(d), stShapes.get(i).dim(d));
      }
    }
    StringBuilder letters = new StringBuilder();
    for (char c : spec.matrix().toCharArray()) {
      if (spec.splittable(c) && size.containsKey(c)) {
        letters.append(c);
      }
    }
    List<Map<Character, Integer>> assignments = new ArrayList<>();
    assign(letters.toString(), 0, n, size, new HashMap<>(), assignments);
    List<List<List<Integer>>> out = new ArrayList<>();
    List<Integer> ranks = ShardingRule.ranks(n);
    for (Map<Character, Integer> factors : assignments) {
      int product = factors.values().stream().reduce(1, (a, b) -> a * b);
      if (fullyUseDevices && product != n && product != 1) {
        continue;
      }
      List<List<Integer>> strategy = new ArrayList<>();
      for (String tensor : spec.inputs()) {
        List<Integer> s = new ArrayList<>();
        for (char c : tensor.toCharArray()) {
          s.add(factors.getOrDefault(c, 1));
        }
        strategy.add(List.copyOf(s));
      }
      try {
        rule.shard(attrs, inShapes, strategy, null, ranks);
        out.add(List.copyOf(strategy));
      } catch (ShardingException e) {
        // a strategy the op refuses is no candidate
      }
    }
    return out;
  }

  private static void assign(
      String letters,
      int at,
      int left,
      Map<Character, Integer> size,
      Map<Character, Integer> chosen,
      List<Map<Character, Integer>> out) {
    if (at == letters.length()) {
      out.add(Map.copyOf(chosen));
      return;
    }
    char c = letters.charAt(at);
    for (int f = 1; f <= left; f++) {
      if (left % f == 0 && size.get(c) % f == 0) {
        chosen.put(c, f);
        assign(letters, at + 1, left / f, size, chosen, out);
      }
    }
    chosen.remove(c);
  }

  private static List<List<Integer>> ones(EinsumSpec spec) {
    return spec.inputs().stream()
        .map(s -> java.util.Collections.nCopies(s.length(), 1))
        .map(List::copyOf)
        .toList();
  }
}
