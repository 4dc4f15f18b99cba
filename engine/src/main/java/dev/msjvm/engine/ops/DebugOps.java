package dev.msjvm.engine.ops;

import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ShapeRules;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.TensorFormat;
import java.util.List;

/**
 * Operators that act on the world outside the graph: {@code Print}, which writes its items to the
 * rank's standard output each time the graph runs, one per line, as MindSpore's graph-mode Print
 * does (tensors in {@link TensorFormat#printed}, the other items as the shim formatted them).
 * Attributes: {@code items}, one character per item, {@code T} for the next tensor input and {@code
 * S} for the next of {@code texts}. It returns an int32 scalar 0 (MindSpore's Print returns a value
 * the graph can depend on); no gradient flows through it, and its inputs are gathered whole on a
 * parallel run, so every rank prints what a stand-alone run prints.
 */
final class DebugOps {
  private DebugOps() {}

  static List<OpDef> defs() {
    return List.of(
        new OpDef("Print", DebugOps::print, GradRule.NONE, true, List.of())
            .infers(Infer.one((a, in) -> new AbstractTensor(Shape.of(), DType.INT32)))
            .role(CostRole.GENERAL)
            .shards(ShapeRules.whole()));
  }

  private static Tensor[] print(Kernel.Call c) {
    String items = c.attrs().string("items");
    List<?> texts = c.attrs().has("texts") ? (List<?>) c.attrs().get("texts") : List.of();
    StringBuilder out = new StringBuilder();
    int tensor = 0;
    int text = 0;
    for (int k = 0; k < items.length(); k++) {
      out.append(
              items.charAt(k) == 'T'
                  ? TensorFormat.printed(c.in(tensor++))
                  : String.valueOf(texts.get(text++)))
          .append('\n');
    }
    c.print(out.toString());
    return new Tensor[] {Tensor.of(DType.INT32, Shape.of(), List.of(0))};
  }
}
