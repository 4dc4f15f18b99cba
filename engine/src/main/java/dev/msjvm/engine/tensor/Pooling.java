package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.Locale;

/**
 * MindSpore's {@code MaxPool} and {@code AvgPool} on NCHW tensors, with {@code MaxPoolGrad} and
 * {@code AvgPoolGrad}.
 *
 * <p>{@code kernel} and {@code strides} are {@code (h, w)}; {@code padMode} is {@code "VALID"}
 * (output {@code floor((H - k)/s) + 1}) or {@code "SAME"} (output {@code ceil(H/s)}, total padding
 * {@code max(0, (out-1)*s + k - H)} split with the smaller half on top/left, as {@code GetPadding}
 * in MindSpore's {@code mkl_cpu_kernel.cc} does). Padding never wins a max and, for AvgPool, is not
 * counted: the mean is over the valid elements of each window only, which is what the CPU kernel's
 * oneDNN {@code pooling_avg} (exclude-padding) algorithm computes when {@code count_include_pad} is
 * unset (read from {@code pooling_cpu_kernel.cc}; not yet checked against a recorded golden).
 * MaxPoolGrad routes each gradient to the first maximum of its window (row-major scan). Values are
 * computed in double and rounded to the input's float type. Example: {@code maxPool([[1, 2], [3,
 * 4]] as [1,1,2,2], (2,2), (1,1), "VALID")} is {@code [[[[4]]]]}.
 */
public final class Pooling {
  private Pooling() {}

  private record Window(int n, int c, int h, int w, int oh, int ow, int[] k, int[] s, int[] p) {}

  /** {@code MaxPool(x)}. */
  public static Tensor maxPool(Tensor x, int[] kernel, int[] strides, String padMode) {
    return pool("MaxPool", x, kernel, strides, padMode, true);
  }

  /** {@code AvgPool(x)}. */
  public static Tensor avgPool(Tensor x, int[] kernel, int[] strides, String padMode) {
    return pool("AvgPool", x, kernel, strides, padMode, false);
  }

  /** {@code MaxPoolGrad}: {@code dy} (the output's gradient) routed to each window's argmax. */
  public static Tensor maxPoolGrad(
      Tensor x, Tensor dy, int[] kernel, int[] strides, String padMode) {
    poolGradType("MaxPoolGrad", x.type(), dy.type(), kernel, strides, padMode);
    Window g = window("MaxPoolGrad", x.type(), kernel, strides, padMode);
    Tensor dx = Tensor.zeros(x.dtype(), x.shape());
    double[] acc = new double[x.size()];
    for (int nc = 0; nc < g.n * g.c; nc++) {
      for (int oy = 0; oy < g.oh; oy++) {
        for (int ox = 0; ox < g.ow; ox++) {
          int best = windowArgmax(x, g, nc, oy, ox);
          if (best >= 0) {
            acc[best] += dy.getDouble((nc * g.oh + oy) * g.ow + ox);
          }
        }
      }
    }
    for (int i = 0; i < acc.length; i++) {
      dx.setDouble(i, acc[i]);
    }
    return dx;
  }

  /** {@code AvgPoolGrad}: each output gradient spread evenly over its window's valid elements. */
  public static Tensor avgPoolGrad(
      Tensor x, Tensor dy, int[] kernel, int[] strides, String padMode) {
    poolGradType("AvgPoolGrad", x.type(), dy.type(), kernel, strides, padMode);
    Window g = window("AvgPoolGrad", x.type(), kernel, strides, padMode);
    double[] acc = new double[x.size()];
    for (int nc = 0; nc < g.n * g.c; nc++) {
      for (int oy = 0; oy < g.oh; oy++) {
        int y0 = Math.max(0, oy * g.s[0] - g.p[0]);
        int y1 = Math.min(g.h, oy * g.s[0] - g.p[0] + g.k[0]);
        for (int ox = 0; ox < g.ow; ox++) {
          int x0 = Math.max(0, ox * g.s[1] - g.p[1]);
          int x1 = Math.min(g.w, ox * g.s[1] - g.p[1] + g.k[1]);
          int count = (y1 - y0) * (x1 - x0);
          if (count <= 0) {
            continue;
          }
          double share = dy.getDouble((nc * g.oh + oy) * g.ow + ox) / count;
          for (int y = y0; y < y1; y++) {
            for (int xx = x0; xx < x1; xx++) {
              acc[(nc * g.h + y) * g.w + xx] += share;
            }
          }
        }
      }
    }
    Tensor dx = Tensor.zeros(x.dtype(), x.shape());
    for (int i = 0; i < acc.length; i++) {
      dx.setDouble(i, acc[i]);
    }
    return dx;
  }

  /**
   * {@code MaxPoolWithArgmax(x)}: MaxPool's output and, per output element, where its maximum is
   * (int32: {@code (c * H + y) * W + x} within its sample, as MindSpore's CPU and GPU kernels give
   * it; the first maximum in row-major order wins).
   */
  public static Tensor[] maxPoolWithArgmax(Tensor x, int[] kernel, int[] strides, String padMode) {
    Window g = window("MaxPoolWithArgmax", x.type(), kernel, strides, padMode);
    Shape outShape = Shape.of(g.n, g.c, g.oh, g.ow);
    Tensor out = Tensor.zeros(x.dtype(), outShape);
    Tensor arg = Tensor.zeros(DType.INT32, outShape);
    int plane = g.c * g.h * g.w;
    for (int nc = 0; nc < g.n * g.c; nc++) {
      for (int oy = 0; oy < g.oh; oy++) {
        for (int ox = 0; ox < g.ow; ox++) {
          int best = windowArgmax(x, g, nc, oy, ox);
          int o = (nc * g.oh + oy) * g.ow + ox;
          out.setDouble(o, best < 0 ? Double.NEGATIVE_INFINITY : x.getDouble(best));
          arg.setLong(o, best < 0 ? 0 : best % plane);
        }
      }
    }
    return new Tensor[] {out, arg};
  }

  /**
   * {@code MaxPoolGradWithArgmax(x, dy, argmax)}: each output gradient added at the input element
   * its argmax names (within its sample).
   */
  public static Tensor maxPoolGradWithArgmax(
      Tensor x, Tensor dy, Tensor argmax, int[] kernel, int[] strides, String padMode) {
    AbstractTensor dyType =
        poolGradType("MaxPoolGradWithArgmax", x.type(), dy.type(), kernel, strides, padMode);
    KernelSupport.requireShape("MaxPoolGradWithArgmax", "argmax", argmax.shape(), dy.shape());
    int[] dims = x.shape().toArray();
    int plane = dims[1] * dims[2] * dims[3];
    int perSample = dy.size() / Math.max(1, dims[0]);
    double[] acc = new double[x.size()];
    for (int o = 0; o < dy.size(); o++) {
      long at = argmax.getLong(o);
      if (at < 0 || at >= plane) {
        throw MsException.valueError(
            "For 'MaxPoolGradWithArgmax', the argmax "
                + at
                + " is out of range [0, "
                + plane
                + ").");
      }
      acc[(o / perSample) * plane + (int) at] += dy.getDouble(o);
    }
    Tensor dx = Tensor.zeros(dyType.dtype(), x.shape());
    for (int i = 0; i < acc.length; i++) {
      dx.setDouble(i, acc[i]);
    }
    return dx;
  }

  /** The types {@link #maxPoolWithArgmax} gives; reads no values. */
  public static java.util.List<AbstractTensor> maxPoolWithArgmaxType(
      AbstractTensor x, int[] kernel, int[] strides, String padMode) {
    AbstractTensor out = poolType("MaxPoolWithArgmax", x, kernel, strides, padMode);
    return java.util.List.of(out, out.withDtype(DType.INT32));
  }

  /** The flat index of the first maximum of one window, or -1 for an empty window. */
  private static int windowArgmax(Tensor x, Window g, int nc, int oy, int ox) {
    int best = -1;
    double max = Double.NEGATIVE_INFINITY;
    for (int y = oy * g.s[0] - g.p[0], ky = 0; ky < g.k[0]; y++, ky++) {
      for (int xx = ox * g.s[1] - g.p[1], kx = 0; kx < g.k[1]; xx++, kx++) {
        if (y >= 0 && y < g.h && xx >= 0 && xx < g.w) {
          int i = (nc * g.h + y) * g.w + xx;
          double v = x.getDouble(i);
          if (best < 0 || v > max) {
            best = i;
            max = v;
          }
        }
      }
    }
    return best;
  }

  private static Tensor pool(
      String op, Tensor x, int[] kernel, int[] strides, String padMode, boolean max) {
    Window g = window(op, x.type(), kernel, strides, padMode);
    Tensor out = Tensor.zeros(x.dtype(), Shape.of(g.n, g.c, g.oh, g.ow));
    for (int nc = 0; nc < g.n * g.c; nc++) {
      for (int oy = 0; oy < g.oh; oy++) {
        int y0 = Math.max(0, oy * g.s[0] - g.p[0]);
        int y1 = Math.min(g.h, oy * g.s[0] - g.p[0] + g.k[0]);
        for (int ox = 0; ox < g.ow; ox++) {
          int x0 = Math.max(0, ox * g.s[1] - g.p[1]);
          int x1 = Math.min(g.w, ox * g.s[1] - g.p[1] + g.k[1]);
          double m = Double.NEGATIVE_INFINITY;
          double sum = 0;
          boolean nan = false;
          for (int y = y0; y < y1; y++) {
            for (int xx = x0; xx < x1; xx++) {
              double v = x.getDouble((nc * g.h + y) * g.w + xx);
              nan |= Double.isNaN(v);
              m = Math.max(m, v);
              sum += v;
            }
          }
          int count = Math.max(0, (y1 - y0) * (x1 - x0));
          double r = max ? (nan ? Double.NaN : m) : (count == 0 ? 0 : sum / count);
          out.setDouble((nc * g.oh + oy) * g.ow + ox, r);
        }
      }
    }
    return out;
  }

  /**
   * The type pooling {@code op} gives ({@code MaxPool}, {@code AvgPool}) or, for their gradients,
   * checks {@code dy} against: with their errors; reads no values.
   */
  public static AbstractTensor poolType(
      String op, AbstractTensor x, int[] kernel, int[] strides, String padMode) {
    Window g = window(op, x, kernel, strides, padMode);
    return x.withShape(Shape.of(g.n, g.c, g.oh, g.ow));
  }

  /** The type {@code op}'s gradient gives ({@code x}'s), checking {@code dy}; reads no values. */
  public static AbstractTensor poolGradType(
      String op, AbstractTensor x, AbstractTensor dy, int[] kernel, int[] strides, String padMode) {
    Window g = window(op, x, kernel, strides, padMode);
    KernelSupport.requireShape(op, "dout", dy.shape(), Shape.of(g.n, g.c, g.oh, g.ow));
    return x;
  }

  private static Window window(
      String op, AbstractTensor x, int[] kernel, int[] strides, String padMode) {
    KernelSupport.requireFloat(op, "x", x);
    if (x.rank() != 4) {
      throw MsException.valueError(
          "For '" + op + "', the dimension of 'x' must be 4, but got " + x.rank() + ".");
    }
    if (kernel.length != 2 || strides.length != 2) {
      throw MsException.valueError(
          "For '" + op + "', the 'kernel_size' and 'strides' must have 2 elements.");
    }
    int[] dims = x.shape().toArray();
    int[] out = new int[2];
    int[] lead = new int[2];
    String mode = padMode.toUpperCase(Locale.ROOT);
    for (int a = 0; a < 2; a++) {
      if (kernel[a] <= 0 || strides[a] <= 0) {
        throw MsException.valueError(
            "For '"
                + op
                + "', the 'kernel_size' and 'strides' must be positive, but got "
                + kernel[a]
                + " and "
                + strides[a]
                + ".");
      }
      int in = dims[2 + a];
      switch (mode) {
        case "VALID" -> out[a] = Math.floorDiv(in - kernel[a], strides[a]) + 1;
        case "SAME" -> {
          out[a] = Math.ceilDiv(in, strides[a]);
          lead[a] = Math.max(0, (out[a] - 1) * strides[a] + kernel[a] - in) / 2;
        }
        default ->
            throw MsException.valueError(
                "For '"
                    + op
                    + "', the 'pad_mode' must be in ['VALID', 'SAME'], but got '"
                    + padMode
                    + "'.");
      }
      if (out[a] <= 0) {
        throw MsException.valueError(
            "For '"
                + op
                + "', the shape of output must be positive, but the kernel "
                + kernel[a]
                + " is larger than the input "
                + x.shape()
                + ".");
      }
    }
    return new Window(
        dims[0], dims[1], dims[2], dims[3], out[0], out[1], kernel.clone(), strides.clone(), lead);
  }
}
