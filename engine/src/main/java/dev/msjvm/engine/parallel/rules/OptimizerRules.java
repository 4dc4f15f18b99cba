package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.CostRole;
import dev.msjvm.engine.ops.OpTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The fused optimizer updates: every input shaped like the parameter (moments, gradient, SGD's
 * stat) shares the parameter's letters, so they take its layout; the scalars (learning rate,
 * betas...) are replicated. Each output is a parameter-shaped state.
 *
 * <p>Lamb scales the whole update by a trust ratio, {@code ||var|| / ||update||}, norms over the
 * whole parameter that feed back into every element: no partial output can express that, so its
 * letters stay unsplit and each rank updates the whole parameter (data parallel). It is not an
 * {@link #isUpdate} op, which would run in the parameter's own layout: a parameter another
 * operator's strategy splits is refused by the partitioner, and optimizer parallel leaves Lamb's
 * parameters whole ({@link #needsWholeParameter}). LearningRateSchedule computes one learning rate
 * from the step (a scalar or {@code [1]}): replicated.
 */
public final class OptimizerRules {
  private OptimizerRules() {}

  /**
   * Whether {@code op} is one of the fused optimizer updates (cost role {@link CostRole#UPDATE}).
   */
  public static boolean isUpdate(String op) {
    return OpTable.roleOf(op) == CostRole.UPDATE;
  }

  /**
   * Whether {@code op} updates a parameter from norms over all of it (Lamb's trust ratio, cost role
   * {@link CostRole#WHOLE_UPDATE}): it must run on the whole parameter, never on a piece of it
   * (optimizer parallel skips its parameters).
   */
  public static boolean needsWholeParameter(String op) {
    return OpTable.roleOf(op) == CostRole.WHOLE_UPDATE;
  }

  /** A fused update with {@code outputs} parameter-shaped outputs. */
  public static ShardingRule update(int outputs) {
    return ShardingRule.of((attrs, shapes) -> update(shapes, outputs));
  }

  /** Lamb: the update's letters stay unsplit. */
  public static ShardingRule lamb() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          EinsumSpec spec = update(shapes, 3);
          return spec.unsplit(spec.matrix());
        });
  }

  /** LearningRateSchedule: one replicated learning rate. */
  public static ShardingRule learningRateSchedule() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          Shape step = shapes.get(0);
          String whole = "_".repeat(step.rank());
          return EinsumSpec.parse(whole + "->" + whole).outputShapes(List.of(step));
        });
  }

  private static EinsumSpec update(List<Shape> shapes, int outputs) {
    Shape param = shapes.get(0);
    String p = Letters.run('a', param.rank());
    List<String> in = new ArrayList<>();
    for (Shape s : shapes) {
      in.add(s.equals(param) ? p : "_".repeat(s.rank()));
    }
    return new EinsumSpec(
        in, in, Collections.nCopies(outputs, p), p, "", Map.of(), (char) 0, null, false);
  }
}
