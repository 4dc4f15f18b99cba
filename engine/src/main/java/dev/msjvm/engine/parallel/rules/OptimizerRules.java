package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The fused optimizer updates: every input shaped like the parameter (moments, gradient, SGD's
 * stat) shares the parameter's letters, so they take its layout; the scalars (learning rate,
 * betas...) are replicated. Each output is a parameter-shaped state. Lamb is not covered: its trust
 * ratio needs norms over the whole parameter.
 */
public final class OptimizerRules {
  private OptimizerRules() {}

  /** Operator name and its number of outputs. */
  private static final Map<String, Integer> OPS =
      Map.of("ApplyMomentum", 1, "SGD", 1, "Adam", 3, "AdamWeightDecay", 3);

  /** Whether {@code op} is one of the fused optimizer updates. */
  public static boolean isUpdate(String op) {
    return OPS.containsKey(op);
  }

  static List<ShardingRule> rules() {
    List<ShardingRule> out = new ArrayList<>();
    for (var e : OPS.entrySet()) {
      out.add(ShardingRule.of(e.getKey(), (attrs, shapes) -> update(shapes, e.getValue())));
    }
    return out;
  }

  static EinsumSpec update(List<Shape> shapes, int outputs) {
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
