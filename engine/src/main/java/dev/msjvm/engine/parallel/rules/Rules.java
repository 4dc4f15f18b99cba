package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Every operator's sharding rule, by MindSpore primitive name: the rule each operator declares with
 * itself in {@link OpTable} ({@link OpDef#sharding}). Example: {@code
 * Rules.of("MatMul").shard(attrs, shapes, strategy, 8)}.
 */
public final class Rules {
  private Rules() {}

  /** The rule of {@code op}, or a RuntimeError naming it. */
  public static ShardingRule of(String op) {
    OpDef d = OpTable.find(op);
    if (d == null || d.sharding() == null) {
      throw MsException.runtimeError(
          "The operator '" + op + "' has no sharding rule in msjvm yet.");
    }
    return d.sharding();
  }

  public static boolean has(String op) {
    OpDef d = OpTable.find(op);
    return d != null && d.sharding() != null;
  }

  /**
   * Whether {@code op} is pointwise in MindSpore's sense ({@code IsElementWiseOperator}: the
   * arithmetic and activation operators, Cast, Softmax/LogSoftmax): every output element depends on
   * the input elements at the same position (Softmax: along one row). Declared by the operator's
   * {@link dev.msjvm.engine.ops.CostRole}.
   */
  public static boolean isElementwise(String op) {
    dev.msjvm.engine.ops.CostRole role = OpTable.roleOf(op);
    return role != null && role.isElementwise();
  }

  /** Names of the operators with a rule, sorted. */
  public static List<String> names() {
    List<String> out = new ArrayList<>();
    for (String name : OpTable.names()) {
      if (has(name)) {
        out.add(name);
      }
    }
    return List.copyOf(out);
  }
}
