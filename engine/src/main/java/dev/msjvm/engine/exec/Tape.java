package dev.msjvm.engine.exec;

import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator calls run while it was active, in order: what autodiff walks backwards and what a
 * GRAPH_MODE trace compiles into a {@link Graph}.
 *
 * <p>Inputs are recorded as given (a {@link Tensor} or a {@link dev.msjvm.engine.tensor.Variable})
 * together with the tensors they held at the call. A tape also notes whether Python read the value
 * of a tensor it produced: such a trace depends on data and cannot be replayed.
 */
public final class Tape {
  /**
   * One recorded call; {@code backward} when a gradient computation ({@link Autodiff}) ran it (the
   * strategy search decides only the calls before the first such step).
   */
  public record Step(
      OpDef op,
      Attrs attrs,
      Object[] inputs,
      Tensor[] inputValues,
      Tensor[] outputs,
      boolean backward) {}

  private final List<Step> steps = new ArrayList<>();
  private final Map<Tensor, Boolean> produced = new IdentityHashMap<>();
  private final Map<Tensor, Boolean> leaves = new IdentityHashMap<>();
  private final boolean onShapes;
  private final long serial;
  private boolean valueRead;
  private String valueReadReason;
  private boolean folds;

  Tape(boolean onShapes, long serial) {
    this.onShapes = onShapes;
    this.serial = serial;
  }

  /** This tape's number among those its runtime pushed (1 for the first), never reused. */
  public long serial() {
    return serial;
  }

  /**
   * Lets the runtime fold calls on small constants while this tape records (see {@code
   * Runtime.foldable}): for tapes whose arguments are all {@linkplain #addLeaves leaves}, as
   * Python's traces and gradient tapes are; a tape that differentiates tensors it was not told of
   * must not fold them away.
   */
  public void foldConstants() {
    folds = true;
  }

  boolean folds() {
    return folds;
  }

  /** Whether this tape traces on shapes alone ({@link Runtime#pushAbstract}). */
  public boolean onShapes() {
    return onShapes;
  }

  void record(Step step) {
    steps.add(step);
    for (Tensor t : step.outputs()) {
      produced.put(t, Boolean.TRUE);
    }
  }

  /** Marks tensors given from outside (the traced function's arguments). */
  public void addLeaves(List<Tensor> tensors) {
    for (Tensor t : tensors) {
      leaves.put(t, Boolean.TRUE);
    }
  }

  public List<Step> steps() {
    return steps;
  }

  /** How many calls this tape has recorded. */
  public int size() {
    return steps.size();
  }

  /**
   * A tape of this one's calls {@code from} (inclusive) to {@code to} (exclusive), with this one's
   * serial: what a call of a cell inside a trace recorded, for differentiating that call alone.
   */
  public Tape slice(int from, int to) {
    Tape part = new Tape(onShapes, serial);
    for (Step step : steps.subList(from, to)) {
      part.record(step);
    }
    return part;
  }

  /**
   * The step that produced {@code t} (the latest one) gets attribute {@code key} = {@code value}.
   */
  void setAttr(Tensor t, String key, Object value) {
    for (int i = steps.size() - 1; i >= 0; i--) {
      Step s = steps.get(i);
      for (Tensor o : s.outputs()) {
        if (o == t) {
          steps.set(
              i,
              new Step(
                  s.op(),
                  s.attrs().with(key, value),
                  s.inputs(),
                  s.inputValues(),
                  s.outputs(),
                  s.backward()));
          return;
        }
      }
    }
  }

  /** Whether {@code t} was produced by a step of this tape or is one of its leaves. */
  public boolean tracks(Tensor t) {
    return produced.containsKey(t) || leaves.containsKey(t);
  }

  void noteValueRead(String reason) {
    if (!valueRead) {
      valueRead = true;
      valueReadReason = reason;
    }
  }

  /** Whether Python read a traced value (then the trace is not replayable). */
  public boolean valueRead() {
    return valueRead;
  }

  public String valueReadReason() {
    return valueReadReason;
  }
}
