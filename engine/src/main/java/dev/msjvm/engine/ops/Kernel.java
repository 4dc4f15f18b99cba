package dev.msjvm.engine.ops;

import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;

/**
 * Computes one operator on host tensors. Kernels never modify their input tensors; operators that
 * update state receive the {@link Variable} and either give it a new tensor ({@code Assign}) or
 * overwrite the tensor {@link Call#writable} returns (optimizer updates). Each output is either a
 * view of an input or storage the kernel created and keeps no reference to (no caches, no storage
 * shared with other ranks): a replayed graph recycles such storage for its next replay once nothing
 * it returned can reach it.
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

    /**
     * Variable input {@code i}'s tensor for an update in place: its current tensor when the runtime
     * knows nothing else can see it (nothing handed out, no later reader in the running graph),
     * else a private copy that becomes the variable's value. Either way it holds the current values
     * and is the variable's value afterwards.
     */
    Tensor writable(int i);

    Attrs attrs();

    Blas blas();

    /** Writes {@code text} to the rank's standard output (Print). */
    void print(String text);
  }
}
