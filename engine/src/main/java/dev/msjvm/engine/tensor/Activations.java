package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;

/**
 * MindSpore's {@code Softmax} and {@code LogSoftmax} over one axis, plus {@code ZerosLike} and
 * {@code OnesLike}, with MindSpore 2.10's (CPU) checks and texts. Softmax subtracts the maximum
 * along the axis before exponentiating (stable for large inputs), computes in double and rounds
 * once on store. Example: {@code softmax(float32 [1000, 1001, 1002], -1)} is {@code [0.090031,
 * 0.24473, 0.66524]}.
 */
public final class Activations {
  private Activations() {}

  /** The type {@link #softmax} gives (its input's), with its errors; reads no values. */
  public static AbstractTensor softmaxType(String primitive, AbstractTensor x, int axis) {
    DType t = x.dtype();
    if (!t.isFloat()) {
      throw MsException.typeError(
          "For primitive["
              + primitive
              + "], the input argument[x] must be a type of {BFloat16, Float16, Float32,"
              + " Float64}, but got "
              + t.mindsporeName()
              + ".");
    }
    Reductions.checkAxis(primitive, axis, x.rank());
    return x;
  }

  /** Softmax ({@code log} false) or LogSoftmax of {@code x} along {@code axis}. */
  public static Tensor softmax(String primitive, Tensor x, int axis, boolean log) {
    softmaxType(primitive, x.type(), axis);
    int rank = x.shape().rank();
    DType t = x.dtype();
    int a = axis < 0 ? axis + rank : axis;
    int[] dims = x.shape().toArray();
    int len = dims[a];
    int inner = 1;
    for (int d = a + 1; d < rank; d++) {
      inner *= dims[d];
    }
    int outer = len * inner == 0 ? 0 : x.size() / (len * inner);
    Tensor out = Tensor.zeros(t, x.shape());
    for (int o = 0; o < outer; o++) {
      for (int in = 0; in < inner; in++) {
        int base = o * len * inner + in;
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < len; k++) {
          max = Math.max(max, x.getDouble(base + k * inner));
        }
        double sum = 0;
        for (int k = 0; k < len; k++) {
          sum += Math.exp(x.getDouble(base + k * inner) - max);
        }
        double logSum = Math.log(sum);
        for (int k = 0; k < len; k++) {
          double v = x.getDouble(base + k * inner) - max;
          out.setDouble(base + k * inner, log ? v - logSum : Math.exp(v) / sum);
        }
      }
    }
    return out;
  }

  /** A tensor of {@code x}'s type and shape filled with zeros (false). */
  public static Tensor zerosLike(Tensor x) {
    return Tensor.zeros(x.dtype(), x.shape());
  }

  /** A tensor of {@code x}'s type and shape filled with ones (true). */
  public static Tensor onesLike(Tensor x) {
    Tensor out = Tensor.zeros(x.dtype(), x.shape());
    for (int i = 0; i < out.size(); i++) {
      out.setLong(i, 1);
    }
    return out;
  }
}
