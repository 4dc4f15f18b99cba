package dev.msjvm.engine.data;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * Windows of padded images for the crop and slice transforms, without materialising the padding.
 *
 * <p>An axis is {@code {length, before, after, extra}}: the image's length, padded by {@code
 * before}/{@code after}, then padded again by {@code extra} on both sides (RandomCrop's {@code
 * pad_if_needed} pads the padded image, so reflections see the first padding). Border modes are
 * MindSpore's {@code Border} values and map to OpenCV's as {@code Pad} does: "constant" fills,
 * "edge" replicates, "reflect" is BORDER_REFLECT_101 ({@code dcb|abcd|cba}), "symmetric" is
 * BORDER_REFLECT ({@code cba|abcd|dcb}). Example: {@code window(x, {4, 1, 1, 0}, {4, 1, 1, 0}, 0,
 * 0, 4, 4, "reflect", fill)} of a 4x4 image starts with row 1's mirror.
 */
final class ImageGeometry {
  private ImageGeometry() {}

  /** {@code x}'s shape when it has at least the two image dims, else the pipeline error. */
  static Shape image(Tensor x, String refusal) {
    if (x.shape().rank() < 2) {
      throw PipelineError.of(refusal);
    }
    return x.shape();
  }

  /** The padded length of an axis {@code {length, before, after, extra}}. */
  static int padded(int[] axis) {
    return axis[0] + axis[1] + axis[2] + 2 * axis[3];
  }

  /**
   * The {@code h x w} window at {@code (y0, x0)} of {@code x} padded along {@code rows} and {@code
   * cols}; constant padding takes {@code fill.get(channel)} (0 past its end), as OpenCV's Scalar.
   */
  static Tensor window(
      Tensor x,
      int[] rows,
      int[] cols,
      int y0,
      int x0,
      int h,
      int w,
      String border,
      List<Integer> fill) {
    Shape s = x.shape();
    int[] dims = s.toArray();
    dims[0] = h;
    dims[1] = w;
    int c = x.size() / (s.dim(0) * s.dim(1));
    return Tensor.ofDoubles(
        x.dtype(),
        Shape.of(dims),
        i -> {
          int ch = i % c;
          int sy = source(y0 + (i / c) / w, rows, border);
          int sx = source(x0 + (i / c) % w, cols, border);
          if (sy < 0 || sx < 0) {
            return ch < fill.size() ? fill.get(ch) : 0;
          }
          return x.getDouble((sy * s.dim(1) + sx) * c + ch);
        });
  }

  /** The image index padded position {@code p} of {@code axis} reads, or -1 for the fill. */
  private static int source(int p, int[] axis, String border) {
    int q = interpolate(p - axis[3], axis[0] + axis[1] + axis[2], border);
    return q < 0 ? -1 : interpolate(q - axis[1], axis[0], border);
  }

  /** OpenCV's {@code borderInterpolate}; -1 outside for "constant". */
  private static int interpolate(int p, int len, String border) {
    if (p >= 0 && p < len) {
      return p;
    }
    return switch (border) {
      case "constant" -> -1;
      case "edge" -> p < 0 ? 0 : len - 1;
      default -> {
        if (len == 1) {
          yield 0;
        }
        int delta = border.equals("reflect") ? 1 : 0;
        do {
          p = p < 0 ? -p - 1 + delta : len - 1 - (p - len) - delta;
        } while (p < 0 || p >= len);
        yield p;
      }
    };
  }
}
