package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.Shape;

/**
 * MindSpore's {@code ResizeBilinearV2} and its gradient {@code ResizeBilinearGrad} on NCHW host
 * tensors, with its coordinate conventions: an output coordinate {@code i} samples the input at
 * {@code i * scale} (scale {@code in / out}), at {@code i * (in - 1) / (out - 1)} with {@code
 * align_corners}, or at {@code (i + 0.5) * scale - 0.5} with {@code half_pixel_centers}; the two
 * neighbours are clamped to the image and weighted linearly. The gradient is the exact adjoint:
 * each output gradient is spread over the four input elements with the same weights.
 */
public final class Resize {
  private Resize() {}

  /** One axis' sampling: per output index the two input indices and the weight of the upper. */
  private record Axis(int[] lower, int[] upper, double[] lerp) {
    static Axis of(int in, int out, boolean alignCorners, boolean halfPixel) {
      double scale = alignCorners && out > 1 ? (in - 1) / (double) (out - 1) : in / (double) out;
      int[] lo = new int[out];
      int[] hi = new int[out];
      double[] w = new double[out];
      for (int i = 0; i < out; i++) {
        double src = halfPixel ? (i + 0.5) * scale - 0.5 : i * scale;
        double f = Math.floor(src);
        lo[i] = Math.max((int) f, 0);
        hi[i] = Math.min((int) Math.ceil(src), in - 1);
        w[i] = src - f;
      }
      return new Axis(lo, hi, w);
    }
  }

  /** {@code ResizeBilinearV2(image, size)}. */
  public static Tensor resizeBilinear(
      Tensor image, int[] size, boolean alignCorners, boolean halfPixel) {
    AbstractTensor t = resizeBilinearType(image.type(), size, alignCorners, halfPixel);
    int[] d = image.shape().toArray();
    Axis ys = Axis.of(d[2], size[0], alignCorners, halfPixel);
    Axis xs = Axis.of(d[3], size[1], alignCorners, halfPixel);
    Tensor out = Tensor.zeros(t.dtype(), t.shape());
    int o = 0;
    for (int nc = 0; nc < d[0] * d[1]; nc++) {
      int base = nc * d[2] * d[3];
      for (int y = 0; y < size[0]; y++) {
        int top = base + ys.lower[y] * d[3];
        int bottom = base + ys.upper[y] * d[3];
        double wy = ys.lerp[y];
        for (int x = 0; x < size[1]; x++) {
          double wx = xs.lerp[x];
          double tl = image.getDouble(top + xs.lower[x]);
          double tr = image.getDouble(top + xs.upper[x]);
          double bl = image.getDouble(bottom + xs.lower[x]);
          double br = image.getDouble(bottom + xs.upper[x]);
          double upper = tl + (tr - tl) * wx;
          double lower = bl + (br - bl) * wx;
          out.setDouble(o++, upper + (lower - upper) * wy);
        }
      }
    }
    return out;
  }

  /** {@code ResizeBilinearGrad(grads, image)}: the gradient with respect to {@code image}. */
  public static Tensor resizeBilinearGrad(
      Tensor grads, Tensor image, boolean alignCorners, boolean halfPixel) {
    AbstractTensor t = resizeBilinearGradType(grads.type(), image.type());
    int[] d = image.shape().toArray();
    int[] g = grads.shape().toArray();
    Axis ys = Axis.of(d[2], g[2], alignCorners, halfPixel);
    Axis xs = Axis.of(d[3], g[3], alignCorners, halfPixel);
    double[] acc = new double[image.size()];
    int o = 0;
    for (int nc = 0; nc < d[0] * d[1]; nc++) {
      int base = nc * d[2] * d[3];
      for (int y = 0; y < g[2]; y++) {
        int top = base + ys.lower[y] * d[3];
        int bottom = base + ys.upper[y] * d[3];
        double wy = ys.lerp[y];
        for (int x = 0; x < g[3]; x++) {
          double wx = xs.lerp[x];
          double v = grads.getDouble(o++);
          acc[top + xs.lower[x]] += v * (1 - wy) * (1 - wx);
          acc[top + xs.upper[x]] += v * (1 - wy) * wx;
          acc[bottom + xs.lower[x]] += v * wy * (1 - wx);
          acc[bottom + xs.upper[x]] += v * wy * wx;
        }
      }
    }
    Tensor dx = Tensor.zeros(t.dtype(), t.shape());
    for (int i = 0; i < acc.length; i++) {
      dx.setDouble(i, acc[i]);
    }
    return dx;
  }

  /** The type {@link #resizeBilinear} gives, with MindSpore's checks; reads no values. */
  public static AbstractTensor resizeBilinearType(
      AbstractTensor image, int[] size, boolean alignCorners, boolean halfPixel) {
    KernelSupport.requireFloat("ResizeBilinearV2", "image", image);
    if (image.rank() != 4) {
      throw MsException.valueError(
          "For 'ResizeBilinearV2', the dimension of 'image' must be 4, but got "
              + image.rank()
              + ".");
    }
    if (size.length != 2 || size[0] <= 0 || size[1] <= 0) {
      throw MsException.valueError(
          "For 'ResizeBilinearV2', the 'size' must be two positive ints, but got "
              + java.util.Arrays.toString(size)
              + ".");
    }
    if (alignCorners && halfPixel) {
      throw MsException.valueError(
          "For ResizeBilinearV2, the half_pixel_centers must be false when align_corners is true,"
              + " but half_pixel_centers got True.");
    }
    int[] d = image.shape().toArray();
    return image.withShape(Shape.of(d[0], d[1], size[0], size[1]));
  }

  /** The type {@link #resizeBilinearGrad} gives ({@code image}'s); reads no values. */
  public static AbstractTensor resizeBilinearGradType(AbstractTensor grads, AbstractTensor image) {
    KernelSupport.requireFloat("ResizeBilinearGrad", "grads", grads);
    if (grads.rank() != 4 || image.rank() != 4) {
      throw MsException.valueError(
          "For 'ResizeBilinearGrad', the dimension of 'grads' and 'original_image' must be 4.");
    }
    int[] g = grads.shape().toArray();
    int[] d = image.shape().toArray();
    if (g[0] != d[0] || g[1] != d[1]) {
      throw MsException.valueError(
          "For 'ResizeBilinearGrad', the batch and channel of 'grads' "
              + grads.shape()
              + " and 'original_image' "
              + image.shape()
              + " must be equal.");
    }
    return image.withDtype(grads.dtype());
  }
}
