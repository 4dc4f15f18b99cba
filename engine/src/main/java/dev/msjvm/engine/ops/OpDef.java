package dev.msjvm.engine.ops;

import java.util.List;
import java.util.Objects;

/**
 * One operator, declared once: its MindSpore primitive name, its reference kernel and its gradient
 * (null when none is defined: differentiating through it is an error naming the operator).
 *
 * <p>{@code stateful} marks operators that update variables or draw random numbers: a traced graph
 * keeps them even when nothing reads their outputs; {@code written} lists the inputs such an
 * operator may write (null: any variable input). Example: {@code new OpDef("Neg", kernel, g -> new
 * Tensor[] {g.op("Neg", Attrs.EMPTY, g.dout(0))}, false)}.
 */
public record OpDef(
    String name, Kernel kernel, GradRule grad, boolean stateful, List<Integer> written) {
  public OpDef {
    Objects.requireNonNull(name);
    Objects.requireNonNull(kernel);
    written = written == null ? null : List.copyOf(written);
  }

  /** An operator whose variable inputs, if {@code stateful}, may all be written. */
  public OpDef(String name, Kernel kernel, GradRule grad, boolean stateful) {
    this(name, kernel, grad, stateful, null);
  }

  /**
   * Whether input {@code i} may be a variable the kernel writes (then it is passed as the variable
   * itself); other variable inputs are read through a traced Load like any operator's.
   */
  public boolean writes(int i) {
    return stateful && (written == null || written.contains(i));
  }

  public static OpDef of(String name, Kernel kernel, GradRule grad) {
    return new OpDef(name, kernel, grad, false);
  }
}
