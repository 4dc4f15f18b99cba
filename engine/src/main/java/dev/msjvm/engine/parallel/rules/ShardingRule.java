package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.List;

/**
 * The sharding rule of one operator: a function from (attributes, input shapes) to its {@link
 * EinsumSpec}, optional MindSpore-specific strategy checks (for MindSpore's log texts), and how the
 * op's attributes change when it runs on slices. Everything else is the generic {@link
 * Interpreter}.
 *
 * <p>A rule is declared with its operator ({@code OpDef.shards}), which binds it to the operator's
 * name (MindSpore's {@code <Name>Info} texts name it); the families ({@link ElementwiseRules},
 * {@link MatrixRules}...) make the unbound rules ({@code name} null).
 *
 * <p>Example, as the graph partitioner calls it:
 *
 * <pre>{@code
 * ShardingRule rule = Rules.of("MatMul");
 * OpSharding s = rule.shard(attrs, List.of(Shape.of(64, 32), Shape.of(32, 16)),
 *     List.of(List.of(2, 4), List.of(4, 1)), 8);
 * s.deviceMatrix();   // [2, 4, 1]
 * s.partial(0);       // AllReduce(SUM over axes [1])
 * }</pre>
 */
public record ShardingRule(
    String name,
    SpecFn spec,
    Checker check,
    AttrLocalizer localizer,
    OutChecker outCheck,
    Lowerer lowerer,
    java.util.function.Predicate<List<List<Integer>>> offered,
    Deriver deriver) {

  /** The op's spec for one call. */
  @FunctionalInterface
  public interface SpecFn {
    EinsumSpec of(Attrs attrs, List<Shape> inputShapes);
  }

  /**
   * A check MindSpore makes beyond the generic ones, returning its logged text (without the {@code
   * <Name>Info: } prefix) or null when the strategy passes. Runs after CheckStrategyByVector. It
   * sees the call's attributes, as MindSpore's checks read them (Conv2D's pad mode and stride,
   * Tile's multiples).
   */
  @FunctionalInterface
  public interface Checker {
    String problem(
        Attrs attrs,
        EinsumSpec spec,
        List<List<Integer>> strategy,
        List<Shape> strategyShapes,
        int deviceCount);

    Checker NONE = (attrs, spec, strategy, shapes, n) -> null;
  }

  /**
   * The out_strategy check (MindSpore's {@code CheckOutputStrategy}): validates {@code out} (null:
   * none given) and says whether output 0 is completed by a ReduceScatter.
   */
  @FunctionalInterface
  public interface OutChecker {
    boolean scatter(
        String op,
        EinsumSpec spec,
        List<List<Integer>> in,
        List<List<Integer>> out,
        java.util.Map<Character, Integer> splits,
        List<Shape> outShapes,
        int deviceCount);
  }

  /** The attributes a rank's kernel gets when it runs on its slices. */
  @FunctionalInterface
  public interface AttrLocalizer {
    Attrs local(Attrs attrs, OpSharding sharding, int rank);

    AttrLocalizer SAME = (attrs, sharding, rank) -> attrs;
  }

  /**
   * The neighbour exchanges a rank's kernel needs around its slices (a Conv2D whose input is split
   * along H or W): NeighborExchangeV2 attributes, without the group, per input to exchange before
   * the kernel reads it and per output whose kernel result is framed by halos to be sent back
   * (NeighborExchangeV2Grad) before it is the output's slice.
   */
  @FunctionalInterface
  public interface Lowerer {
    NodeSharding.Lowering at(Attrs attrs, OpSharding sharding, int rank);

    Lowerer NONE = (attrs, sharding, rank) -> NodeSharding.Lowering.NONE;
  }

  /**
   * The strategy the op runs with, from the one given (after the generic checks): ops whose
   * optional inputs' layouts MindSpore derives from the device matrix, whatever their strategies
   * say (FusedInferAttentionScore's).
   */
  @FunctionalInterface
  public interface Deriver {
    List<List<Integer>> strategy(EinsumSpec spec, List<List<Integer>> given);

    Deriver GIVEN = (spec, given) -> given;

    /**
     * The strategies of the inputs from {@code leading} on follow their letters' splits in the
     * first {@code leading} inputs (a letter they lack, or {@code _}: whole).
     */
    static Deriver following(int leading) {
      return (spec, given) -> {
        java.util.Map<Character, Integer> split = new java.util.HashMap<>();
        for (int i = 0; i < leading && i < given.size(); i++) {
          String letters = spec.inputs().get(i);
          for (int d = 0; d < letters.length(); d++) {
            split.putIfAbsent(letters.charAt(d), given.get(i).get(d));
          }
        }
        List<List<Integer>> out = new java.util.ArrayList<>(given.subList(0, leading));
        for (int i = leading; i < given.size(); i++) {
          List<Integer> sub = new java.util.ArrayList<>();
          for (char c : spec.inputs().get(i).toCharArray()) {
            sub.add(c == EinsumSpec.FRESH ? 1 : split.getOrDefault(c, 1));
          }
          out.add(List.copyOf(sub));
        }
        return List.copyOf(out);
      };
    }
  }

  public ShardingRule {
    java.util.Objects.requireNonNull(deriver);
    java.util.Objects.requireNonNull(spec);
    java.util.Objects.requireNonNull(check);
    java.util.Objects.requireNonNull(localizer);
    java.util.Objects.requireNonNull(outCheck);
    java.util.Objects.requireNonNull(lowerer);
    java.util.Objects.requireNonNull(offered);
  }

  /** A rule not yet bound to an operator, with no extra check and unchanged attributes. */
  public static ShardingRule of(SpecFn spec) {
    return new ShardingRule(
        null,
        spec,
        Checker.NONE,
        AttrLocalizer.SAME,
        OutStrategy::check,
        Lowerer.NONE,
        strategy -> true,
        Deriver.GIVEN);
  }

  /** This rule, as operator {@code op}'s. */
  public ShardingRule named(String op) {
    return new ShardingRule(op, spec, check, localizer, outCheck, lowerer, offered, deriver);
  }

  public ShardingRule checking(Checker checker) {
    return new ShardingRule(name, spec, checker, localizer, outCheck, lowerer, offered, deriver);
  }

  /** This rule running with the strategies {@code d} derives from the given ones. */
  public ShardingRule deriving(Deriver d) {
    return new ShardingRule(name, spec, check, localizer, outCheck, lowerer, offered, d);
  }

  public ShardingRule localizing(AttrLocalizer local) {
    return new ShardingRule(name, spec, check, local, outCheck, lowerer, offered, deriver);
  }

  /** This rule with its own out_strategy check (Gather's). */
  public ShardingRule checkingOut(OutChecker checker) {
    return new ShardingRule(name, spec, check, localizer, checker, lowerer, offered, deriver);
  }

  /** This rule with neighbour exchanges around the kernel. */
  public ShardingRule lowering(Lowerer ex) {
    return new ShardingRule(name, spec, check, localizer, outCheck, ex, offered, deriver);
  }

  /**
   * This rule offering a strategy search only the strategies {@code filter} accepts (a strategy a
   * user gives may still be any the rule accepts): MindSpore generates Conv2D's H/W splits for
   * sharding propagation alone, and the cost model does not price a halo exchange.
   */
  public ShardingRule offering(java.util.function.Predicate<List<List<Integer>>> filter) {
    return new ShardingRule(name, spec, check, localizer, outCheck, lowerer, filter, deriver);
  }

  /**
   * A localizer that sets the shape-valued attribute {@code attr} to the rank's slice shape of
   * output 0 (Reshape's {@code shape}, BroadcastTo's, GatherGrad's...).
   */
  public static AttrLocalizer outputShapeAttr(String attr) {
    return (attrs, s, rank) -> attrs.with(attr, s.outputLayouts().get(0).sliceShape().dims());
  }

  /** The rule's spec for one call (for printing and for the partitioner). */
  public EinsumSpec specFor(Attrs attrs, List<Shape> inputShapes) {
    return spec.of(attrs, inputShapes).checked();
  }

  /**
   * Validates {@code strategy} (null: the default batch-parallel strategy) as MindSpore does and
   * derives the device matrix, layouts and forward communication on ranks {@code 0..deviceCount-1}.
   * A refused strategy is a {@link ShardingException}.
   */
  public OpSharding shard(
      Attrs attrs, List<Shape> inputShapes, List<List<Integer>> strategy, int deviceCount) {
    return shard(attrs, inputShapes, strategy, null, ranks(deviceCount));
  }

  /** {@link #shard} with an out_strategy (null: none) on the stage's {@code rankList}. */
  public OpSharding shard(
      Attrs attrs,
      List<Shape> inputShapes,
      List<List<Integer>> strategy,
      List<List<Integer>> outStrategy,
      List<Integer> rankList) {
    return Interpreter.shard(this, attrs, inputShapes, strategy, outStrategy, rankList);
  }

  /** MindSpore's default (batch-parallel) strategy for this call (§4.3 of the reference notes). */
  public List<List<Integer>> defaultStrategy(
      Attrs attrs, List<Shape> inputShapes, int deviceCount) {
    return Interpreter.defaultStrategy(specFor(attrs, inputShapes), inputShapes, deviceCount);
  }

  /**
   * The strategy that consumes the given input layouts (null entries: no preference) without
   * redistribution where the rule allows: each letter takes the split of the first input that
   * carries it; letters the rule keeps whole fall back to 1; if that strategy is refused (device
   * count, op checks) the default strategy, else all ones. The op's derived layouts may still place
   * the slices on other ranks than {@code inputLayouts} (MindSpore appends the repeated axis on the
   * right); {@link Layouts#sameSlices} tells whether a redistribution is needed.
   */
  public List<List<Integer>> strategyFollowing(
      Attrs attrs, List<Shape> inputShapes, List<TensorLayout> inputLayouts, int deviceCount) {
    return Interpreter.following(this, attrs, inputShapes, inputLayouts, deviceCount);
  }

  /**
   * Every strategy this call accepts on {@code deviceCount} devices, for a strategy search (see
   * {@link Interpreter#candidates}); the all-ones strategy first.
   */
  public List<List<List<Integer>>> candidates(
      Attrs attrs, List<Shape> inputShapes, int deviceCount, boolean fullyUseDevices) {
    return candidates(attrs, inputShapes, deviceCount, fullyUseDevices, false);
  }

  /**
   * As {@link #candidates(Attrs, List, int, boolean)}; with {@code everyAccepted} also the
   * strategies {@link #offering} keeps from a costed search (MindSpore's sharding propagation
   * generates a window op's spatial splits).
   */
  public List<List<List<Integer>>> candidates(
      Attrs attrs,
      List<Shape> inputShapes,
      int deviceCount,
      boolean fullyUseDevices,
      boolean everyAccepted) {
    return Interpreter.candidates(this, attrs, inputShapes, deviceCount, fullyUseDevices).stream()
        .filter(everyAccepted ? s -> true : offered)
        .toList();
  }

  /** The attributes rank {@code rank}'s kernel runs with under {@code sharding}. */
  public Attrs localAttrs(Attrs attrs, OpSharding sharding, int rank) {
    return localizer.local(attrs, sharding, rank);
  }

  /** The neighbour exchanges around rank {@code rank}'s kernel under {@code sharding}. */
  public NodeSharding.Lowering lowering(Attrs attrs, OpSharding sharding, int rank) {
    return lowerer.at(attrs, sharding, rank);
  }

  static List<Integer> ranks(int n) {
    return dev.msjvm.engine.parallel.RankRange.of(n);
  }
}
