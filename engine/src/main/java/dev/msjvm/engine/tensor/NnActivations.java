package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.random.RandomGenerator;

/**
 * Elementwise neural-network primitives and the gradients MindSpore's grad primitives compute:
 * {@code ReluGrad}, {@code SigmoidGrad}, {@code TanhGrad}, {@code GeLU}/{@code GeLUGrad}, {@code
 * Dropout}/{@code DropoutGrad}, and {@code BiasAdd}/{@code BiasAddGrad}.
 *
 * <p>Every kernel computes in double and rounds once to the input's float type. {@code GeLU} is the
 * tanh approximation MindSpore's {@code ops.GeLU} uses, {@code 0.5x(1 + tanh(sqrt(2/pi)(x +
 * 0.044715x^3)))}. Dropout keeps each element with probability {@code keepProb} (drawn from the
 * given generator, so runs are reproducible), scales kept elements by {@code 1/keepProb}, and
 * returns the 0/1 mask in the input's dtype. Example: {@code reluGrad(dy=[1, 2], y=[0, 3])} is
 * {@code [0, 2]}.
 */
public final class NnActivations {
  private NnActivations() {}

  /** Dropout's outputs: the scaled output and the 0/1 keep mask (same type and shape as x). */
  public record DropoutResult(Tensor output, Tensor mask) {}

  /** {@code ReluGrad(dy, y)}: {@code dy} where the forward output {@code y > 0}, else 0. */
  public static Tensor reluGrad(Tensor dy, Tensor y) {
    check("ReluGrad", dy, y);
    Tensor dx = Tensor.zeros(dy.dtype(), dy.shape());
    for (int i = 0; i < dx.size(); i++) {
      dx.setDouble(i, y.getDouble(i) > 0 ? dy.getDouble(i) : 0);
    }
    return dx;
  }

  /** {@code SigmoidGrad(y, dy)}: {@code dy * y * (1 - y)} with {@code y} the forward output. */
  public static Tensor sigmoidGrad(Tensor y, Tensor dy) {
    check("SigmoidGrad", y, dy);
    Tensor dx = Tensor.zeros(dy.dtype(), dy.shape());
    for (int i = 0; i < dx.size(); i++) {
      double v = y.getDouble(i);
      dx.setDouble(i, dy.getDouble(i) * v * (1 - v));
    }
    return dx;
  }

  /** {@code TanhGrad(y, dy)}: {@code dy * (1 - y^2)} with {@code y} the forward output. */
  public static Tensor tanhGrad(Tensor y, Tensor dy) {
    check("TanhGrad", y, dy);
    Tensor dx = Tensor.zeros(dy.dtype(), dy.shape());
    for (int i = 0; i < dx.size(); i++) {
      double v = y.getDouble(i);
      dx.setDouble(i, dy.getDouble(i) * (1 - v * v));
    }
    return dx;
  }

  private static final double GELU_C = Math.sqrt(2 / Math.PI);
  private static final double GELU_A = 0.044715;

  /** {@code GeLU(x)} (tanh approximation). */
  public static Tensor gelu(Tensor x) {
    geluType(x.type());
    Tensor y = Tensor.zeros(x.dtype(), x.shape());
    for (int i = 0; i < y.size(); i++) {
      double v = x.getDouble(i);
      y.setDouble(i, 0.5 * v * (1 + Math.tanh(GELU_C * (v + GELU_A * v * v * v))));
    }
    return y;
  }

  /** {@code GeLUGrad(dy, x)}: {@code dy} times the derivative of {@link #gelu} at {@code x}. */
  public static Tensor geluGrad(Tensor dy, Tensor x) {
    geluGradType(dy.type(), x.type());
    Tensor dx = Tensor.zeros(dy.dtype(), dy.shape());
    for (int i = 0; i < dx.size(); i++) {
      double v = x.getDouble(i);
      double t = Math.tanh(GELU_C * (v + GELU_A * v * v * v));
      double d = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * GELU_C * (1 + 3 * GELU_A * v * v);
      dx.setDouble(i, dy.getDouble(i) * d);
    }
    return dx;
  }

  /** {@code Dropout(keep_prob)}: each element kept with probability {@code keepProb}. */
  public static DropoutResult dropout(Tensor x, double keepProb, RandomGenerator random) {
    dropoutType(x.type(), keepProb);
    Tensor out = Tensor.zeros(x.dtype(), x.shape());
    Tensor mask = Tensor.zeros(x.dtype(), x.shape());
    for (int i = 0; i < out.size(); i++) {
      // keep_prob == 1 keeps everything without consuming randomness, as an identity should.
      boolean keep = keepProb >= 1 || random.nextDouble() < keepProb;
      mask.setDouble(i, keep ? 1 : 0);
      out.setDouble(i, keep ? x.getDouble(i) / keepProb : 0);
    }
    return new DropoutResult(out, mask);
  }

  /** {@code DropoutGrad(dy, mask)}: {@code dy * mask / keepProb}. */
  public static Tensor dropoutGrad(Tensor dy, Tensor mask, double keepProb) {
    dropoutGradType(dy.type(), mask.type(), keepProb);
    Tensor dx = Tensor.zeros(dy.dtype(), dy.shape());
    for (int i = 0; i < dx.size(); i++) {
      dx.setDouble(i, dy.getDouble(i) * mask.getDouble(i) / keepProb);
    }
    return dx;
  }

  /** {@code BiasAdd(x, b)}: {@code b} (of size C) added along dimension 1 of a rank >= 2 x. */
  public static Tensor biasAdd(Tensor x, Tensor bias) {
    biasAddType(x.type(), bias.type());
    int[] d = biasGeometry("BiasAdd", x.shape(), bias.shape());
    Tensor out = Tensor.zeros(x.dtype(), x.shape());
    if (x.dtype() == DType.FLOAT32) {
      float[] a = x.floats();
      float[] b = bias.floats();
      float[] o = out.floats();
      int channels = d[1];
      int inner = d[2];
      if (inner == 1) {
        // [N, C]: one bias row per sample (a loop C2 vectorises).
        for (int base = 0; base < o.length; base += channels) {
          for (int ch = 0; ch < channels; ch++) {
            o[base + ch] = a[base + ch] + b[ch];
          }
        }
        return out;
      }
      for (int base = 0; base < o.length; ) {
        for (int ch = 0; ch < channels; ch++, base += inner) {
          float v = b[ch];
          for (int k = base; k < base + inner; k++) {
            o[k] = a[k] + v;
          }
        }
      }
      return out;
    }
    boolean f = x.dtype().isFloat();
    for (int i = 0; i < out.size(); i++) {
      int ch = i / d[2] % d[1];
      if (f) {
        out.setDouble(i, x.getDouble(i) + bias.getDouble(ch));
      } else {
        out.setLong(i, x.getLong(i) + bias.getLong(ch));
      }
    }
    return out;
  }

  /** {@code BiasAddGrad(dy)}: {@code dy} summed over every dimension but 1. */
  public static Tensor biasAddGrad(Tensor dy) {
    Tensor db = Tensor.zeros(dy.dtype(), biasAddGradType(dy.type()).shape());
    int[] d = biasGeometry("BiasAddGrad", dy.shape(), db.shape());
    if (dy.dtype() == DType.FLOAT32) {
      double[] acc = new double[d[1]];
      float[] a = dy.floats();
      int channels = d[1];
      int inner = d[2];
      for (int base = 0; base < a.length; ) {
        if (inner == 1) {
          for (int ch = 0; ch < channels; ch++) {
            acc[ch] += a[base + ch];
          }
          base += channels;
          continue;
        }
        for (int ch = 0; ch < channels; ch++, base += inner) {
          double sum = 0;
          for (int k = base; k < base + inner; k++) {
            sum += a[k];
          }
          acc[ch] += sum;
        }
      }
      for (int c = 0; c < acc.length; c++) {
        db.setDouble(c, acc[c]);
      }
    } else if (dy.dtype().isFloat()) {
      double[] acc = new double[d[1]];
      for (int i = 0; i < dy.size(); i++) {
        acc[i / d[2] % d[1]] += dy.getDouble(i);
      }
      for (int c = 0; c < acc.length; c++) {
        db.setDouble(c, acc[c]);
      }
    } else {
      for (int i = 0; i < dy.size(); i++) {
        KernelSupport.add(dy, i, db, i / d[2] % d[1]);
      }
    }
    return db;
  }

  /** The type {@link #gelu} gives, with its error; reads no values. */
  public static AbstractTensor geluType(AbstractTensor x) {
    KernelSupport.requireFloat("GeLU", "x", x);
    return x;
  }

  /** The type {@link #geluGrad} gives, with its errors; reads no values. */
  public static AbstractTensor geluGradType(AbstractTensor dy, AbstractTensor x) {
    check("GeLUGrad", dy, x);
    return dy;
  }

  /** The type of {@link #dropout}'s output (and of its mask), with its errors. */
  public static AbstractTensor dropoutType(AbstractTensor x, double keepProb) {
    KernelSupport.requireFloat("Dropout", "x", x);
    checkKeepProb("Dropout", keepProb);
    return x;
  }

  /** The type {@link #dropoutGrad} gives, with its errors; reads no values. */
  public static AbstractTensor dropoutGradType(
      AbstractTensor dy, AbstractTensor mask, double keepProb) {
    KernelSupport.requireFloat("DropoutGrad", "dy", dy);
    checkKeepProb("DropoutGrad", keepProb);
    KernelSupport.requireShape("DropoutGrad", "mask", mask.shape(), dy.shape());
    return dy;
  }

  /** The type {@link #biasAdd} gives, with its errors; reads no values. */
  public static AbstractTensor biasAddType(AbstractTensor x, AbstractTensor bias) {
    biasGeometry("BiasAdd", x.shape(), bias.shape());
    if (x.dtype() != bias.dtype()) {
      throw MsException.typeError(
          "For 'BiasAdd', the type of 'bias' must be the same as 'input_x', but got "
              + bias.dtype().mindsporeName()
              + " and "
              + x.dtype().mindsporeName()
              + ".");
    }
    return x;
  }

  /** The type {@link #biasAddGrad} gives ({@code [C]}), with its errors; reads no values. */
  public static AbstractTensor biasAddGradType(AbstractTensor dy) {
    int rank = dy.rank();
    int[] d = biasGeometry("BiasAddGrad", dy.shape(), Shape.of(rank >= 2 ? dy.shape().dim(1) : 0));
    return dy.withShape(Shape.of(d[1]));
  }

  /** {@code [N, C, inner]} of an NC... tensor, after checking the bias shape. */
  private static int[] biasGeometry(String op, Shape x, Shape bias) {
    if (x.rank() < 2) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the dimension of 'input_x' must be greater than or equal to 2, but got "
              + x.rank()
              + ".");
    }
    if (bias.rank() != 1 || bias.dim(0) != x.dim(1)) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the shape of 'bias' must be ["
              + x.dim(1)
              + "], but got "
              + bias
              + ".");
    }
    int[] dims = x.toArray();
    return new int[] {dims[0], dims[1], KernelSupport.product(dims, 2, dims.length)};
  }

  private static void check(String op, Tensor a, Tensor b) {
    check(op, a.type(), b.type());
  }

  private static void check(String op, AbstractTensor a, AbstractTensor b) {
    KernelSupport.requireFloat(op, "x", a);
    if (a.dtype() != b.dtype()) {
      throw MsException.typeError(
          "For '"
              + op
              + "', the inputs must have the same type, but got "
              + a.dtype().mindsporeName()
              + " and "
              + b.dtype().mindsporeName()
              + ".");
    }
    KernelSupport.requireShape(op, "y", b.shape(), a.shape());
  }

  private static void checkKeepProb(String op, double keepProb) {
    if (!(keepProb > 0 && keepProb <= 1)) {
      throw MsException.valueError(
          "For '" + op + "', the 'keep_prob' must be in range (0, 1], but got " + keepProb + ".");
    }
  }
}
