package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.Kernel;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.ops.OpTable;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs operators for one interpreter (one rank) and records them on the active tapes.
 *
 * <p>PYNATIVE runs every call here eagerly; {@code grad} and GRAPH_MODE tracing push a {@link Tape}
 * first, so the same calls are also recorded (nested tapes all record). Not thread-safe: one
 * interpreter runs on one thread. Example: {@code rt.apply("Add", Attrs.EMPTY, x, y)[0]}.
 */
public final class Runtime {
  /**
   * Whether every kernel call checks its outputs against its operator's shape and dtype inference
   * ({@code -Dmsjvm.checkInfer=true}, set by the test suites): a mismatch is an
   * IllegalStateException naming the operator. Read once per JVM; off in production runs.
   */
  private static final boolean CHECK_INFER = Boolean.getBoolean("msjvm.checkInfer");

  private static final OpDef LOAD = OpTable.get("Load");

  private final Supplier<Blas> blas;
  private final List<Tape> tapes = new ArrayList<>();
  private long tapesPushed;

  /**
   * Attributes a primitive's call adds to the recorded engine operators it runs under one of its
   * names: the {@code in_strategy}/{@code out_strategy} of {@code shard}, which the graph
   * partitioner reads from the traced nodes. Innermost call last.
   */
  private final List<Map.Entry<List<String>, Attrs>> callAttrs = new ArrayList<>();

  /**
   * Labels every recorded operator carries while they are pushed ({@link #pushLabels}): the {@code
   * pipeline_stage} of the cell being traced and the {@code micro} batch index of a micro-batch
   * wrapper. Gradient operators carry the labels of the forward operator they differentiate.
   * Innermost last; an inner label wins.
   */
  private final List<Attrs> labels = new ArrayList<>();

  /** The attribute names {@link #pushLabels} accepts. */
  public static final List<String> LABEL_KEYS =
      List.of("pipeline_stage", "pipeline_segment", "micro", "recompute");

  /**
   * The labels a gradient operator takes from the operator it differentiates (a recomputed
   * operator's gradient is not itself recomputed).
   */
  private static final List<String> MIRRORED =
      List.of("pipeline_stage", "pipeline_segment", "micro");

  /** How many gradient computations are running (their calls are the backward pass). */
  private int backward;

  /**
   * How many of the active tapes trace on shapes alone ({@link #pushAbstract}): while one does, an
   * operator call records its step with the outputs its inference gives and runs no kernel.
   */
  private int abstractTapes;

  /** Kernel calls made so far on this runtime (what a shape-only trace must not add to). */
  private long kernelCalls;

  private long foldedCalls;

  public Runtime(Supplier<Blas> blas) {
    this.blas = Objects.requireNonNull(blas);
  }

  /** Where the kernels that write text (Print) send it; the JVM's standard output until set. */
  private java.util.function.Consumer<String> printer = System.out::print;

  /** Kernels that write text (Print) send it to {@code out} (the rank's Python standard output). */
  public void printTo(java.util.function.Consumer<String> out) {
    this.printer = Objects.requireNonNull(out);
  }

  public Blas blas() {
    return blas.get();
  }

  /**
   * Until the matching {@link #popCallAttrs}, recorded operators named one of {@code ops} carry
   * {@code extra} in their attributes (a sharded primitive's strategy, see {@link #callAttrs}).
   */
  public void pushCallAttrs(List<String> ops, Attrs extra) {
    callAttrs.add(Map.entry(List.copyOf(ops), extra));
  }

  public void popCallAttrs() {
    callAttrs.remove(callAttrs.size() - 1);
  }

  /**
   * Until the matching {@link #popLabels}, every recorded operator carries {@code labels} (keys
   * from {@link #LABEL_KEYS}) in its attributes.
   */
  public void pushLabels(Attrs labels) {
    for (String key : labels.asMap().keySet()) {
      if (!LABEL_KEYS.contains(key)) {
        throw new IllegalArgumentException("not a label: " + key);
      }
    }
    this.labels.add(labels);
  }

  /**
   * The recorded operators producing {@code outputs} are not recomputed after all (MindSpore's
   * {@code Cell.recompute()} keeps a cell's outputs unless {@code output_recompute=True}).
   */
  public void keepForBackward(List<Tensor> outputs) {
    for (Tape tape : tapes) {
      for (Tensor t : outputs) {
        tape.setAttr(t, "recompute", false);
      }
    }
  }

  public void popLabels() {
    labels.remove(labels.size() - 1);
  }

  /** The labels among {@code attrs} (a recorded operator's), for its gradient operators. */
  static Attrs labelsOf(Attrs attrs) {
    Attrs out = Attrs.EMPTY;
    for (String key : MIRRORED) {
      if (attrs.has(key)) {
        out = out.with(key, attrs.get(key));
      }
    }
    return out;
  }

  /** Runs registered operator {@code name} on {@code inputs} (tensors or variables). */
  public Tensor[] apply(String name, Attrs attrs, Object... inputs) {
    return apply(OpTable.get(name), attrs, inputs);
  }

  /** Runs {@code op} on {@code inputs} (tensors or variables) and records it on every tape. */
  public Tensor[] apply(OpDef op, Attrs attrs, Object... inputs) {
    return apply(op, attrs, inputs, null);
  }

  /**
   * Decides, for a graph being replayed, whether a node may overwrite a variable's tensor in place.
   * With a policy the runtime leaves variables' shared flags alone: the graph tracks the aliases of
   * variable storage it creates and marks the variables whose storage escapes.
   */
  @FunctionalInterface
  interface InPlacePolicy {
    boolean allows(Variable v);
  }

  /**
   * {@link #apply(OpDef, Attrs, Object...)}; {@code policy} null for a call from Python (any output
   * sharing a variable's storage marks it shared).
   */
  Tensor[] apply(OpDef op, Attrs attrs, Object[] inputs, InPlacePolicy policy) {
    if (!tapes.isEmpty() && !op.name().equals("Load")) {
      // While recording, every read of a variable is its own Load step: gradient rules then see
      // the value read as a traced tensor (not a constant of the graph), and a replay reads the
      // variable at the same point of the step as the trace did (before later Assigns).
      boolean copied = false;
      for (int i = 0; i < inputs.length; i++) {
        if (inputs[i] instanceof Variable v && !op.writes(i)) {
          if (!copied) {
            inputs = inputs.clone();
            copied = true;
          }
          inputs[i] = apply(LOAD, Attrs.EMPTY, v)[0];
        }
      }
    }
    Tensor[] values = new Tensor[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      values[i] =
          switch (inputs[i]) {
            case Tensor t -> t;
            // A tape keeps the values it records: a recorded read hands the tensor out.
            // Tracing on shapes reads a variable's type alone (a deferred one stays empty).
            case Variable v ->
                abstractTapes > 0
                    ? Tensor.abstractOf(v.type())
                    : tapes.isEmpty() ? v.current() : v.value();
            case null ->
                throw MsException.typeError(
                    "For '" + op.name() + "', input " + i + " must be a Tensor, but got None.");
            default ->
                throw MsException.typeError(
                    "For '"
                        + op.name()
                        + "', input "
                        + i
                        + " must be a Tensor, but got "
                        + inputs[i].getClass().getSimpleName()
                        + ".");
          };
    }
    for (Tensor v : values) {
      op.checkReal(v.dtype());
    }
    boolean inPlace = tapes.isEmpty();
    boolean folded = !tapes.isEmpty() && foldable(op, inputs, values);
    Tensor[] outputs;
    if (abstractTapes > 0 && !folded) {
      outputs = inferred(op, attrs, values);
    } else {
      List<AbstractTensor> expected = CHECK_INFER && op.infer() != null ? types(values) : null;
      if (folded) {
        foldedCalls++;
      } else {
        kernelCalls++;
      }
      outputs =
          op.kernel()
              .run(new Call(op, attrs, inputs, values, blas.get(), inPlace, policy, printer));
      if (expected != null) {
        checkInferred(op, attrs, expected, outputs);
      }
    }
    // Tapes and graphs know tensors by identity: an output must never be one of the inputs
    // (StopGradient, a Cast to the same type, a BroadcastTo to the same shape return them).
    for (int o = 0; o < outputs.length; o++) {
      for (Tensor v : values) {
        if (outputs[o] == v) {
          outputs[o] = v.alias();
          break;
        }
      }
      if (policy == null) {
        for (Object in : inputs) {
          if (in instanceof Variable v && !v.deferred() && outputs[o].sharesStorage(v.current())) {
            v.markShared();
          }
        }
      }
    }
    if (!tapes.isEmpty() && !folded) {
      if (!callAttrs.isEmpty()) {
        Map.Entry<List<String>, Attrs> scope = callAttrs.get(callAttrs.size() - 1);
        if (scope.getKey().contains(op.name())) {
          attrs = attrs.withAll(scope.getValue());
        }
      }
      for (Attrs scope : labels) {
        attrs = attrs.withAll(scope);
      }
      Tape.Step step = new Tape.Step(op, attrs, inputs.clone(), values, outputs, backward > 0);
      for (Tape tape : tapes) {
        tape.record(step);
      }
    }
    return outputs;
  }

  /** The most input elements a call on constants may have to be folded while tracing. */
  private static final int FOLD_LIMIT = 64;

  /**
   * Whether a call made while recording is folded (run now, not recorded), as MindSpore's compiler
   * folds constants: a registered operator that updates nothing and draws no random numbers, whose
   * inputs are all small constants (concrete tensors no tape produced or took as an argument), on
   * tapes that {@linkplain Tape#foldConstants fold}. Its outputs are then constants a construct may
   * read, e.g. {@code if self.keep_prob < 1.0} on a Tensor attribute.
   */
  private boolean foldable(OpDef op, Object[] inputs, Tensor[] values) {
    if (inputs.length == 0
        || op.stateful()
        || !OpTable.has(op.name())
        || OpTable.get(op.name()) != op) {
      return false;
    }
    long elements = 0;
    for (int i = 0; i < inputs.length; i++) {
      if (!(inputs[i] instanceof Tensor t) || values[i].isAbstract()) {
        return false;
      }
      for (Tape tape : tapes) {
        if (!tape.folds() || tape.tracks(t)) {
          return false;
        }
      }
      elements += t.size();
    }
    return elements <= FOLD_LIMIT;
  }

  /** Marks the calls recorded until the matching {@link #exitBackward} as the backward pass. */
  void enterBackward() {
    backward++;
  }

  void exitBackward() {
    backward--;
  }

  /** Starts recording on a new tape (nested inside the active ones). */
  public Tape push() {
    Tape tape = new Tape(false, ++tapesPushed);
    tapes.add(tape);
    return tape;
  }

  /**
   * Starts recording on a new tape that traces on shapes alone: until it is popped, every operator
   * call (this tape's and any nested one's) gives abstract outputs from its inference, runs no
   * kernel and changes no variable; reading a value is an error.
   */
  public Tape pushAbstract() {
    Tape tape = new Tape(true, ++tapesPushed);
    tapes.add(tape);
    abstractTapes++;
    return tape;
  }

  /** Stops recording on {@code tape} (the innermost one). */
  public void pop(Tape tape) {
    if (tapes.isEmpty() || tapes.get(tapes.size() - 1) != tape) {
      throw new IllegalStateException("tapes must be popped innermost first");
    }
    tapes.remove(tapes.size() - 1);
    if (tape.onShapes()) {
      abstractTapes--;
    }
  }

  /**
   * The innermost active tape, null when none records: a forward recorded for a later gradient is
   * reused only under the same tape ({@link Tape#serial}).
   */
  public Tape innermostTape() {
    return tapes.isEmpty() ? null : tapes.get(tapes.size() - 1);
  }

  /** Drops every tape (after a failure escaped the code that pushed them). */
  public void reset() {
    tapes.clear();
    abstractTapes = 0;
  }

  /** Whether operator calls now trace on shapes alone ({@link #pushAbstract}). */
  public boolean onShapes() {
    return abstractTapes > 0;
  }

  /**
   * How many kernels this runtime has run, not counting the calls on constants it folded while
   * tracing ({@link #foldedCalls}: compile work, as MindSpore's constant folding; a trace on shapes
   * runs no kernel of its graph).
   */
  public long kernelCalls() {
    return kernelCalls;
  }

  /** How many calls on small constants this runtime folded while tracing. */
  public long foldedCalls() {
    return foldedCalls;
  }

  public boolean recording() {
    return !tapes.isEmpty();
  }

  /**
   * Python is about to read the value of {@code t} ({@code item()}, {@code print}, {@code
   * asnumpy()}): a tape that traced it now depends on data.
   */
  public void noteValueRead(Tensor t, String how) {
    for (Tape tape : tapes) {
      if (tape.tracks(t)) {
        tape.noteValueRead(how);
      }
    }
  }

  private record Call(
      OpDef op,
      Attrs attrs,
      Object[] inputs,
      Tensor[] values,
      Blas blas,
      boolean inPlace,
      InPlacePolicy policy,
      java.util.function.Consumer<String> printer)
      implements Kernel.Call {
    @Override
    public void print(String text) {
      printer.accept(text);
    }

    @Override
    public int arity() {
      return values.length;
    }

    @Override
    public Tensor in(int i) {
      return values[i];
    }

    @Override
    public Variable var(int i) {
      if (inputs[i] instanceof Variable v) {
        return v;
      }
      throw MsException.typeError(
          "For '" + op.name() + "', input " + i + " must be a Parameter, but got a Tensor.");
    }

    @Override
    public Tensor writable(int i) {
      Variable v = var(i);
      return v.writable(inPlace && (policy == null || policy.allows(v)));
    }
  }

  /** {@code op}'s outputs as its inference types them, without values. */
  private static Tensor[] inferred(OpDef op, Attrs attrs, Tensor[] values) {
    if (op.infer() == null) {
      throw new IllegalStateException(
          op.name() + " has no inference and cannot be traced on shapes");
    }
    List<AbstractTensor> types = op.infer().outputs(attrs, types(values));
    Tensor[] out = new Tensor[types.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Tensor.abstractOf(types.get(i));
    }
    return out;
  }

  private static List<AbstractTensor> types(Tensor[] values) {
    List<AbstractTensor> t = new java.util.ArrayList<>(values.length);
    for (Tensor v : values) {
      t.add(v.type());
    }
    return t;
  }

  /** Throws unless the kernel's outputs have the types {@code op}'s inference gives. */
  private static void checkInferred(
      OpDef op, Attrs attrs, List<AbstractTensor> inputs, Tensor[] outputs) {
    List<AbstractTensor> want = op.infer().outputs(attrs, inputs);
    List<AbstractTensor> got = types(outputs);
    if (!want.equals(got)) {
      throw new IllegalStateException(
          "inference of "
              + op.name()
              + " on "
              + inputs
              + " with "
              + attrs
              + " gives "
              + want
              + " but its kernel gave "
              + got);
    }
  }
}
