package dev.msjvm.engine.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.engine.exec.Autodiff;
import dev.msjvm.engine.exec.Runtime;
import dev.msjvm.engine.exec.Tape;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Checks an operator's gradient rule against central finite differences in float64: the loss is
 * {@code sum_j sum(out_j * w_j)} for fixed random weights {@code w_j}.
 */
public final class GradCheck {
  /**
   * Operators whose outputs after the first are auxiliary (batch statistics, the softmax backprop):
   * MindSpore's gradients ignore them, so the loss does not use them either. FlashAttentionScore's
   * gradient is that of its last output (attention_out) alone: its row statistics are auxiliary.
   */
  private static final java.util.Set<String> FIRST_OUTPUT_ONLY =
      java.util.Set.of(
          "SoftmaxCrossEntropyWithLogits", "LayerNorm", "BatchNorm", "Dropout", "RmsNorm");

  private GradCheck() {}

  /** A float64 tensor of uniform values in [lo, hi) from {@code seed}. */
  public static Tensor random(long seed, double lo, double hi, int... dims) {
    SplittableRandom r = new SplittableRandom(seed);
    return Tensor.ofDoubles(DType.FLOAT64, Shape.of(dims), i -> lo + (hi - lo) * r.nextDouble());
  }

  /**
   * Asserts that the analytic gradients of {@code op} at {@code inputs} match finite differences
   * for every input listed in {@code wrt}.
   */
  public static void check(String op, Attrs attrs, List<Tensor> inputs, int... wrt) {
    check(op, attrs, inputs, 1e-6, 1e-5, wrt);
  }

  /**
   * As {@link #check(String, Attrs, List, int...)} with step {@code eps} and tolerance {@code tol}.
   */
  public static void check(
      String op, Attrs attrs, List<Tensor> inputs, double eps, double tol, int... wrt) {
    Runtime rt = new Runtime(NaiveBlas::new);
    Object[] in = inputs.toArray();
    Tensor[] outs = rt.apply(op, attrs, in);
    List<Tensor> weights = new ArrayList<>();
    for (int j = 0; j < outs.length; j++) {
      weights.add(
          outs[j].dtype().isFloat()
                  && (j == 0 || !FIRST_OUTPUT_ONLY.contains(op))
                  && (j == 3 || !op.equals("FlashAttentionScore"))
              ? random(100 + j, -1, 1, outs[j].shape().toArray())
              : null);
    }
    Tape tape = rt.push();
    Object[] leaves = new Object[in.length];
    for (int i = 0; i < in.length; i++) {
      leaves[i] = ((Tensor) in[i]).alias();
    }
    Tensor[] traced = rt.apply(op, attrs, leaves);
    rt.pop(tape);
    List<Tensor> outList = new ArrayList<>();
    List<Tensor> sens = new ArrayList<>();
    for (int j = 0; j < traced.length; j++) {
      if (weights.get(j) != null) {
        outList.add(traced[j]);
        sens.add(weights.get(j).astype(traced[j].dtype()));
      }
    }
    List<Object> wrtKeys = new ArrayList<>();
    for (int i : wrt) {
      wrtKeys.add(leaves[i]);
    }
    List<Tensor> grads = Autodiff.gradients(rt, tape, outList, sens, wrtKeys);
    for (int k = 0; k < wrt.length; k++) {
      int i = wrt[k];
      Tensor x = inputs.get(i);
      Tensor g = grads.get(k);
      assertEquals(x.shape(), g.shape(), op + " gradient shape of input " + i);
      for (int e = 0; e < x.size(); e++) {
        double num =
            (loss(rt, op, attrs, inputs, weights, i, e, eps)
                    - loss(rt, op, attrs, inputs, weights, i, e, -eps))
                / (2 * eps);
        assertEquals(
            num,
            g.getDouble(e),
            tol * Math.max(1, Math.abs(num)),
            op
                + " "
                + attrs
                + " d/d input "
                + i
                + " element "
                + e
                + " of shapes "
                + Arrays.toString(inputs.stream().map(Tensor::shape).toArray()));
      }
    }
  }

  private static double loss(
      Runtime rt,
      String op,
      Attrs attrs,
      List<Tensor> inputs,
      List<Tensor> weights,
      int which,
      int element,
      double delta) {
    Object[] in = inputs.toArray();
    Tensor x = inputs.get(which);
    in[which] =
        Tensor.ofDoubles(x.dtype(), x.shape(), e -> x.getDouble(e) + (e == element ? delta : 0));
    Tensor[] outs = rt.apply(op, attrs, in);
    double sum = 0;
    for (int j = 0; j < outs.length; j++) {
      if (weights.get(j) != null) {
        for (int e = 0; e < outs[j].size(); e++) {
          sum += outs[j].getDouble(e) * weights.get(j).getDouble(e);
        }
      }
    }
    return sum;
  }
}
