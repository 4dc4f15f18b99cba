package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.Elementwise;
import java.util.ArrayList;
import java.util.List;

/**
 * Pointwise operators (MindSpore's arithmetic_info.cc, activation_info.cc, elementary_function
 * info): every dimension passes through; inputs broadcast right-aligned, a size-1 dim facing a
 * larger one never splits; the device matrix is the output's dims. No forward communication.
 */
final class ElementwiseRules {
  private ElementwiseRules() {}

  static final List<String> BINARY =
      List.of(
          "Add",
          "AddExt",
          "Sub",
          "SubExt",
          "Mul",
          "Div",
          "RealDiv",
          "Maximum",
          "Minimum",
          "Pow",
          "FloorDiv",
          "FloorMod",
          "Equal",
          "NotEqual",
          "Less",
          "LessEqual",
          "Greater",
          "GreaterEqual",
          // gradient operators of pointwise ops: two same-shaped inputs
          "ReluGrad",
          "SigmoidGrad",
          "TanhGrad",
          "GeLUGrad",
          "DropoutGrad",
          "Assign",
          "Select");

  static List<String> unary() {
    List<String> names = new ArrayList<>();
    for (Elementwise.Unary u : Elementwise.Unary.values()) {
      names.add(u.primitive());
    }
    names.addAll(
        List.of(
            "GeLU",
            "ScalarOp",
            "Cast",
            "ZerosLike",
            "OnesLike",
            "StopGradient",
            "Identity",
            "Load",
            "Dropout"));
    return names;
  }

  static List<ShardingRule> rules() {
    List<ShardingRule> out = new ArrayList<>();
    for (String name : BINARY) {
      out.add(
          ShardingRule.of(name, (attrs, shapes) -> Letters.broadcast(shapes))
              .checking(ElementwiseRules::arithmeticCheck));
    }
    for (String name : unary()) {
      out.add(
          ShardingRule.of(
              name,
              (attrs, shapes) -> {
                EinsumSpec s = Letters.broadcast(shapes);
                // Dropout also returns its mask, laid out as the input.
                return name.equals("Dropout") ? withOutputs(s, 2, shapes.get(0)) : s;
              }));
    }
    return out;
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
