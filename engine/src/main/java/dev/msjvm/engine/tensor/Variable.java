package dev.msjvm.engine.tensor;

import dev.msjvm.engine.ir.AbstractTensor;
import java.util.Arrays;
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
 *
 * <p>A variable may also be deferred ({@link #deferred}): it knows its type and how to fill any
 * block of its value, and holds nothing until a parallel compile gives it its slice ({@link
 * #fillBlock}) or someone reads it (then it fills its whole value). Tracing on shapes reads only
 * its {@link #type}.
 */
public final class Variable {
  private String name;
  private Tensor value;
  private boolean shared = true;

  /** How to fill the value while deferred (null once it holds one). */
  private Fill fill;

  /** The type of the whole value while deferred. */
  private AbstractTensor deferredType;

  /**
   * Fills a block of a deferred variable's whole value: {@code length[d]} elements from {@code
   * begin[d]} along each dimension d. A fill that cannot make blocks returns the whole value.
   */
  @FunctionalInterface
  public interface Fill {
    Tensor block(int[] begin, int[] length);
  }

  public Variable(String name, Tensor value) {
    this.name = name;
    this.value = Objects.requireNonNull(value);
  }

  private Variable(String name, AbstractTensor type, Fill fill) {
    this.name = name;
    this.deferredType = Objects.requireNonNull(type);
    this.fill = Objects.requireNonNull(fill);
  }

  /** A variable of {@code type} holding nothing yet; {@code fill} makes (blocks of) its value. */
  public static Variable deferred(String name, AbstractTensor type, Fill fill) {
    return new Variable(name, type, fill);
  }

  /** Whether this variable holds no value yet ({@link #deferred}). */
  public boolean deferred() {
    return value == null;
  }

  /** The type of the value: the whole value's while deferred, else the held tensor's. */
  public AbstractTensor type() {
    return value == null ? deferredType : value.type();
  }

  /**
   * The block of the deferred whole value from {@code begin} with {@code length} elements per
   * dimension, or the whole value if the fill cannot make blocks; the variable stays deferred (the
   * caller {@link #set}s what it keeps).
   */
  public Tensor fillBlock(int[] begin, int[] length) {
    if (value != null) {
      throw new IllegalStateException(name + " is not deferred");
    }
    Tensor t = fill.block(begin.clone(), length.clone());
    if (!t.shape().equals(deferredType.shape()) && !Arrays.equals(t.shape().toArray(), length)
        || t.dtype() != deferredType.dtype()) {
      throw new IllegalStateException(
          "The fill of "
              + name
              + " gave "
              + t.dtype()
              + t.shape()
              + " for a block of "
              + Arrays.toString(length));
    }
    return t;
  }

  /** The held tensor; a deferred variable fills its whole value first. */
  private Tensor held() {
    if (value == null) {
      int[] whole = deferredType.shape().toArray();
      value = fillBlock(new int[whole.length], whole);
      fill = null;
      deferredType = null;
      shared = true;
    }
    return value;
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
    return held();
  }

  /**
   * The current tensor without handing it out: for the runtime, which reads it for one operator and
   * keeps track of every alias it lets escape (and calls {@link #markShared()} for those).
   */
  public Tensor current() {
    return held();
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
    fill = null;
    deferredType = null;
    shared = true;
  }

  /**
   * A tensor with the current values that the caller may overwrite in place; it becomes the current
   * tensor. It is the current tensor itself when {@code inPlace} and nothing else can see it, else
   * a private copy. The caller must not let it escape without {@link #markShared()}.
   */
  public Tensor writable(boolean inPlace) {
    held();
    if (!inPlace || shared) {
      value = value.copy();
      shared = false;
    }
    return value;
  }

  @Override
  public String toString() {
    AbstractTensor t = type();
    return "Variable("
        + name
        + ", "
        + t.dtype()
        + t.shape()
        + (value == null ? ", deferred)" : ")");
  }
}
