package dev.msjvm.engine.exec;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.GradRule;
import dev.msjvm.engine.ops.OpDef;
import dev.msjvm.engine.tensor.Tensor;
import dev.msjvm.engine.tensor.Variable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reverse-mode differentiation over a {@link Tape}: walks the recorded calls backwards and runs
 * each operator's {@link GradRule}, whose operators run on the same {@link Runtime} (so an outer
 * tape — a GRAPH_MODE trace of a whole training step — records the backward pass too).
 *
 * <p>Only calls on a path from a differentiated input reach the gradient rules. Gradients of an
 * input used several times add up. Example: for {@code y = x * x}, {@code gradients(rt, tape, [y],
 * null, [x])} is {@code [2 * x]}.
 */
public final class Autodiff {
  private Autodiff() {}

  /**
   * The gradients of the sum of {@code outputs} (each weighted by its {@code sens}, ones when null)
   * with respect to each of {@code wrt} (tensors given to the traced function, or variables); zeros
   * for those the outputs do not depend on.
   */
  public static List<Tensor> gradients(
      Runtime rt, Tape tape, List<Tensor> outputs, List<Tensor> sens, List<Object> wrt) {
    rt.enterBackward();
    try {
      return backward(rt, tape, outputs, sens, wrt);
    } finally {
      rt.exitBackward();
    }
  }

  private static List<Tensor> backward(
      Runtime rt, Tape tape, List<Tensor> outputs, List<Tensor> sens, List<Object> wrt) {
    Map<Object, Boolean> tracked = new IdentityHashMap<>();
    for (Object w : wrt) {
      tracked.put(w, Boolean.TRUE);
    }
    List<Tape.Step> steps = tape.steps();
    int n = steps.size();
    boolean[] relevant = new boolean[n];
    for (int s = 0; s < n; s++) {
      Tape.Step step = steps.get(s);
      for (Object in : step.inputs()) {
        if (tracked.containsKey(in)) {
          relevant[s] = true;
          break;
        }
      }
      if (relevant[s]) {
        for (Tensor o : step.outputs()) {
          if (o.dtype().isFloat()) {
            tracked.put(o, Boolean.TRUE);
          }
        }
      }
    }
    Map<Object, Tensor> grads = new IdentityHashMap<>();
    // With micro-batches (a pipeline), the seed gradient must not depend on the summed output's
    // value: a ones of its type, as MindSpore's fill(dtype, shape, 1), lets the first micro-batch
    // start its backward before the last one's forward (1F1B).
    boolean microBatched = false;
    for (Tape.Step step : steps) {
      microBatched |= step.attrs().has("micro");
    }
    for (int i = 0; i < outputs.size(); i++) {
      Tensor out = outputs.get(i);
      Tensor s =
          sens == null || sens.get(i) == null
              ? rt.apply("OnesLike", Attrs.EMPTY, microBatched ? constantLike(out) : out)[0]
              : sens.get(i);
      accumulate(rt, grads, out, s);
    }
    for (int s = n - 1; s >= 0; s--) {
      if (!relevant[s]) {
        continue;
      }
      Tape.Step step = steps.get(s);
      boolean any = false;
      for (Tensor o : step.outputs()) {
        any |= grads.containsKey(o);
      }
      if (!any) {
        continue;
      }
      GradRule rule = step.op().grad();
      if (rule == null || rule == GradRule.UNDEFINED) {
        throw MsException.runtimeError(
            // MindSpore's text (its bprop registry has no entry for the primitive)
            "Illegal primitive " + step.op().name() + "'s bprop not defined");
      }
      // The gradient operators of a step belong where the step does (its pipeline stage and
      // micro-batch): MindSpore's backward mirrors the forward's placement.
      rt.pushLabels(Runtime.labelsOf(step.attrs()));
      try {
        Call call = new Call(rt, step, grads, tracked);
        Tensor[] inGrads = rule.grad(call);
        for (int i = 0; i < step.inputs().length; i++) {
          Object key = step.inputs()[i];
          if (i < inGrads.length && inGrads[i] != null && tracked.containsKey(key)) {
            accumulate(rt, grads, key, inInputType(rt, inGrads[i], call.in(i)));
          }
        }
      } finally {
        rt.popLabels();
      }
    }
    List<Tensor> result = new ArrayList<>(wrt.size());
    for (Object w : wrt) {
      Tensor g = grads.get(w);
      if (g == null) {
        // A deferred variable is read through its Load (tracing on shapes fills nothing).
        Object value = w instanceof Variable v ? (v.deferred() ? v : v.value()) : w;
        g = rt.apply("ZerosLike", Attrs.EMPTY, value)[0];
      }
      result.add(g);
    }
    return result;
  }

  private static final Attrs NO_MICRO = Attrs.of("micro", -1);

  /** The attributes a sharded primitive's call adds to the operators it records. */
  private static final List<String> USER_STRATEGY =
      List.of("in_strategy", "out_strategy", "in_layout", "out_layout");

  /** A constant tensor of {@code t}'s type (zeros): an input that depends on no traced value. */
  private static Tensor constantLike(Tensor t) {
    return Tensor.zeros(t.dtype(), t.shape());
  }

  /**
   * A float gradient in its input's float type: an operator that promoted mixed inputs (an Add of
   * float16 and float32) computed in the wider type, as MindSpore's implicit Cast of the narrower
   * input does, whose gradient casts back.
   */
  private static Tensor inInputType(Runtime rt, Tensor g, Tensor input) {
    if (g.dtype() == input.dtype() || !g.dtype().isFloat() || !input.dtype().isFloat()) {
      return g;
    }
    return rt.apply("Cast", Attrs.of("dtype", input.dtype().name()), g)[0];
  }

  private static void accumulate(Runtime rt, Map<Object, Tensor> grads, Object key, Tensor g) {
    Tensor prev = grads.get(key);
    if (prev == null) {
      grads.put(key, g);
      return;
    }
    // The sum of two contributions belongs to no single micro-batch (a weight's gradient over
    // micro-batches): a pipeline runs it when both exist, not inside either's backward block.
    rt.pushLabels(NO_MICRO);
    try {
      grads.put(key, rt.apply("Add", Attrs.EMPTY, prev, g)[0]);
    } finally {
      rt.popLabels();
    }
  }

  private record Call(
      Runtime rt, Tape.Step step, Map<Object, Tensor> grads, Map<Object, Boolean> tracked)
      implements GradRule.Call {
    @Override
    public int arity() {
      return step.inputs().length;
    }

    @Override
    public boolean needs(int i) {
      return tracked.containsKey(step.inputs()[i]);
    }

    @Override
    public Tensor in(int i) {
      return step.inputValues()[i];
    }

    @Override
    public Tensor out(int i) {
      return step.outputs()[i];
    }

    @Override
    public Tensor dout(int i) {
      Tensor g = grads.get(step.outputs()[i]);
      return g != null ? g : rt.apply("ZerosLike", Attrs.EMPTY, step.outputs()[i])[0];
    }

    /**
     * The forward call's attributes without its user strategy ({@code in_strategy}, {@code
     * out_strategy} and their Layout forms): they describe the forward's inputs, not a gradient
     * operator's (LayerNormGrad takes five inputs where LayerNorm's strategy names three), so a
     * gradient operator's sharding follows its inputs' layouts as any unannotated node's does.
     */
    @Override
    public Attrs attrs() {
      return step.attrs().without(USER_STRATEGY);
    }

    @Override
    public Tensor op(String name, Attrs attrs, Object... inputs) {
      return rt.apply(name, attrs, inputs)[0];
    }

    @Override
    public Tensor[] ops(String name, Attrs attrs, Object... inputs) {
      return rt.apply(name, attrs, inputs);
    }

    @Override
    public Tensor[] apply(OpDef op, Attrs attrs, Object... inputs) {
      return rt.apply(op, attrs, inputs);
    }
  }
}
