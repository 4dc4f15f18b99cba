package dev.msjvm.engine.data;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * A built-in per-sample transform of {@code mindspore.dataset.vision} / {@code .transforms}, run in
 * Java.
 *
 * <p>Each record holds the arguments MindSpore's Python class validated; {@link #apply} maps one
 * sample's column to its new value with MindSpore's output type (Rescale and Normalize give
 * float32, HWC2CHW and Resize keep the type, OneHot keeps the label's type). Example: {@code new
 * Rescale(1 / 255.0, 0).apply(uint8Image)} is the float32 image scaled into [0, 1].
 */
public sealed interface Transform {
  /** The transformed value of one sample's column. */
  Tensor apply(Tensor x);

  /** {@code vision.Rescale}: {@code x * rescale + shift} as float32. */
  record Rescale(double rescale, double shift) implements Transform {
    @Override
    public Tensor apply(Tensor x) {
      float r = (float) rescale;
      float s = (float) shift;
      float[] out = new float[x.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = (float) x.getDouble(i) * r + s;
      }
      return Tensor.ofFloats(x.shape(), out);
    }
  }

  /** {@code vision.Normalize}: {@code (x - mean[c]) / std[c]} per channel, as float32. */
  record Normalize(List<Double> mean, List<Double> std, boolean hwc) implements Transform {
    public Normalize {
      mean = List.copyOf(mean);
      std = List.copyOf(std);
    }

    @Override
    public Tensor apply(Tensor x) {
      Shape s = x.shape();
      int channels = s.rank() == 2 ? 1 : hwc ? s.dim(s.rank() - 1) : s.dim(0);
      if (s.rank() != 2 && s.rank() != 3) {
        throw PipelineError.of(
            "Normalize: input tensor is not in shape of <H,W> or <H,W,C>, but got rank: "
                + s.rank());
      }
      if (mean.size() != 1 && mean.size() != channels) {
        throw PipelineError.of(
            "Normalize: number of channels does not match the size of mean and std vectors, got"
                + " channels: "
                + channels
                + ", size of mean: "
                + mean.size());
      }
      int plane = x.size() / channels;
      float[] out = new float[x.size()];
      for (int i = 0; i < out.length; i++) {
        int c = hwc ? i % channels : i / plane;
        int m = mean.size() == 1 ? 0 : c;
        out[i] = (float) ((x.getDouble(i) - mean.get(m)) / std.get(m));
      }
      return Tensor.ofFloats(s, out);
    }
  }

  /** {@code vision.HWC2CHW}: transposes an [H, W, C] image to [C, H, W]; [H, W] gains C = 1. */
  record Hwc2Chw() implements Transform {
    @Override
    public Tensor apply(Tensor x) {
      Shape s = x.shape();
      if (s.rank() == 2) {
        return x.withShape(Shape.of(1, s.dim(0), s.dim(1)));
      }
      if (s.rank() != 3) {
        throw PipelineError.of(
            "HWC2CHW: the dimension of input image should be 2 or 3, but got: " + s.rank());
      }
      int h = s.dim(0);
      int w = s.dim(1);
      int c = s.dim(2);
      if (c == 1) {
        return x.withShape(Shape.of(1, h, w));
      }
      return Tensor.ofDoubles(
          x.dtype(),
          Shape.of(c, h, w),
          i -> {
            int ch = i / (h * w);
            int p = i % (h * w);
            return x.getDouble(p * c + ch);
          });
    }
  }

  /**
   * {@code vision.Resize} with {@code Inter.LINEAR} (OpenCV's bilinear with half-pixel centres), to
   * [size, width, C]; {@code width < 0} scales the shorter side to {@code size} keeping the aspect
   * ratio. uint8 results round to nearest and saturate as OpenCV does.
   */
  record Resize(int size, int width) implements Transform {
    @Override
    public Tensor apply(Tensor x) {
      Shape s = x.shape();
      if (s.rank() != 2 && s.rank() != 3) {
        throw PipelineError.of(
            "Resize: the dimension of image should be 2 or 3, but got: " + s.rank());
      }
      int ih = s.dim(0);
      int iw = s.dim(1);
      int outH = width >= 0 || ih <= iw ? size : (int) ((long) size * ih / iw);
      int outW = width >= 0 ? width : ih <= iw ? (int) ((long) size * iw / ih) : size;
      int c = s.rank() == 3 ? s.dim(2) : 1;
      Shape outShape = s.rank() == 3 ? Shape.of(outH, outW, c) : Shape.of(outH, outW);
      double sy = (double) ih / outH;
      double sx = (double) iw / outW;
      boolean integral = !x.dtype().isFloat();
      return Tensor.ofDoubles(
          x.dtype(),
          outShape,
          i -> {
            int ch = i % c;
            int ox = (i / c) % outW;
            int oy = i / (c * outW);
            double fy = Math.max((oy + 0.5) * sy - 0.5, 0);
            double fx = Math.max((ox + 0.5) * sx - 0.5, 0);
            int y0 = Math.min((int) fy, ih - 1);
            int x0 = Math.min((int) fx, iw - 1);
            int y1 = Math.min(y0 + 1, ih - 1);
            int x1 = Math.min(x0 + 1, iw - 1);
            double wy = fy - y0;
            double wx = fx - x0;
            double p00 = x.getDouble((y0 * iw + x0) * c + ch);
            double p01 = x.getDouble((y0 * iw + x1) * c + ch);
            double p10 = x.getDouble((y1 * iw + x0) * c + ch);
            double p11 = x.getDouble((y1 * iw + x1) * c + ch);
            if (integral) {
              return fixedPoint(p00, p01, p10, p11, wx, wy);
            }
            double top = p00 * (1 - wx) + p01 * wx;
            return top * (1 - wy) + (p10 * (1 - wx) + p11 * wx) * wy;
          });
    }
  }

  /**
   * OpenCV's integer bilinear step for 8-bit images ({@code HResizeLinear}/{@code VResizeLinear} in
   * imgproc/src/resize.cpp): 11-bit weights, rows rounded after the vertical pass, so results equal
   * MindSpore's bit for bit.
   */
  private static double fixedPoint(
      double p00, double p01, double p10, double p11, double wx, double wy) {
    int a1 = (int) Math.round(wx * 2048);
    int a0 = 2048 - a1;
    int b1 = (int) Math.round(wy * 2048);
    int b0 = 2048 - b1;
    int top = (int) p00 * a0 + (int) p01 * a1;
    int bottom = (int) p10 * a0 + (int) p11 * a1;
    int v = (((b0 * (top >> 4)) >> 16) + ((b1 * (bottom >> 4)) >> 16) + 2) >> 2;
    return Math.min(Math.max(v, 0), 255);
  }

  /** {@code transforms.TypeCast}: a cast to {@code dtype} (numpy's astype rules). */
  record TypeCast(DType dtype) implements Transform {
    @Override
    public Tensor apply(Tensor x) {
      return x.astype(dtype);
    }
  }

  /** {@code transforms.OneHot}: a scalar class index to a [numClasses] vector of its type. */
  record OneHot(int numClasses) implements Transform {
    @Override
    public Tensor apply(Tensor x) {
      if (x.shape().rank() > 1) {
        throw PipelineError.of(
            "OneHot: OneHot only supports scalars or 1D input, got rank: " + x.shape().rank());
      }
      int n = x.size();
      Shape out = x.shape().rank() == 0 ? Shape.of(numClasses) : Shape.of(n, numClasses);
      return Tensor.ofDoubles(
          x.dtype(),
          out,
          i -> {
            long cls = x.getLong(i / numClasses);
            if (cls < 0 || cls >= numClasses) {
              throw PipelineError.of(
                  "OneHot: index values should not bigger than num classes: "
                      + numClasses
                      + ", but got: "
                      + cls);
            }
            return cls == i % numClasses ? 1 : 0;
          });
    }
  }

  /** The transform named {@code name} with Python-side-validated arguments. */
  public static Transform of(String name, List<Object> args) {
    return switch (name) {
      case "Rescale" -> new Rescale(num(args, 0), num(args, 1));
      case "Normalize" ->
          new Normalize(nums(args.get(0)), nums(args.get(1)), (Boolean) args.get(2));
      case "HWC2CHW" -> new Hwc2Chw();
      case "Resize" -> new Resize((int) num(args, 0), (int) num(args, 1));
      case "TypeCast" -> new TypeCast(DType.valueOf((String) args.get(0)));
      case "OneHot" -> new OneHot((int) num(args, 0));
      default -> throw MsException.valueError("Unknown dataset transform " + name + ".");
    };
  }

  private static double num(List<Object> args, int i) {
    return ((Number) args.get(i)).doubleValue();
  }

  private static List<Double> nums(Object list) {
    return ((List<?>) list).stream().map(v -> ((Number) v).doubleValue()).toList();
  }
}
