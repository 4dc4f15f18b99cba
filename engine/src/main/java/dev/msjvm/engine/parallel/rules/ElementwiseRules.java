package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import java.util.List;

/**
 * Pointwise operators (MindSpore's arithmetic_info.cc, activation_info.cc, elementary_function
 * info): every dimension passes through; inputs broadcast right-aligned, a size-1 dim facing a
 * larger one never splits; the device matrix is the output's dims. No forward communication.
 */
public final class ElementwiseRules {
  private ElementwiseRules() {}

  /**
   * The arithmetic operators (two or more inputs broadcast right-aligned): a dim two inputs share
   * must be split alike (ArithmeticBase's check).
   */
  public static ShardingRule arithmetic() {
    return ShardingRule.of((attrs, shapes) -> Letters.broadcast(shapes))
        .checking(ElementwiseRules::arithmeticCheck);
  }

  /** A pointwise operator of one input (activations, casts, pass-throughs). */
  public static ShardingRule pointwise() {
    return ShardingRule.of((attrs, shapes) -> Letters.broadcast(shapes));
  }

  /**
   * A pointwise operator of one input with {@code outputs} outputs laid out as the input (Dropout
   * also returns its mask).
   */
  public static ShardingRule pointwise(int outputs) {
    return ShardingRule.of(
        (attrs, shapes) -> withOutputs(Letters.broadcast(shapes), outputs, shapes.get(0)));
  }

  private static EinsumSpec withOutputs(EinsumSpec s, int n, Shape shape) {
    List<String> outs = java.util.Collections.nCopies(n, s.outputs().get(0));
    return new EinsumSpec(
        s.inputs(),
        s.layouts(),
        outs,
        s.matrix(),
        s.unsplit(),
        s.reduce(),
        s.batch(),
        java.util.Collections.nCopies(n, shape),
        false);
  }

  /** ArithmeticBase::BaseCheckStrategy's text for unequal splits of a shared dim. */
  private static String arithmeticCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> strategy, List<Shape> shapes, int n) {
    for (int i = 1; i < strategy.size(); i++) {
      if (sharedMismatch(
          spec.inputs().get(0), strategy.get(0), spec.inputs().get(i), strategy.get(i))) {
        return "Invalid strategy.";
      }
    }
    return null;
  }

  /** Whether two letter strings give one letter different splits. */
  static boolean sharedMismatch(String a, List<Integer> sa, String b, List<Integer> sb) {
    for (int i = 0; i < a.length(); i++) {
      int j = b.indexOf(a.charAt(i));
      if (a.charAt(i) != EinsumSpec.FRESH && j >= 0 && !sa.get(i).equals(sb.get(j))) {
        return true;
      }
    }
    return false;
  }
}
