package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.EinsumSpec;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code PythonPrimitive}: a primitive a script defines in Python ({@code PrimitiveWithInfer} with
 * {@code infer_shape}/{@code infer_dtype}, optionally {@code get_bprop}), as it appears in a graph
 * compiled on shapes ({@code _cell_graph_executor.compile}, a dry run, parallel planning).
 * Attributes: {@code primitive} (its name), {@code shape} and {@code dtype} (the output its infer
 * functions gave), {@code bprop} (a {@code Function<Tensor[], Tensor[]>} calling its Python bprop
 * with the inputs, the output and the output's gradient; absent: no gradient). It has no kernel:
 * running one with values is a RuntimeError naming it (a script's PYNATIVE call runs its Python
 * {@code __call__} instead).
 *
 * <p>Sharding follows MindSpore's fallback for operators without an OperatorInfo ({@code
 * OperatorInstance}: BatchParallelInfo, else StandAloneInfo): dimension 0 of the inputs whose first
 * dimension equals the output's splits with the output's; when the first input's does not, every
 * tensor stays whole.
 */
final class PythonPrimitiveOps {
  private PythonPrimitiveOps() {}

  static List<OpDef> defs() {
    return List.of(
        OpDef.of(
                "PythonPrimitive",
                c -> {
                  throw MsException.runtimeError(
                      "The Python primitive '"
                          + c.attrs().string("primitive")
                          + "' has no kernel: msjvm compiles it from its infer_shape/infer_dtype"
                          + " but runs only its Python __call__ (PYNATIVE_MODE).");
                },
                PythonPrimitiveOps::grad)
            .infers(Infer.one((a, in) -> output(a)))
            .role(CostRole.BATCH_PARALLEL)
            .shards(ShardingRule.of(PythonPrimitiveOps::rule)));
  }

  private static AbstractTensor output(Attrs a) {
    return new AbstractTensor(new Shape(a.ints("shape")), DType.valueOf(a.string("dtype")));
  }

  @SuppressWarnings("unchecked")
  private static Tensor[] grad(GradRule.Call g) {
    if (!g.attrs().has("bprop")) {
      throw MsException.runtimeError(
          "The Python primitive '"
              + g.attrs().string("primitive")
              + "' defines no bprop (get_bprop), so it cannot be differentiated.");
    }
    Tensor[] args = new Tensor[g.arity() + 2];
    for (int i = 0; i < g.arity(); i++) {
      args[i] = g.in(i);
    }
    args[g.arity()] = g.out(0);
    args[g.arity() + 1] = g.dout(0);
    Tensor[] grads = ((Function<Tensor[], Tensor[]>) g.attrs().get("bprop")).apply(args);
    if (grads.length != g.arity()) {
      throw MsException.typeError(
          "The bprop of the Python primitive '"
              + g.attrs().string("primitive")
              + "' must return "
              + g.arity()
              + " gradients (one per input), but returned "
              + grads.length
              + ".");
    }
    return grads;
  }

  private static EinsumSpec rule(Attrs attrs, List<Shape> shapes) {
    Shape out = new Shape(attrs.ints("shape"));
    boolean batch =
        out.rank() > 0
            && !shapes.isEmpty()
            && shapes.get(0).rank() > 0
            && shapes.get(0).dim(0) == out.dim(0);
    List<String> in = new ArrayList<>();
    for (Shape s : shapes) {
      boolean split = batch && s.rank() > 0 && s.dim(0) == out.dim(0);
      in.add(s.rank() == 0 ? "" : (split ? "a" : "_") + "_".repeat(s.rank() - 1));
    }
    String output = out.rank() == 0 ? "" : (batch ? "a" : "_") + "_".repeat(out.rank() - 1);
    return new EinsumSpec(
        in,
        in,
        List.of(output),
        batch ? "a" : "",
        "",
        Map.of(),
        batch ? 'a' : (char) 0,
        List.of(out),
        false);
  }
}
