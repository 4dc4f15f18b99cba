package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;

/**
 * MindSpore's {@code MaxPool3D} and {@code AvgPool3D} on NCDHW tensors, with {@code MaxPool3DGrad}
 * and {@code AvgPool3DGrad}.
 *
 * <p>Padding and output size are explicit (the op layer resolves {@code pad_mode} and {@code
 * ceil_mode}): {@code kernel} and {@code strides} are {@code (d, h, w)}, {@code pad} is {@code
 * (head, tail, top, bottom, left, right)} and {@code outDhw} is {@code (oD, oH, oW)}. Output window
 * {@code o} along an axis covers input positions {@code o*stride - before} to {@code o*stride -
 * before + k - 1}; with ceil mode a window may start inside the padding and run past the padded
 * end.
 *
 * <p>Max: only real input positions take part (padding never wins); the first element of the window
 * in {@code (d, h, w)} scan order seeds the maximum and a later element replaces it only when
 * strictly greater under Java's {@code >} (so a NaN that comes first stays, a later NaN is passed
 * over); a window without any input element gives 0. The gradient adds each {@code dy} to that same
 * element.
 *
 * <p>Average: the window's sum over real input elements divided by {@code divisorOverride} when it
 * is positive, else by the number of window positions inside the padded extent {@code [-before, X +
 * after)} when {@code countIncludePad}, else by the number of real input positions in the window
 * (as PyTorch's {@code avg_pool3d} counts); a zero divisor gives 0. Arithmetic is float32; float16,
 * bfloat16 and float64 inputs are computed in float32 and rounded back. Example: {@code
 * maxPool3d(x, {2, 2, 2}, {2, 2, 2}, new int[6], {1, 1, 1})} of {@code x = 1..8} shaped {@code [1,
 * 1, 2, 2, 2]} is {@code [[[[[8]]]]]}, and {@code avgPool3d} of it is {@code 4.5}.
 */
public final class Pooling3d {
  private Pooling3d() {}

  /**
   * The pooling geometry: {@code nc} planes (images times channels) of {@code d x h x w} pooled to
   * {@code od x oh x ow}, with kernel {@code k}, strides {@code s} and the 6 pads {@code p}.
   */
  private record Window(
      int nc, int d, int h, int w, int od, int oh, int ow, int[] k, int[] s, int[] p) {
    int inVolume() {
      return d * h * w;
    }

    int outVolume() {
      return od * oh * ow;
    }

    /** The first input index (possibly negative) window {@code o} covers along axis {@code a}. */
    int start(int a, int o) {
      return o * s[a] - p[2 * a];
    }

    /** The window along axis {@code a} clipped to the real input: {@code [lo, hi)}. */
    int lo(int a, int o) {
      return Math.max(0, start(a, o));
    }

    int hi(int a, int o) {
      return Math.min(dim(a), start(a, o) + k[a]);
    }

    /** The number of window positions along axis {@code a} inside the padded extent. */
    int paddedCount(int a, int o) {
      int lo = Math.max(-p[2 * a], start(a, o));
      int hi = Math.min(dim(a) + p[2 * a + 1], start(a, o) + k[a]);
      return Math.max(0, hi - lo);
    }

    int dim(int a) {
      return a == 0 ? d : a == 1 ? h : w;
    }
  }

  /**
   * {@code MaxPool3D(x)}: the maximum of each window over real input elements, shaped {@code [N, C,
   * oD, oH, oW]} in {@code x}'s dtype.
   *
   * <p>Example: {@code maxPool3d(x, new int[] {3, 3, 3}, new int[] {2, 2, 2}, new int[] {1, 1, 1,
   * 1, 1, 1}, new int[] {4, 4, 4})} pools a {@code [N, C, 8, 8, 8]} input to {@code [N, C, 4, 4,
   * 4]}.
   */
  public static Tensor maxPool3d(Tensor x, int[] kernel, int[] strides, int[] pad, int[] outDhw) {
    Window g = window("MaxPool3D", x, kernel, strides, pad, outDhw);
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] out = FloatPool.zeroed(g.nc * g.outVolume());
    for (int plane = 0; plane < g.nc; plane++) {
      int base = plane * g.inVolume();
      int o = plane * g.outVolume();
      for (int oz = 0; oz < g.od; oz++) {
        for (int oy = 0; oy < g.oh; oy++) {
          for (int ox = 0; ox < g.ow; ox++, o++) {
            int best = argmax(xs, base, g, oz, oy, ox);
            out[o] = best < 0 ? 0f : xs[best];
          }
        }
      }
    }
    return back(Tensor.ofFloats(outShape(x.shape(), g), out), x.dtype());
  }

  /**
   * {@code MaxPool3DGrad(x, dy)}: each element of {@code dy} added to the input element that won
   * its window's maximum in {@link #maxPool3d}; windows without input elements pass nothing. The
   * output size is read from {@code dy}'s shape; the result is shaped like {@code x}, in {@code
   * x}'s dtype.
   *
   * <p>Example: for {@code x} of four sevens shaped {@code [1, 1, 1, 2, 2]}, kernel {@code (1, 2,
   * 2)} and {@code dy = [3]}, the gradient is {@code [3, 0, 0, 0]}.
   */
  public static Tensor maxPool3dGrad(Tensor x, Tensor dy, int[] kernel, int[] strides, int[] pad) {
    String op = "MaxPool3DGrad";
    Window g = window(op, x, kernel, strides, pad, outSizeOf(op, x.shape(), dy.shape()));
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] dys = KernelSupport.asFloat32(dy).floats();
    float[] dx = FloatPool.zeroed(g.nc * g.inVolume());
    for (int plane = 0; plane < g.nc; plane++) {
      int base = plane * g.inVolume();
      int o = plane * g.outVolume();
      for (int oz = 0; oz < g.od; oz++) {
        for (int oy = 0; oy < g.oh; oy++) {
          for (int ox = 0; ox < g.ow; ox++, o++) {
            int best = argmax(xs, base, g, oz, oy, ox);
            if (best >= 0) {
              dx[best] += dys[o];
            }
          }
        }
      }
    }
    return back(Tensor.ofFloats(x.shape(), dx), x.dtype());
  }

  /**
   * {@code AvgPool3D(x)}: the sum of each window's real input elements over its divisor (see the
   * class comment), shaped {@code [N, C, oD, oH, oW]} in {@code x}'s dtype.
   *
   * <p>Example: with kernel {@code (1, 1, 2)}, stride 1, pad {@code (0, 0, 0, 0, 1, 0)} and {@code
   * x = [2, 4]} shaped {@code [1, 1, 1, 1, 2]}, the output {@code (1, 1, 2)} is {@code [2, 3]}, or
   * {@code [1, 3]} with {@code countIncludePad}, or {@code [2/5, 6/5]} with {@code divisorOverride
   * = 5}.
   */
  public static Tensor avgPool3d(
      Tensor x,
      int[] kernel,
      int[] strides,
      int[] pad,
      int[] outDhw,
      boolean countIncludePad,
      int divisorOverride) {
    Window g = window("AvgPool3D", x, kernel, strides, pad, outDhw);
    float[] xs = KernelSupport.asFloat32(x).floats();
    float[] out = FloatPool.zeroed(g.nc * g.outVolume());
    int hw = g.h * g.w;
    for (int plane = 0; plane < g.nc; plane++) {
      int base = plane * g.inVolume();
      int o = plane * g.outVolume();
      for (int oz = 0; oz < g.od; oz++) {
        int z0 = g.lo(0, oz);
        int z1 = g.hi(0, oz);
        for (int oy = 0; oy < g.oh; oy++) {
          int y0 = g.lo(1, oy);
          int y1 = g.hi(1, oy);
          for (int ox = 0; ox < g.ow; ox++, o++) {
            int x0 = g.lo(2, ox);
            int x1 = g.hi(2, ox);
            int divisor = divisor(g, oz, oy, ox, countIncludePad, divisorOverride);
            if (divisor <= 0) {
              continue;
            }
            float sum = 0f;
            for (int z = z0; z < z1; z++) {
              for (int y = y0; y < y1; y++) {
                int row = base + z * hw + y * g.w;
                for (int xx = x0; xx < x1; xx++) {
                  sum += xs[row + xx];
                }
              }
            }
            out[o] = sum / divisor;
          }
        }
      }
    }
    return back(Tensor.ofFloats(outShape(x.shape(), g), out), x.dtype());
  }

  /**
   * {@code AvgPool3DGrad(xShape, dy)}: each element of {@code dy} divided by its window's divisor
   * and added to every real input element of the window (the adjoint of {@link #avgPool3d}). The
   * output size is read from {@code dy}'s shape; the result has {@code xShape} and {@code dy}'s
   * dtype.
   *
   * <p>Example: for the {@code avgPool3d} example above without {@code countIncludePad}, {@code dy
   * = [1, 1]} gives {@code [1.5, 0.5]}.
   */
  public static Tensor avgPool3dGrad(
      Shape xShape,
      Tensor dy,
      int[] kernel,
      int[] strides,
      int[] pad,
      boolean countIncludePad,
      int divisorOverride) {
    String op = "AvgPool3DGrad";
    KernelSupport.requireFloat(op, "dout", dy);
    Window g = geometry(op, xShape, kernel, strides, pad, outSizeOf(op, xShape, dy.shape()));
    float[] dys = KernelSupport.asFloat32(dy).floats();
    float[] dx = FloatPool.zeroed(g.nc * g.inVolume());
    int hw = g.h * g.w;
    for (int plane = 0; plane < g.nc; plane++) {
      int base = plane * g.inVolume();
      int o = plane * g.outVolume();
      for (int oz = 0; oz < g.od; oz++) {
        int z0 = g.lo(0, oz);
        int z1 = g.hi(0, oz);
        for (int oy = 0; oy < g.oh; oy++) {
          int y0 = g.lo(1, oy);
          int y1 = g.hi(1, oy);
          for (int ox = 0; ox < g.ow; ox++, o++) {
            int x0 = g.lo(2, ox);
            int x1 = g.hi(2, ox);
            int divisor = divisor(g, oz, oy, ox, countIncludePad, divisorOverride);
            if (divisor <= 0) {
              continue;
            }
            float share = dys[o] / divisor;
            for (int z = z0; z < z1; z++) {
              for (int y = y0; y < y1; y++) {
                int row = base + z * hw + y * g.w;
                for (int xx = x0; xx < x1; xx++) {
                  dx[row + xx] += share;
                }
              }
            }
          }
        }
      }
    }
    return back(Tensor.ofFloats(xShape, dx), dy.dtype());
  }

  /**
   * The flat index in {@code xs} of the first maximum of window {@code (oz, oy, ox)} of the plane
   * starting at {@code base}, or -1 when the window holds no input element.
   */
  private static int argmax(float[] xs, int base, Window g, int oz, int oy, int ox) {
    int z0 = g.lo(0, oz);
    int z1 = g.hi(0, oz);
    int y0 = g.lo(1, oy);
    int y1 = g.hi(1, oy);
    int x0 = g.lo(2, ox);
    int x1 = g.hi(2, ox);
    if (z0 >= z1 || y0 >= y1 || x0 >= x1) {
      return -1;
    }
    int hw = g.h * g.w;
    int best = base + z0 * hw + y0 * g.w + x0;
    float max = xs[best];
    for (int z = z0; z < z1; z++) {
      for (int y = y0; y < y1; y++) {
        int row = base + z * hw + y * g.w;
        for (int xx = x0; xx < x1; xx++) {
          if (xs[row + xx] > max) {
            max = xs[row + xx];
            best = row + xx;
          }
        }
      }
    }
    return best;
  }

  /** The average divisor of window {@code (oz, oy, ox)}; 0 or less means the output is 0. */
  private static int divisor(
      Window g, int oz, int oy, int ox, boolean countIncludePad, int divisorOverride) {
    if (divisorOverride > 0) {
      return divisorOverride;
    }
    if (countIncludePad) {
      return g.paddedCount(0, oz) * g.paddedCount(1, oy) * g.paddedCount(2, ox);
    }
    int cz = Math.max(0, g.hi(0, oz) - g.lo(0, oz));
    int cy = Math.max(0, g.hi(1, oy) - g.lo(1, oy));
    int cx = Math.max(0, g.hi(2, ox) - g.lo(2, ox));
    return cz * cy * cx;
  }

  private static Tensor back(Tensor f32, DType t) {
    return t == DType.FLOAT32 ? f32 : f32.astype(t);
  }

  private static Shape outShape(Shape x, Window g) {
    return Shape.of(x.dim(0), x.dim(1), g.od, g.oh, g.ow);
  }

  /** The output size {@code dy} implies, after checking it pairs with input shape {@code x}. */
  private static int[] outSizeOf(String op, Shape x, Shape dy) {
    if (dy.rank() != 5 || x.rank() != 5 || dy.dim(0) != x.dim(0) || dy.dim(1) != x.dim(1)) {
      throw MsException.valueError(
          "For '"
              + op
              + "', 'dout' must be 5-D with the batch and channels of 'x' "
              + x
              + ", but got "
              + dy
              + ".");
    }
    return new int[] {dy.dim(2), dy.dim(3), dy.dim(4)};
  }

  private static Window window(
      String op, Tensor x, int[] kernel, int[] strides, int[] pad, int[] outDhw) {
    KernelSupport.requireFloat(op, "x", x);
    return geometry(op, x.shape(), kernel, strides, pad, outDhw);
  }

  private static Window geometry(
      String op, Shape x, int[] kernel, int[] strides, int[] pad, int[] outDhw) {
    if (x.rank() != 5) {
      throw MsException.valueError(
          "For '" + op + "', the dimension of 'x' must be 5, but got " + x.rank() + ".");
    }
    if (kernel == null || strides == null || kernel.length != 3 || strides.length != 3) {
      throw MsException.valueError(
          "For '" + op + "', the 'kernel_size' and 'strides' must have 3 elements (d, h, w).");
    }
    if (pad == null || pad.length != 6) {
      throw MsException.valueError(
          "For '"
              + op
              + "', the 'pad' must have 6 elements (head, tail, top, bottom, left, right).");
    }
    if (outDhw == null || outDhw.length != 3) {
      throw MsException.valueError("For '" + op + "', the output size must have 3 elements.");
    }
    for (int a = 0; a < 3; a++) {
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
      if (pad[2 * a] < 0 || pad[2 * a + 1] < 0 || outDhw[a] < 0) {
        throw MsException.valueError(
            "For '" + op + "', the 'pad' and the output size must be non-negative.");
      }
    }
    long nc = (long) x.dim(0) * x.dim(1);
    long out = nc * outDhw[0] * outDhw[1] * outDhw[2];
    long limit = Integer.MAX_VALUE - 8;
    if (nc > limit || x.size() > limit || out > limit) {
      throw MsException.valueError(
          "For '" + op + "', the input " + x + " or its output is too large for this kernel.");
    }
    return new Window(
        (int) nc,
        x.dim(2),
        x.dim(3),
        x.dim(4),
        outDhw[0],
        outDhw[1],
        outDhw[2],
        kernel.clone(),
        strides.clone(),
        pad.clone());
  }
}
