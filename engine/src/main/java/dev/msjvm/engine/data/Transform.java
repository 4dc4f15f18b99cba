package dev.msjvm.engine.data;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.DType;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A built-in per-sample transform of {@code mindspore.dataset.vision} / {@code .transforms}, run in
 * Java.
 *
 * <p>Each record holds the arguments MindSpore's Python class validated; {@link #apply} maps one
 * sample's column to its new value with MindSpore's output type (Rescale and Normalize give
 * float32, HWC2CHW and Resize keep the type, OneHot keeps the label's type). The random ones
 * (RandomCrop, RandomHorizontalFlip) draw from the generator {@link #columns} is given, which the
 * pipeline seeds from the dataset seed; SlicePatches makes several columns of one. Example: {@code
 * new Rescale(1 / 255.0, 0).apply(uint8Image)} is the float32 image scaled into [0, 1].
 */
public sealed interface Transform {
  /** The transformed value of one sample's column (a random transform draws from seed 0). */
  Tensor apply(Tensor x);

  /** The columns made of one sample's column, random draws taken from {@code rng}. */
  default List<Tensor> columns(Tensor x, RandomGenerator rng) {
    return List.of(apply(x));
  }

  /** Whether {@link #columns} draws from its generator. */
  default boolean random() {
    return false;
  }

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
            // OpenCV clamps a column before the first to it, but a row before the first keeps its
            // weights and reads the first row twice (resize.cpp: xofs is clamped, yofs is not).
            double fy = (oy + 0.5) * sy - 0.5;
            double fx = Math.max((ox + 0.5) * sx - 0.5, 0);
            int fy0 = (int) Math.floor(fy);
            int y0 = Math.min(Math.max(fy0, 0), ih - 1);
            int x0 = Math.min((int) fx, iw - 1);
            int y1 = Math.min(Math.max(fy0 + 1, 0), ih - 1);
            int x1 = Math.min(x0 + 1, iw - 1);
            double wy = fy - fy0;
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

  /** A transform that draws from the generator it is given; alone it draws from seed 0. */
  sealed interface RandomTransform extends Transform permits RandomCrop, RandomHorizontalFlip {
    @Override
    default Tensor apply(Tensor x) {
      return columns(x, new java.util.SplittableRandom(0)).get(0);
    }

    @Override
    default boolean random() {
      return true;
    }
  }

  /**
   * {@code vision.RandomCrop}: pads by {@code padding} (top, bottom, left, right) in {@code border}
   * mode, with {@code padIfNeeded} pads again on both sides up to the crop size, then crops a
   * uniformly placed {@code height x width} window (x drawn before y, as MindSpore's
   * random_crop_op.cc); a padded image of the crop size is returned without a draw.
   */
  record RandomCrop(
      int height,
      int width,
      List<Integer> padding,
      boolean padIfNeeded,
      List<Integer> fill,
      String border)
      implements RandomTransform {
    public RandomCrop {
      padding = List.copyOf(padding);
      fill = List.copyOf(fill);
    }

    @Override
    public List<Tensor> columns(Tensor x, RandomGenerator rng) {
      Shape s =
          ImageGeometry.image(
              x,
              "RandomCropOp: input tensor should have at least 2 dimensions, but got: "
                  + x.shape().rank());
      int[] rows = {s.dim(0), padding.get(0), padding.get(1), 0};
      int[] cols = {s.dim(1), padding.get(2), padding.get(3), 0};
      boolean whole = ImageGeometry.padded(rows) == height && ImageGeometry.padded(cols) == width;
      if (!whole && padIfNeeded) {
        rows[3] = Math.max(0, height - ImageGeometry.padded(rows));
        cols[3] = Math.max(0, width - ImageGeometry.padded(cols));
      }
      int ph = ImageGeometry.padded(rows);
      int pw = ImageGeometry.padded(cols);
      if (ph < height || pw < width) {
        throw PipelineError.of(
            "RandomCrop: invalid crop size, crop size is bigger than the image dimensions, got crop"
                + " height: "
                + height
                + ", crop width: "
                + width);
      }
      int x0 = whole ? 0 : rng.nextInt(pw - width + 1);
      int y0 = whole ? 0 : rng.nextInt(ph - height + 1);
      return List.of(ImageGeometry.window(x, rows, cols, y0, x0, height, width, border, fill));
    }
  }

  /** {@code vision.RandomHorizontalFlip}: mirrors the columns with probability {@code prob}. */
  record RandomHorizontalFlip(double prob) implements RandomTransform {
    @Override
    public List<Tensor> columns(Tensor x, RandomGenerator rng) {
      Shape s =
          ImageGeometry.image(
              x,
              "RandomHorizontalFlip: the image tensor should have at least two dimensions. You may"
                  + " need to perform Decode first.");
      if (!(rng.nextDouble() < prob)) {
        return List.of(x);
      }
      int w = s.dim(1);
      int c = x.size() / (s.dim(0) * w);
      return List.of(
          Tensor.ofDoubles(
              x.dtype(),
              s,
              i -> {
                int col = (i / c) % w;
                return x.getDouble(i + (w - 1 - 2 * col) * c);
              }));
    }
  }

  /**
   * {@code vision.SlicePatches}: {@code numHeight * numWidth} patches in row-major order; with
   * {@code pad} the image is first padded at the bottom and right with {@code fill} up to a
   * multiple of the grid (patches of {@code ceil(H / numHeight)} rows), else the remainder is
   * dropped.
   */
  record SlicePatches(int numHeight, int numWidth, boolean pad, int fill) implements Transform {
    @Override
    public Tensor apply(Tensor x) {
      return columns(x, null).get(0);
    }

    @Override
    public List<Tensor> columns(Tensor x, RandomGenerator rng) {
      if (numHeight == 1 && numWidth == 1) {
        return List.of(x);
      }
      Shape s = x.shape();
      if (s.rank() < 2) {
        throw PipelineError.of("Rank of input data should be greater than 2, but got:" + s.rank());
      }
      int ph = pad ? Math.ceilDiv(s.dim(0), numHeight) : s.dim(0) / numHeight;
      int pw = pad ? Math.ceilDiv(s.dim(1), numWidth) : s.dim(1) / numWidth;
      int[] rows = {s.dim(0), 0, 0, 0};
      int[] cols = {s.dim(1), 0, 0, 0};
      List<Integer> fills = java.util.Collections.nCopies(x.size() / (s.dim(0) * s.dim(1)), fill);
      List<Tensor> out = new ArrayList<>();
      for (int i = 0; i < numHeight; i++) {
        for (int j = 0; j < numWidth; j++) {
          out.add(ImageGeometry.window(x, rows, cols, i * ph, j * pw, ph, pw, "constant", fills));
        }
      }
      return out;
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
      case "RandomCrop" ->
          new RandomCrop(
              (int) num(args, 0),
              (int) num(args, 1),
              ints(args.get(2)),
              (Boolean) args.get(3),
              ints(args.get(4)),
              (String) args.get(5));
      case "RandomHorizontalFlip" -> new RandomHorizontalFlip(num(args, 0));
      case "SlicePatches" ->
          new SlicePatches(
              (int) num(args, 0), (int) num(args, 1), (Boolean) args.get(2), (int) num(args, 3));
      default -> throw MsException.valueError("Unknown dataset transform " + name + ".");
    };
  }

  private static double num(List<Object> args, int i) {
    return ((Number) args.get(i)).doubleValue();
  }

  private static List<Integer> ints(Object list) {
    return ((List<?>) list).stream().map(v -> ((Number) v).intValue()).toList();
  }

  private static List<Double> nums(Object list) {
    return ((List<?>) list).stream().map(v -> ((Number) v).doubleValue()).toList();
  }
}
