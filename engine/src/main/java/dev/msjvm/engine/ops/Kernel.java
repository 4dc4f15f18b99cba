package dev.msjvm.engine.ops;

import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;

/**
 * Computes one operator on host tensors. Kernels never modify their input tensors; operators that
 * update state (optimizers, {@code Assign}) receive the {@link Variable} and give it new tensors.
 */
@FunctionalInterface
public interface Kernel {

  /** The outputs of one call. */
  Tensor[] run(Call call);

  /** What a kernel sees: inputs, attributes and the backend's BLAS. */
  interface Call {
    int arity();

    /** Input {@code i} as a tensor (a variable's current value). */
    Tensor in(int i);

    /** Input {@code i} as a variable, or a TypeError naming the operator if it is a tensor. */
    Variable var(int i);

    Attrs attrs();

    Blas blas();
  }
}
