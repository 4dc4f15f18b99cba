package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;

/**
 * MindSpore's fused softmax cross-entropy primitives: {@code SoftmaxCrossEntropyWithLogits} (dense
 * labels, per-example loss plus the backprop {@code softmax - labels}) and {@code
 * SparseSoftmaxCrossEntropyWithLogits} (class-index labels, mean loss, or with {@code is_grad} its
 * gradient {@code (softmax - onehot) / N}).
 *
 * <p>Logits are {@code [N, C]}; the softmax subtracts each row's maximum first and everything is
 * computed in double, rounded once to the logits' type. A sparse label outside {@code [0, C)} is an
 * error (MindSpore's CPU kernel rejects it). Example: logits {@code [[0, 0]]} with labels {@code
 * [[1, 0]]} give loss {@code [ln 2]} and backprop {@code [[-0.5, 0.5]]}.
 */
public final class NnLosses {
  private NnLosses() {}

  /**
   * {@code SoftmaxCrossEntropyWithLogits}'s outputs: loss {@code [N]} and backprop {@code [N, C]}.
   */
  public record LossAndGrad(Tensor loss, Tensor backprop) {}

  /** {@code SoftmaxCrossEntropyWithLogits(logits, labels)}. */
  public static LossAndGrad softmaxCrossEntropyWithLogits(Tensor logits, Tensor labels) {
    softmaxCrossEntropyWithLogitsType(logits.type(), labels.type());
    int n = logits.shape().dim(0);
    int c = logits.shape().dim(1);
    Tensor loss = Tensor.zeros(logits.dtype(), Shape.of(n));
    Tensor grad = Tensor.zeros(logits.dtype(), logits.shape());
    double[] logp = new double[c];
    for (int r = 0; r < n; r++) {
      logSoftmax(logits, r * c, c, logp);
      double l = 0;
      for (int k = 0; k < c; k++) {
        double y = labels.getDouble(r * c + k);
        // 0 * log(p) counts as 0 even when p underflows, as the dense label is a weight.
        l -= y == 0 ? 0 : y * logp[k];
        grad.setDouble(r * c + k, Math.exp(logp[k]) - y);
      }
      loss.setDouble(r, l);
    }
    return new LossAndGrad(loss, grad);
  }

  /**
   * {@code SparseSoftmaxCrossEntropyWithLogits(is_grad)}: with {@code isGrad} false the scalar mean
   * loss over the batch; with it true the loss's gradient with respect to the logits.
   */
  public static Tensor sparseSoftmaxCrossEntropyWithLogits(
      Tensor logits, Tensor labels, boolean isGrad) {
    return sparseSoftmaxCrossEntropyWithLogits(logits, labels, isGrad, logits.shape().dim(0));
  }

  /**
   * {@link #sparseSoftmaxCrossEntropyWithLogits(Tensor, Tensor, boolean)} averaging over {@code
   * batch} rows instead of the rows given: a rank holding a slice of the batch computes its rows'
   * share of the whole batch's mean (the sum over ranks is the mean).
   */
  public static Tensor sparseSoftmaxCrossEntropyWithLogits(
      Tensor logits, Tensor labels, boolean isGrad, int batch) {
    String op = "SparseSoftmaxCrossEntropyWithLogits";
    sparseSoftmaxCrossEntropyWithLogitsType(logits.type(), labels.type(), isGrad);
    int n = logits.shape().dim(0);
    int c = logits.shape().dim(1);
    double[] logp = new double[c];
    double total = 0;
    Tensor grad = isGrad ? Tensor.zeros(logits.dtype(), logits.shape()) : null;
    for (int r = 0; r < n; r++) {
      long label = labels.getLong(r);
      if (label < 0 || label >= c) {
        throw MsException.valueError(
            "For '" + op + "', the label must be in [0, " + c + "), but got " + label + ".");
      }
      logSoftmax(logits, r * c, c, logp);
      total -= logp[(int) label];
      if (isGrad) {
        for (int k = 0; k < c; k++) {
          grad.setDouble(r * c + k, (Math.exp(logp[k]) - (k == label ? 1 : 0)) / batch);
        }
      }
    }
    if (isGrad) {
      return grad;
    }
    Tensor loss = Tensor.zeros(logits.dtype(), Shape.scalar());
    loss.setDouble(0, batch == 0 ? Double.NaN : total / batch);
    return loss;
  }

  /** The gradient kernel: {@code sparseSoftmaxCrossEntropyWithLogits(logits, labels, true)}. */
  public static Tensor sparseSoftmaxCrossEntropyWithLogitsGrad(Tensor logits, Tensor labels) {
    return sparseSoftmaxCrossEntropyWithLogits(logits, labels, true);
  }

  /** The types of the loss {@code [N]} and backprop {@code [N, C]}, with the errors. */
  public static List<AbstractTensor> softmaxCrossEntropyWithLogitsType(
      AbstractTensor logits, AbstractTensor labels) {
    String op = "SoftmaxCrossEntropyWithLogits";
    checkLogits(op, logits);
    if (labels.dtype() != logits.dtype()) {
      throw MsException.typeError(
          "For '"
              + op
              + "', the type of 'labels' must be the same as 'logits', but got "
              + labels.dtype().mindsporeName()
              + ".");
    }
    KernelSupport.requireShape(op, "labels", labels.shape(), logits.shape());
    return List.of(logits.withShape(Shape.of(logits.shape().dim(0))), logits);
  }

  /**
   * The type of the sparse loss (a scalar) or, {@code isGrad}, of its gradient (the logits'), with
   * the errors (not the label range, which needs the values).
   */
  public static AbstractTensor sparseSoftmaxCrossEntropyWithLogitsType(
      AbstractTensor logits, AbstractTensor labels, boolean isGrad) {
    String op = "SparseSoftmaxCrossEntropyWithLogits";
    checkLogits(op, logits);
    if (labels.dtype() != DType.INT32 && labels.dtype() != DType.INT64) {
      throw MsException.typeError(
          "For '"
              + op
              + "', the type of 'labels' must be Int32 or Int64, but got "
              + labels.dtype().mindsporeName()
              + ".");
    }
    KernelSupport.requireShape(op, "labels", labels.shape(), Shape.of(logits.shape().dim(0)));
    return isGrad ? logits : logits.withShape(Shape.scalar());
  }

  private static void checkLogits(String op, AbstractTensor logits) {
    KernelSupport.requireFloat(op, "logits", logits);
    if (logits.shape().rank() != 2) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the dimension of 'logits' must be 2, but got "
              + logits.shape().rank()
              + ".");
    }
  }

  /** Fills {@code out} with the log-softmax of {@code x[off .. off+c)}. */
  private static void logSoftmax(Tensor x, int off, int c, double[] out) {
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < c; k++) {
      max = Math.max(max, x.getDouble(off + k));
    }
    double sum = 0;
    for (int k = 0; k < c; k++) {
      sum += Math.exp(x.getDouble(off + k) - max);
    }
    double lse = max + Math.log(sum);
    for (int k = 0; k < c; k++) {
      out[k] = x.getDouble(off + k) - lse;
    }
  }
}
