package dev.msjvm.engine.tensor;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import java.util.List;

/**
 * MindSpore's {@code AdaptiveAvgPool2D} on NCHW or CHW tensors and its gradient.
 *
 * <p>Output cell {@code (i, j)} of an {@code H x W} plane pooled to {@code OH x OW} is the mean of
 * rows {@code floor(i*H/OH) .. ceil((i+1)*H/OH)} and columns {@code floor(j*W/OW) ..
 * ceil((j+1)*W/OW)} (end exclusive), as MindSpore's CPU kernel (adaptive_avg_pool_2d_cpu_kernel.cc)
 * bins them; neighbouring cells overlap when the size does not divide. An {@code output_size} entry
 * of -1 (MindSpore's None) keeps that input dimension. Means are taken in double and rounded to the
 * input's type. Example: a [1, 1, 3, 3] input of 0..8 pooled to (2, 2) is [[2, 3], [5, 6]].
 */
public final class AdaptivePooling {
  private AdaptivePooling() {}

  private static final String OP = "AdaptiveAvgPool2D";

  /** The output shape of {@code x} pooled to {@code size} ({@code (h, w)}, -1 keeps a dim). */
  public static Shape outputShape(Shape x, List<Integer> size) {
    int[] dims = x.toArray();
    for (int a = 0; a < 2; a++) {
      int s = size.get(a);
      if (s >= 0) {
        dims[dims.length - 2 + a] = s;
      }
    }
    return Shape.of(dims);
  }

  /** The type {@code AdaptiveAvgPool2D} gives, with MindSpore's checks; reads no values. */
  public static AbstractTensor adaptiveAvgPool2dType(AbstractTensor x, List<Integer> size) {
    if (x.rank() != 3 && x.rank() != 4) {
      throw MsException.valueError(
          "For primitive[" + OP + "], the dim of x must be in [3,4], but got " + x.rank() + ".");
    }
    DType t = x.dtype();
    if (t != DType.FLOAT16 && t != DType.FLOAT32 && t != DType.FLOAT64) {
      throw MsException.typeError(
          "For primitive["
              + OP
              + "], the input argument[x] must be a type of {Tensor[Float16], Tensor[Float32],"
              + " Tensor[Float64]}, but got Tensor["
              + t.mindsporeName()
              + "].");
    }
    return x.withShape(outputShape(x.shape(), size));
  }

  /** The type of {@code AdaptiveAvgPool2DGrad(x, dy)}: x's, checking dy's leading dims. */
  public static AbstractTensor adaptiveAvgPool2dGradType(AbstractTensor x, AbstractTensor dy) {
    Shape dyShape = dy.shape();
    KernelSupport.requireShape(
        OP + "Grad",
        "dout",
        dyShape,
        outputShape(x.shape(), List.of(dyShape.dim(-2), dyShape.dim(-1))));
    return x;
  }

  /** {@code AdaptiveAvgPool2D(x)} with {@code output_size} {@code size}. */
  public static Tensor adaptiveAvgPool2d(Tensor x, List<Integer> size) {
    Tensor out = Tensor.zeros(x.dtype(), adaptiveAvgPool2dType(x.type(), size).shape());
    Bins b = new Bins(x.shape(), out.shape());
    for (int p = 0; p < b.planes; p++) {
      for (int i = 0; i < b.oh; i++) {
        for (int j = 0; j < b.ow; j++) {
          double sum = 0;
          for (int y = start(i, b.h, b.oh); y < end(i, b.h, b.oh); y++) {
            for (int xx = start(j, b.w, b.ow); xx < end(j, b.w, b.ow); xx++) {
              sum += x.getDouble((p * b.h + y) * b.w + xx);
            }
          }
          out.setDouble((p * b.oh + i) * b.ow + j, sum / b.count(i, j));
        }
      }
    }
    return out;
  }

  /** {@code AdaptiveAvgPool2DGrad(x, dy)}: each output gradient spread evenly over its bin. */
  public static Tensor adaptiveAvgPool2dGrad(Tensor x, Tensor dy) {
    adaptiveAvgPool2dGradType(x.type(), dy.type());
    Bins b = new Bins(x.shape(), dy.shape());
    double[] acc = new double[x.size()];
    for (int p = 0; p < b.planes; p++) {
      for (int i = 0; i < b.oh; i++) {
        for (int j = 0; j < b.ow; j++) {
          double share = dy.getDouble((p * b.oh + i) * b.ow + j) / b.count(i, j);
          for (int y = start(i, b.h, b.oh); y < end(i, b.h, b.oh); y++) {
            for (int xx = start(j, b.w, b.ow); xx < end(j, b.w, b.ow); xx++) {
              acc[(p * b.h + y) * b.w + xx] += share;
            }
          }
        }
      }
    }
    Tensor dx = Tensor.zeros(x.dtype(), x.shape());
    for (int k = 0; k < acc.length; k++) {
      dx.setDouble(k, acc[k]);
    }
    return dx;
  }

  /** The planes (N*C or C) of an input and the input and output plane sizes. */
  private record Bins(int planes, int h, int w, int oh, int ow) {
    Bins(Shape in, Shape out) {
      this(
          (int) (in.size() / Math.max(1, (long) in.dim(-2) * in.dim(-1))),
          in.dim(-2),
          in.dim(-1),
          out.dim(-2),
          out.dim(-1));
    }

    int count(int i, int j) {
      return (end(i, h, oh) - start(i, h, oh)) * (end(j, w, ow) - start(j, w, ow));
    }
  }

  private static int start(int i, int in, int out) {
    return (int) ((long) i * in / out);
  }

  private static int end(int i, int in, int out) {
    return (int) Math.ceilDiv((long) (i + 1) * in, out);
  }
}
