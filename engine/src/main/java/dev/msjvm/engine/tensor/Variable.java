package dev.msjvm.engine.tensor;

import java.util.Objects;

/**
 * The mutable storage behind a MindSpore {@code Parameter}: a name and the current {@link Tensor}.
 *
 * <p>A variable changes by taking a new tensor ({@code Assign}, {@code set_data}) or, for optimizer
 * updates, by having its current tensor overwritten in place. In-place writes are safe only while
 * nothing else can see the old values, so the variable tracks whether its current tensor may be
 * referenced elsewhere ("shared"): {@link #value()} hands the tensor out and marks it shared,
 * {@link #set} takes a tensor someone else may hold (shared), and {@link #writable()} gives an
 * update kernel a tensor it may overwrite, copying first when the current one is shared (copy on
 * write). Graphs refer to the variable, not to a value, so a replayed step reads the value current
 * at that moment. Example: {@code v.set(t)} then {@code v.value() == t}.
 */
public final class Variable {
  private String name;
  private Tensor value;
  private boolean shared = true;

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

  /** The current tensor, for a caller that may keep it: later updates copy before writing. */
  public Tensor value() {
    shared = true;
    return value;
  }

  /**
   * The current tensor without handing it out: for the runtime, which reads it for one operator and
   * keeps track of every alias it lets escape (and calls {@link #markShared()} for those).
   */
  public Tensor current() {
    return value;
  }

  /** Something outside the runtime's view may now see the current tensor's storage. */
  public void markShared() {
    shared = true;
  }

  /** Whether the current tensor may be referenced outside the variable. */
  public boolean shared() {
    return shared;
  }

  /** Takes {@code newValue}, which the caller (or others) may still hold. */
  public void set(Tensor newValue) {
    this.value = Objects.requireNonNull(newValue);
    shared = true;
  }

  /**
   * A tensor with the current values that the caller may overwrite in place; it becomes the current
   * tensor. It is the current tensor itself when {@code inPlace} and nothing else can see it, else
   * a private copy. The caller must not let it escape without {@link #markShared()}.
   */
  public Tensor writable(boolean inPlace) {
    if (!inPlace || shared) {
      value = value.copy();
      shared = false;
    }
    return value;
  }

  @Override
  public String toString() {
    return "Variable(" + name + ", " + value.dtype() + value.shape() + ")";
  }
}
