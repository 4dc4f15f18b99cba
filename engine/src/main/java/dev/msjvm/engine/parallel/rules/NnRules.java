package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.tensor.AdaptivePooling;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Convolution and pooling on NCHW tensors (conv2d_info.cc, maxpool_info.cc, avgpool_info.cc) and
 * the grad operators their gradients emit. The batch and channel dims split; H and W stay whole.
 *
 * <ul>
 *   <li>Conv2D {@code nihw,oi__->nohw}, device matrix MindSpore's {@code (n, i, h, w, o)}: a split
 *       c-in makes the output partial (AllReduce SUM).
 *   <li>Conv2DBackpropInput {@code nohw,oi__->nihw} (matrix {@code (n, o, h, w, i)}): a split c-out
 *       makes dx partial; its {@code input_shape} becomes the slice's.
 *   <li>Conv2DBackpropFilter {@code nohw,nihw->oi__}: the filter gradient sums over the images, so
 *       a split N makes it partial; its {@code filter_shape} becomes the slice's.
 *   <li>MaxPool/AvgPool {@code nchw->nchw} and their grads {@code nchw,nchw->nchw} (x, dy).
 *   <li>AdaptiveAvgPool2D {@code nchw->nchw} (or {@code chw->chw}) and its grad (x, dy).
 * </ul>
 *
 * <p>MindSpore also splits H and W: without communication where windows do not overlap (kernel with
 * dilation at most the stride), otherwise exchanging the overlapping rows with the neighbours
 * (NeighborExchangeV2). msjvm keeps H and W whole; a split is refused with MindSpore's text where
 * its Info refuses it too, else with the generic "can not be split" one.
 */
public final class NnRules {
  private NnRules() {}

  /** Conv2D (conv2d_info.cc). */
  public static ShardingRule conv2d() {
    return ShardingRule.of(NnRules::conv2d).checking(NnRules::conv2dCheck);
  }

  /** Conv2DBackpropInput: Conv2D's gradient for its input, {@code input_shape} the slice's. */
  public static ShardingRule conv2dBackpropInput() {
    return convGrad("nohw,oi__->nihw", "o", "input_shape")
        .checking(NnRules::conv2dBackpropInputCheck);
  }

  /** Conv2DBackpropFilter: partial over the batch, {@code filter_shape} the slice's. */
  public static ShardingRule conv2dBackpropFilter() {
    return convGrad("nohw,nihw->oi__", "n", "filter_shape");
  }

  /** MaxPool, AvgPool: the window dims stay whole. */
  public static ShardingRule pooling() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              Shape x = shapes.get(0);
              int[] kernel = pair(attrs, "kernel_size");
              int[] strides = pair(attrs, "strides");
              int[] out = {x.dim(0), x.dim(1), 0, 0};
              for (int a = 0; a < 2; a++) {
                out[2 + a] = outSize(padMode(attrs, "VALID"), x.dim(2 + a), kernel[a], strides[a]);
              }
              return EinsumSpec.parse("nchw->nchw")
                  .unsplit("hw")
                  .outputShapes(List.of(Shape.of(out)));
            })
        .checking(NnRules::poolingCheck);
  }

  /**
   * AdaptiveAvgPool2D on NCHW ({@code nchw->nchw}) or CHW ({@code chw->chw}): the bins span whole
   * planes, so H and W stay whole; the output's H and W are {@code output_size}'s.
   */
  public static ShardingRule adaptivePooling() {
    return ShardingRule.of(
        (attrs, shapes) ->
            EinsumSpec.parse(planes(shapes.get(0)) + "->" + planes(shapes.get(0)))
                .unsplit("hw")
                .outputShapes(
                    List.of(
                        AdaptivePooling.outputShape(shapes.get(0), attrs.ints("output_size")))));
  }

  /** AdaptiveAvgPool2DGrad(x, dy): laid out as x, the planes whole. */
  public static ShardingRule adaptivePoolingGrad() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String x = planes(shapes.get(0));
          return EinsumSpec.parse(x + "," + x + "->" + x).unsplit("hw");
        });
  }

  private static String planes(Shape x) {
    return x.rank() == 4 ? "nchw" : "chw";
  }

  /**
   * MaxPoolWithArgmax: the batch alone may split (the argmax indices count channels within a
   * sample, so a channel split would change them); both outputs are laid out alike.
   */
  public static ShardingRule poolingWithArgmax() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          Shape x = shapes.get(0);
          int[] kernel = pair(attrs, "kernel_size");
          int[] strides = pair(attrs, "strides");
          int[] out = {x.dim(0), x.dim(1), 0, 0};
          for (int a = 0; a < 2; a++) {
            out[2 + a] = outSize(padMode(attrs, "VALID"), x.dim(2 + a), kernel[a], strides[a]);
          }
          return EinsumSpec.parse("nchw->nchw,nchw")
              .unsplit("chw")
              .outputShapes(List.of(Shape.of(out), Shape.of(out)));
        });
  }

  /** MaxPoolGradWithArgmax: x, the gradient and the argmax split along the batch alone. */
  public static ShardingRule poolingGradWithArgmax() {
    return ShardingRule.of(
        (attrs, shapes) ->
            EinsumSpec.parse("nchw,nchw,nchw->nchw")
                .unsplit("chw")
                .outputShapes(List.of(shapes.get(0))));
  }

  /**
   * ResizeBilinearV2 (its rule without neighbour exchange): batch and channels split, the image
   * dims whole; its gradient ({@code grads, image}) alike.
   */
  public static ShardingRule resize(boolean grad) {
    return ShardingRule.of(
        (attrs, shapes) -> {
          Shape x = shapes.get(grad ? 1 : 0);
          List<Integer> size = grad ? null : attrs.ints("size");
          Shape out = grad ? x : Shape.of(x.dim(0), x.dim(1), size.get(0), size.get(1));
          return EinsumSpec.parse(grad ? "nchw,ncij->ncij" : "nchw->nchw")
              .unsplit(grad ? "hwij" : "hw")
              .outputShapes(List.of(out));
        });
  }

  /** MaxPoolGrad, AvgPoolGrad. */
  public static ShardingRule poolingGrad() {
    return ShardingRule.of(NnRules::poolingGrad);
  }

  static EinsumSpec conv2d(Attrs attrs, List<Shape> shapes) {
    Shape x = shapes.get(0);
    Shape w = shapes.get(1);
    int[] stride = pair(attrs, "stride");
    int[] pad = pads(attrs);
    int[] out = {x.dim(0), w.dim(0), 0, 0};
    for (int a = 0; a < 2; a++) {
      int in = x.dim(2 + a) + pad[2 * a] + pad[2 * a + 1];
      out[2 + a] = outSize(padMode(attrs, "valid"), in, extent(attrs, w, a), stride[a]);
    }
    return EinsumSpec.parse("nihw,oi__->nohw")
        .unsplit("hw")
        .reduce("i", PartialOp.SUM)
        .outputShapes(List.of(Shape.of(out)));
  }

  /**
   * A convolution gradient {@code form} whose output shape is the attribute {@code shapeAttr}
   * (localised to the slice) and which sums over the letter {@code summed}.
   */
  private static ShardingRule convGrad(String form, String summed, String shapeAttr) {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse(form)
                    .unsplit("hw")
                    .reduce(summed, PartialOp.SUM)
                    .outputShapes(List.of(new Shape(attrs.ints(shapeAttr)))))
        .localizing(ShardingRule.outputShapeAttr(shapeAttr));
  }

  /** MaxPoolGrad/AvgPoolGrad(x, dy): dy's H and W are the pooled ones, whole like x's. */
  static EinsumSpec poolingGrad(Attrs attrs, List<Shape> shapes) {
    return EinsumSpec.parse("nchw,nchw->nchw").unsplit("hw");
  }

  /** Conv2DInfo::CheckStrategy: CheckStrategyBase, equal c-in splits, CheckHWStrategy. */
  private static String conv2dCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    return convCheck(
        spec,
        s,
        "c-in",
        1,
        () ->
            switch (padMode(attrs, "valid")) {
              case "pad" -> "The 'pad' mode do not support to split H or W";
              case "valid" -> conv2dValidCheck(attrs, s.get(0), shapes.get(0), shapes.get(1));
              // 'same': MindSpore's per-dimension checks are not mirrored (generic refusal).
              default -> null;
            });
  }

  /** Conv2DInfo::CheckHWStrategyValidMode. */
  private static String conv2dValidCheck(Attrs attrs, List<Integer> x, Shape xShape, Shape w) {
    int[] stride = pair(attrs, "stride");
    for (int a = 0; a < 2; a++) {
      if (extent(attrs, w, a) > stride[a] && x.get(2 + a) > 1) {
        return "The 'valid' mode do not support to split H or W when kernel_size_use_dilation_ >"
            + " stride";
      }
    }
    for (int a = 0; a < 2; a++) {
      int slice = xShape.dim(2 + a) / x.get(2 + a);
      if (extent(attrs, w, a) <= stride[a] && slice % stride[a] != 0) {
        return "The 'valid' mode do not support to split "
            + "HW".charAt(a)
            + " when kernel_size_use_dilation_ <= stride but slice shape is not divisible by"
            + " stride ";
      }
    }
    return null;
  }

  /** Conv2DBackpropInputInfo::CheckStrategy: as Conv2D's with c-out, then its CheckHWStrategy. */
  private static String conv2dBackpropInputCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    return convCheck(
        spec,
        s,
        "c-out",
        0,
        () -> {
          String mode = padMode(attrs, "valid");
          if (!mode.equals("same")) {
            // MindSpore's pad_mode numbers: pad 0, same 1, valid 2.
            return "Do not support the pad mode "
                + (mode.equals("pad") ? 0 : 2)
                + " when split H or W dimension";
          }
          int[] stride = pair(attrs, "stride");
          Shape dx = spec.outputShapes().get(0);
          for (int a = 0; a < 2; a++) {
            if (s.get(0).get(2 + a) > 1 && shapes.get(0).dim(2 + a) * stride[a] != dx.dim(2 + a)) {
              return "Do not support to split "
                  + "hw".charAt(a)
                  + " dimension when in_shape * stride != out_shape";
            }
          }
          return null;
        });
  }

  /**
   * The checks Conv2D and Conv2DBackpropInput share: the kernel dims of the weight unsplit, the
   * channel the two inputs share ({@code channel}, weight dim {@code weightDim}) split alike, then
   * {@link #hwCheck}.
   */
  private static String convCheck(
      EinsumSpec spec,
      List<List<Integer>> s,
      String channel,
      int weightDim,
      Supplier<String> modeChecks) {
    List<Integer> x = s.get(0);
    List<Integer> w = s.get(1);
    if (w.get(2) != 1 || w.get(3) != 1) {
      return "The kernel size can not be split, but the strategy for kernel size is ("
          + w.get(2)
          + ", "
          + w.get(3)
          + ")";
    }
    if (!x.get(1).equals(w.get(weightDim))) {
      return "The shard num of "
          + channel
          + " for input strategy is "
          + x.get(1)
          + ", but the shard num of "
          + channel
          + " for weight strategy is "
          + w.get(weightDim);
    }
    return hwCheck(spec, x, modeChecks);
  }

  /** AvgPoolInfo::CheckHWStrategy (MaxPoolInfo's is the same). */
  private static String poolingCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    List<Integer> x = s.get(0);
    int[] kernel = pair(attrs, "kernel_size");
    int[] strides = pair(attrs, "strides");
    return hwCheck(
        spec,
        x,
        () -> {
          for (int a = 0; a < 2; a++) {
            String dim = "HW".substring(a, a + 1);
            if (x.get(2 + a) > 1 && kernel[a] > strides[a]) {
              return "It does not support to split " + dim + " dimension when kernel_size > stride";
            }
            if (x.get(2 + a) > 1 && shapes.get(0).dim(2 + a) / x.get(2 + a) % strides[a] != 0) {
              return "It does not support to split "
                  + dim
                  + " dimension when kernel_size <= stride but slice shape is not divisible by"
                  + " stride ";
            }
          }
          return null;
        });
  }

  /**
   * Where H or W of {@code x} is split: CheckHWStrategyBase (the output's H and W divide by their
   * splits), then the op's own {@code modeChecks}. Null (no MindSpore refusal) leaves the split to
   * the generic refusal of unsplit letters.
   */
  private static String hwCheck(EinsumSpec spec, List<Integer> x, Supplier<String> modeChecks) {
    if (x.get(2) == 1 && x.get(3) == 1) {
      return null;
    }
    Shape out = spec.outputShapes().get(0);
    for (int a = 0; a < 2; a++) {
      if (out.dim(2 + a) % x.get(2 + a) != 0) {
        char d = "hw".charAt(a);
        return "Do not support to split "
            + d
            + " dimension when out_shape of "
            + d
            + " dimension is not divisible by strategy of "
            + d
            + " dimension";
      }
    }
    return modeChecks.get();
  }

  /** Output length of a window sliding over {@code in} (padding included) with {@code stride}. */
  private static int outSize(String padMode, int in, int extent, int stride) {
    return padMode.equalsIgnoreCase("same")
        ? Math.ceilDiv(in, stride)
        : Math.floorDiv(in - extent, stride) + 1;
  }

  /** A conv kernel's reach along H ({@code a = 0}) or W: {@code dilation * (k - 1) + 1}. */
  private static int extent(Attrs attrs, Shape w, int a) {
    return pair(attrs, "dilation")[a] * (w.dim(2 + a) - 1) + 1;
  }

  /** A window attribute's {@code (h, w)}: from an int, {@code (h, w)} or {@code (1, 1, h, w)}. */
  private static int[] pair(Attrs attrs, String name) {
    List<Integer> v = attrs.ints(name);
    return new int[] {v.get(Math.max(0, v.size() - 2)), v.getLast()};
  }

  /** Conv2D's {@code pad} as (top, bottom, left, right); zeros unless the pad mode is "pad". */
  private static int[] pads(Attrs attrs) {
    if (!attrs.has("pad") || !padMode(attrs, "valid").equals("pad")) {
      return new int[4];
    }
    List<Integer> v = attrs.ints("pad"); // one int for all four sides, or four
    int[] out = new int[4];
    for (int i = 0; i < 4; i++) {
      out[i] = v.get(i % v.size());
    }
    return out;
  }

  private static String padMode(Attrs attrs, String otherwise) {
    return (attrs.has("pad_mode") ? attrs.string("pad_mode") : otherwise).toLowerCase(Locale.ROOT);
  }
}
