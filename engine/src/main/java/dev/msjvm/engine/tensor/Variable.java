package dev.msjvm.engine.tensor;

import java.util.Objects;

/**
 * The mutable storage behind a MindSpore {@code Parameter}: a name and the current {@link Tensor}.
 *
 * <p>Tensors never change; a variable changes by taking a new tensor ({@code Assign}, an optimizer
 * update, {@code set_data}). Graphs refer to the variable, not to a value, so a replayed step reads
 * the value current at that moment. Example: {@code v.set(t)} then {@code v.value() == t}.
 */
public final class Variable {
  private String name;
  private Tensor value;

  public Variable(String name, Tensor value) {
    this.name = name;
    this.value = Objects.requireNonNull(value);
  }

  public String name() {
    return name;
  }

  public void rename(String newName) {
    this.name = newName;
  }

  public Tensor value() {
    return value;
  }

  public void set(Tensor newValue) {
    this.value = Objects.requireNonNull(newValue);
  }

  @Override
  public String toString() {
    return "Variable(" + name + ", " + value.dtype() + value.shape() + ")";
  }
}
