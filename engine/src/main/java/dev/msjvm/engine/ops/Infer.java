package dev.msjvm.engine.ops;

import dev.msjvm.engine.ir.AbstractTensor;
import java.util.List;

/**
 * The shape and dtype inference of one operator: its outputs' {@link AbstractTensor}s from its
 * attributes and its inputs' (a variable input: the type of its value), with MindSpore's errors for
 * inputs the operator refuses. It reads no values and runs no kernel, so a compile can trace on
 * shapes alone; the kernel computes outputs of exactly these types (checked on every call under
 * {@code -Dmsjvm.checkInfer=true}, which the test suites set).
 *
 * <p>Example: {@code OpTable.get("MatMul").infer().outputs(Attrs.EMPTY, List.of(AbstractTensor.of(
 * FLOAT32, 2, 3), AbstractTensor.of(FLOAT32, 3, 4)))} is {@code [Tensor[Float32][2, 4]]}.
 */
@FunctionalInterface
public interface Infer {
  List<AbstractTensor> outputs(Attrs attrs, List<AbstractTensor> inputs);

  /** One output typed as input {@code i} (unary elementwise ops, Identity, Load...). */
  static Infer like(int i) {
    return (attrs, in) -> List.of(in.get(i));
  }

  /** One output per input, each typed as that input (gradients of several inputs...). */
  static Infer likeEach(int... inputs) {
    return (attrs, in) -> {
      AbstractTensor[] out = new AbstractTensor[inputs.length];
      for (int k = 0; k < inputs.length; k++) {
        out[k] = in.get(inputs[k]);
      }
      return List.of(out);
    };
  }

  /** An inference with one output, from a function of the attributes and inputs. */
  static Infer one(java.util.function.BiFunction<Attrs, List<AbstractTensor>, AbstractTensor> f) {
    return (attrs, in) -> List.of(f.apply(attrs, in));
  }
}
