package dev.msjvm.engine.ops;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import java.util.List;
import java.util.Locale;

/**
 * The geometry of a window sliding over the D, H and W of an NCDHW tensor, as MindSpore's Conv3D
 * and MaxPool3D read it from their attributes: the pad mode, the windows' reach (kernel with
 * dilation), strides and dilations along (d, h, w), and the six pads (head, tail, top, bottom,
 * left, right) the inference resolves ("valid" none; "same" the needed padding, smaller half first;
 * "pad" the given ones), and the output's (d, h, w).
 *
 * <p>Conv3D's attributes: {@code kernel_size} (3), {@code strides} and {@code dilations} (5, the
 * last three used), {@code pad} (6), {@code pad_mode} ("valid", "same", "pad"). MaxPool3D's: {@code
 * kernel_size} and {@code strides} (5), {@code pad_list} (6), {@code pad_mode} ("VALID", "SAME",
 * "CALCULATED" or "PAD"), {@code ceil_mode}; AvgPool3D's the same ({@code ceil_mode} a bool).
 * Example: MaxPool3D kernel 3, stride 1, mode "same" on a 16x16x16 volume pads (1, 1, 1, 1, 1, 1)
 * and keeps 16x16x16.
 */
public record Window3d(
    String mode, int[] kernel, int[] extent, int[] stride, int[] dilation, int[] pad, int[] out) {

  /** Conv3D(x, w)'s window (conv3d.cc's CaculateShape). */
  public static Window3d conv3d(Attrs a, Shape x, Shape w) {
    String mode = mode(a, "valid");
    int[] stride = tail3(a, "strides");
    int[] dilation = tail3(a, "dilations");
    int[] kernel = {w.dim(2), w.dim(3), w.dim(4)};
    int[] extent = new int[3];
    int[] pad = mode.equals("pad") ? six(a, "pad") : new int[6];
    int[] out = new int[3];
    for (int i = 0; i < 3; i++) {
      extent[i] = dilation[i] * (kernel[i] - 1) + 1;
      int in = x.dim(2 + i);
      switch (mode) {
        case "valid" -> out[i] = Math.floorDiv(in - extent[i], stride[i]) + 1;
        case "same" -> {
          out[i] = Math.ceilDiv(in, stride[i]);
          int needed = Math.max(0, (out[i] - 1) * stride[i] + extent[i] - in);
          pad[2 * i] = needed / 2;
          pad[2 * i + 1] = needed - needed / 2;
        }
        default ->
            out[i] = Math.floorDiv(in + pad[2 * i] + pad[2 * i + 1] - extent[i], stride[i]) + 1;
      }
    }
    return new Window3d(mode, kernel, extent, stride, dilation, pad, out);
  }

  /** MaxPool3D(x)'s window (max_pool3d.cc's GetPadsByPadding and GetOutputShape). */
  public static Window3d pool3d(String op, Attrs a, Shape x) {
    String mode = mode(a, "valid");
    if (mode.equals("calculated")) {
      mode = "pad";
    }
    List<Integer> ks = a.ints("kernel_size");
    if (ks.size() != 5) {
      throw MsException.valueError(
          "For '" + op + "', 'kernel_size' must be 5, but got " + ks.size() + ".");
    }
    List<Integer> ss = a.ints("strides");
    if (ss.size() != 5) {
      throw MsException.valueError(
          "For '" + op + "', 'strides' must be 5, but got " + ss.size() + ".");
    }
    if (ss.stream().anyMatch(v -> v <= 0)) {
      throw MsException.valueError(
          "For '" + op + "', 'strides' must be all positive, but got 'strides': " + ss + ".");
    }
    int[] kernel = {ks.get(2), ks.get(3), ks.get(4)};
    int[] stride = {ss.get(2), ss.get(3), ss.get(4)};
    int[] pad = mode.equals("pad") ? six(a, "pad_list") : new int[6];
    boolean[] ceil = ceilModes(a);
    int[] out = new int[3];
    String[] sides = {"head and tail", "top and bottom", "left and right"};
    String[] dims = {"depth", "height", "width"};
    String[] letters = {"d", "h", "w"};
    for (int i = 0; i < 3; i++) {
      int in = x.dim(2 + i);
      switch (mode) {
        case "valid" -> out[i] = Math.ceilDiv(in - (kernel[i] - 1), stride[i]);
        case "same" -> {
          out[i] = Math.ceilDiv(in, stride[i]);
          int tail = in % stride[i];
          int needed = Math.max(tail > 0 ? kernel[i] - tail : kernel[i] - stride[i], 0);
          pad[2 * i] = needed / 2;
          pad[2 * i + 1] = needed - needed / 2;
        }
        default -> {
          int padAll = pad[2 * i] + pad[2 * i + 1];
          if (padAll > kernel[i]) {
            throw MsException.valueError(
                "For '"
                    + op
                    + "', the summation of padding on "
                    + sides[i]
                    + " must be smaller than, or equal to the kernel size on "
                    + dims[i]
                    + ", but got padding: ["
                    + pad[2 * i]
                    + ", "
                    + pad[2 * i + 1]
                    + "], kernel_"
                    + letters[i]
                    + ": "
                    + kernel[i]
                    + ".");
          }
          double exact = (double) (in + padAll - kernel[i]) / stride[i] + 1;
          if (ceil[i]) {
            int o = (int) Math.ceil(exact);
            // FixCeil: the last window must start inside the input or its leading pad.
            out[i] = (o - 1) * stride[i] >= in + pad[2 * i] ? o - 1 : o;
          } else {
            out[i] = (int) Math.floor(exact);
          }
        }
      }
    }
    return new Window3d(mode, kernel, kernel.clone(), stride, new int[] {1, 1, 1}, pad, out);
  }

  /**
   * AvgPool3D(x)'s window (avg_pool_3d.cc's GetPadsByPadding and GetOutputShape): pads as
   * MaxPool3D's, the pads of mode "pad" at most the kernel in sum, and the output size by the
   * padded extent in every mode, rounded up with {@code ceil_mode} (a last window starting past the
   * input and its leading pad dropped).
   */
  public static Window3d avgPool3d(String op, Attrs a, Shape x) {
    Window3d base = pool3d(op, a.with("pad_mode", "VALID").without(List.of("ceil_mode")), x);
    // pool3d's attribute checks; its valid-mode output is not used
    String mode = mode(a, "valid");
    if (mode.equals("calculated")) {
      mode = "pad";
    }
    int[] kernel = base.kernel();
    int[] stride = base.stride();
    int[] pad = new int[6];
    if (mode.equals("same")) {
      for (int i = 0; i < 3; i++) {
        int tail = x.dim(2 + i) % stride[i];
        int needed = Math.max(tail > 0 ? kernel[i] - tail : kernel[i] - stride[i], 0);
        pad[2 * i] = needed / 2;
        pad[2 * i + 1] = needed - needed / 2;
      }
    } else if (mode.equals("pad")) {
      pad = six(a, "pad_list");
      if (pad[0] + pad[1] > kernel[0]
          || pad[2] + pad[3] > kernel[1]
          || pad[4] + pad[5] > kernel[2]) {
        throw MsException.valueError(
            "For '"
                + op
                + " the sum of the pads in the two directions should be less than or equal to the"
                + " corresponding kernel size, but got pads: ("
                + pad[0]
                + ","
                + pad[1]
                + ","
                + pad[2]
                + ","
                + pad[3]
                + ","
                + pad[4]
                + ","
                + pad[5]
                + ") and kernel: ("
                + kernel[0]
                + ", "
                + kernel[1]
                + ", "
                + kernel[2]
                + ")");
      }
    }
    boolean[] ceil = ceilModes(a);
    int[] padded = new int[3];
    for (int i = 0; i < 3; i++) {
      padded[i] = x.dim(2 + i) + pad[2 * i] + pad[2 * i + 1];
    }
    if (!ceil[0] && (padded[0] < kernel[0] || padded[1] < kernel[1] || padded[2] < kernel[2])) {
      throw MsException.runtimeError(
          "For '"
              + op
              + ", size of input with the padding is (D:"
              + padded[0]
              + ", H:"
              + padded[1]
              + ", W:"
              + padded[2]
              + ") smaller than kernel size [const initializer_list]{"
              + kernel[0]
              + ", "
              + kernel[1]
              + ", "
              + kernel[2]
              + "}");
    }
    int[] out = new int[3];
    for (int i = 0; i < 3; i++) {
      if (ceil[i]) {
        // C++'s truncating division, as avg_pool_3d.cc
        int o = (padded[i] - kernel[i] + stride[i] - 1) / stride[i] + 1;
        out[i] = (o - 1) * stride[i] >= x.dim(2 + i) + pad[2 * i] ? o - 1 : o;
      } else {
        out[i] = (padded[i] - kernel[i]) / stride[i] + 1;
      }
    }
    return new Window3d(mode, kernel, kernel.clone(), stride, new int[] {1, 1, 1}, pad, out);
  }

  /** The output shape for {@code n} images of {@code channels} channels. */
  public Shape outShape(int n, int channels) {
    return Shape.of(n, channels, out[0], out[1], out[2]);
  }

  /**
   * {@code ceil_mode} per (d, h, w): MindSpore's one flag (a bool, or 0/1) for all three, or the
   * three flags a partitioned rank's op gets (a split dimension rounds up only on its last slice).
   */
  public static boolean[] ceilModes(Attrs a) {
    if (!a.has("ceil_mode")) {
      return new boolean[3];
    }
    Object v = a.get("ceil_mode");
    if (v instanceof List<?> l) {
      return new boolean[] {flag(l.get(0)), flag(l.get(1)), flag(l.get(2))};
    }
    boolean f = flag(v);
    return new boolean[] {f, f, f};
  }

  private static boolean flag(Object v) {
    return v instanceof Boolean b ? b : v instanceof Number n && n.intValue() == 1;
  }

  private static String mode(Attrs a, String otherwise) {
    return (a.has("pad_mode") ? a.string("pad_mode") : otherwise).toLowerCase(Locale.ROOT);
  }

  /** The last three of a 3- or 5-element attribute (one int: all three). */
  private static int[] tail3(Attrs a, String name) {
    List<Integer> v = a.ints(name);
    if (v.size() == 1) {
      return new int[] {v.get(0), v.get(0), v.get(0)};
    }
    int at = v.size() - 3;
    return new int[] {v.get(at), v.get(at + 1), v.get(at + 2)};
  }

  private static int[] six(Attrs a, String name) {
    if (!a.has(name)) {
      return new int[6];
    }
    List<Integer> v = a.ints(name);
    int[] out = new int[6];
    for (int i = 0; i < 6; i++) {
      out[i] = v.get(i % v.size());
    }
    return out;
  }
}
