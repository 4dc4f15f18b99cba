package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every operator's sharding rule, by MindSpore primitive name. Immutable, shared by all jobs.
 * Example: {@code Rules.of("MatMul").shard(attrs, shapes, strategy, 8)}.
 */
public final class Rules {
  private static final Map<String, ShardingRule> RULES = build();

  private Rules() {}

  private static Map<String, ShardingRule> build() {
    Map<String, ShardingRule> m = new TreeMap<>();
    for (List<ShardingRule> family :
        List.of(
            ElementwiseRules.rules(),
            MatrixRules.rules(),
            ReductionRules.rules(),
            NnRules.rules(),
            ShapeRules.rules(),
            IndexRules.rules(),
            OptimizerRules.rules())) {
      for (ShardingRule r : family) {
        if (m.put(r.name(), r) != null) {
          throw new IllegalStateException("sharding rule " + r.name() + " declared twice");
        }
      }
    }
    return Collections.unmodifiableMap(m);
  }

  /** The rule of {@code op}, or a RuntimeError naming it. */
  public static ShardingRule of(String op) {
    ShardingRule r = RULES.get(op);
    if (r == null) {
      throw MsException.runtimeError(
          "The operator '" + op + "' has no sharding rule in msjvm yet.");
    }
    return r;
  }

  public static boolean has(String op) {
    return RULES.containsKey(op);
  }

  /**
   * Whether {@code op} is pointwise in MindSpore's sense ({@code IsElementWiseOperator}: the
   * arithmetic and activation operators, Cast, Softmax/LogSoftmax): every output element depends on
   * the input elements at the same position (Softmax: along one row). Declared by the operator's
   * {@link dev.msjvm.engine.ops.CostRole}.
   */
  public static boolean isElementwise(String op) {
    OpDef d = OpTable.find(op);
    return d != null && d.costRole().isElementwise();
  }

  /** Names of the covered operators, sorted. */
  public static List<String> names() {
    return List.copyOf(RULES.keySet());
  }
}
