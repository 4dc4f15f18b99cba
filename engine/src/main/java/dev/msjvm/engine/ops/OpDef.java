package dev.msjvm.engine.ops;

import java.util.Objects;

/**
 * One operator, declared once: its MindSpore primitive name, its reference kernel and its gradient
 * (null when none is defined: differentiating through it is an error naming the operator).
 *
 * <p>{@code stateful} marks operators that update variables or draw random numbers: a traced graph
 * keeps them even when nothing reads their outputs. Example: {@code new OpDef("Neg", kernel, g ->
 * new Tensor[] {g.op("Neg", Attrs.EMPTY, g.dout(0))}, false)}.
 */
public record OpDef(String name, Kernel kernel, GradRule grad, boolean stateful) {
  public OpDef {
    Objects.requireNonNull(name);
    Objects.requireNonNull(kernel);
  }

  public static OpDef of(String name, Kernel kernel, GradRule grad) {
    return new OpDef(name, kernel, grad, false);
  }
}
