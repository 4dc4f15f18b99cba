package dev.msjvm.engine.ops;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;

/**
 * The gradient of one operator, composed from registered operators: given the forward inputs,
 * outputs and the gradients of the outputs, the gradients of the inputs (null where an input gets
 * none). Because it emits registered operators, a backward graph is made of the same operators as a
 * forward one (and is sharded by the same rules).
 */
@FunctionalInterface
public interface GradRule {
  /**
   * For operators whose inputs get no gradient (comparisons, {@code OneHot}, {@code ZerosLike}).
   */
  GradRule NONE = g -> new Tensor[g.arity()];

  /**
   * For operators with no gradient defined (the gradient operators themselves): differentiating
   * through one is a RuntimeError naming it. Never called.
   */
  GradRule UNDEFINED =
      g -> {
        throw new IllegalStateException("an undefined gradient was called");
      };

  Tensor[] grad(Call g);

  /** What a gradient rule sees, and how it emits operators. */
  interface Call {
    int arity();

    /** Whether input {@code i} needs a gradient (rules may skip the work for the others). */
    boolean needs(int i);

    Tensor in(int i);

    Tensor out(int i);

    /** The gradient of output {@code i}; zeros when that output did not reach the loss. */
    Tensor dout(int i);

    Attrs attrs();

    /** Runs registered operator {@code name}; its first output. */
    Tensor op(String name, Attrs attrs, Object... inputs);

    /** Runs registered operator {@code name}; all its outputs. */
    Tensor[] ops(String name, Attrs attrs, Object... inputs);

    /**
     * Runs {@code op}, an operator not in the table (a collective bound to one rank's
     * communicator); all its outputs.
     */
    Tensor[] apply(OpDef op, Attrs attrs, Object... inputs);

    /** {@code t} summed over the dimensions broadcasting added or stretched, to {@code shape}. */
    default Tensor sumTo(Tensor t, Shape shape) {
      if (t.shape().equals(shape)) {
        return t;
      }
      int lead = t.shape().rank() - shape.rank();
      java.util.List<Integer> axes = new java.util.ArrayList<>();
      for (int d = 0; d < t.shape().rank(); d++) {
        if (d < lead || (shape.dim(d - lead) == 1 && t.shape().dim(d) != 1)) {
          axes.add(d);
        }
      }
      Tensor s = op("ReduceSum", Attrs.of("keep_dims", true, "axis", axes), t);
      return op("Reshape", Attrs.of("shape", shape.dims()), s);
    }
  }
}
