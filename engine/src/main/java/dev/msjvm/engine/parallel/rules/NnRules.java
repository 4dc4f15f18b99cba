package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import dev.msjvm.engine.tensor.AdaptivePooling;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Convolution and pooling on NCHW tensors (conv2d_info.cc, maxpool_info.cc, avgpool_info.cc) and
 * the grad operators their gradients emit. The batch and channel dims split; a convolution's H and
 * W split too ({@link ConvHalo}), a pooling's where its windows do not overlap.
 *
 * <ul>
 *   <li>Conv2D {@code nihw,oi__->nohw}, device matrix MindSpore's {@code (n, i, h, w, o)}: a split
 *       c-in makes the output partial (AllReduce SUM).
 *   <li>Conv2DBackpropInput {@code nohw,oi__->nihw} (matrix {@code (n, o, h, w, i)}): a split c-out
 *       makes dx partial; its {@code input_shape} becomes the slice's (framed by the halo where H
 *       or W exchanges).
 *   <li>Conv2DBackpropFilter {@code nohw,nihw->oi__}: the filter gradient sums over the images and
 *       image blocks, so a split N, H or W makes it partial; its {@code filter_shape} becomes the
 *       slice's.
 *   <li>MaxPool/AvgPool {@code nchw->nchw} and their grads {@code nchw,nchw->nchw} (x, dy): H and W
 *       split where windows do not overlap and slices hold whole strides.
 *   <li>AdaptiveAvgPool2D {@code nchw->nchw} (or {@code chw->chw}) and its grad (x, dy).
 * </ul>
 *
 * <p>A convolution's H and W split as MindSpore splits them: without communication where windows do
 * not overlap (kernel with dilation at most the stride), otherwise exchanging the overlapping rows
 * and columns with the neighbours (NeighborExchangeV2) before the Conv2D and the filter gradient,
 * and sending the input gradient's frame back after it. MaxPool and AvgPool split H and W only
 * where MindSpore does without exchanging (kernel at most the stride); adaptive pooling keeps them
 * whole. A split is refused with MindSpore's text where its Info refuses it too, else with the
 * generic "can not be split" one.
 */
public final class NnRules {
  private NnRules() {}

  /**
   * PReLU(x, weight) (PReLUInfo): x splits freely; the weight splits as x's channel dim (dim 1), or
   * stays whole when it has one element for every channel.
   */
  public static ShardingRule prelu() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String x = Letters.run('a', shapes.get(0).rank());
          boolean perChannel = x.length() >= 2 && shapes.get(1).dim(0) == shapes.get(0).dim(1);
          String w = perChannel ? x.substring(1, 2) : String.valueOf(EinsumSpec.FRESH);
          return EinsumSpec.parse(x + "," + w + "->" + x);
        });
  }

  /**
   * Conv2D (conv2d_info.cc). H and W split as MindSpore splits them: in mode "valid" only where
   * windows do not overlap, in "same" and "pad" with each rank's overlapping rows and columns
   * exchanged with its neighbours before the kernel ({@link ConvHalo}).
   */
  public static ShardingRule conv2d() {
    return ShardingRule.of(NnRules::conv2d)
        .checking(NnRules::conv2dCheck)
        .localizing(
            (attrs, s, rank) ->
                forwardHalo(attrs, s).localAttrs(attrs, s.inputLayouts().get(0), rank))
        .lowering(
            (attrs, s, rank) ->
                NodeSharding.Lowering.input(
                    0, forwardHalo(attrs, s).exchangeAttrs(s.inputLayouts().get(0), rank)))
        .offering(NnRules::wholeImages);
  }

  /**
   * Conv2DBackpropInput, the gradient of a Conv2D for its input ({@code input_shape}): with H or W
   * split, each rank computes the gradient of its exchanged (framed) input and sends the frame back
   * to the neighbours it came from (NeighborExchangeV2Grad), so it partitions like the Conv2D it
   * differentiates.
   */
  public static ShardingRule conv2dBackpropInput() {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("nohw,oi__->nihw")
                    .reduce("o", PartialOp.SUM)
                    .outputShapes(List.of(new Shape(attrs.ints("input_shape")))))
        .checking(NnRules::conv2dBackpropInputCheck)
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout dx = s.outputLayouts().get(0);
              ConvHalo halo = inputGradHalo(attrs, s);
              return halo.localAttrs(attrs, dx, rank)
                  .with("input_shape", Shape.of(halo.framedShape(dx, rank)).dims());
            })
        .lowering(
            (attrs, s, rank) ->
                NodeSharding.Lowering.output(
                    0, inputGradHalo(attrs, s).exchangeAttrs(s.outputLayouts().get(0), rank)))
        .offering(NnRules::wholeImages);
  }

  /**
   * Conv2DBackpropFilter: the filter gradient sums over the images and, with H or W split, over the
   * image blocks (partial over n, h and w; {@code filter_shape} the slice's); a split image is
   * exchanged with its neighbours first, as the forward Conv2D's input was.
   */
  public static ShardingRule conv2dBackpropFilter() {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("nohw,nihw->oi__")
                    .reduce("nhw", PartialOp.SUM)
                    .outputShapes(List.of(new Shape(attrs.ints("filter_shape")))))
        .checking(
            (attrs, spec, s, shapes, n) ->
                convHalo(
                        attrs,
                        shapes.get(1),
                        new Shape(attrs.ints("filter_shape")),
                        shapes.get(0),
                        s.get(1))
                    .problem())
        .localizing(
            (attrs, s, rank) ->
                filterGradHalo(attrs, s)
                    .localAttrs(
                        ShardingRule.outputShapeAttr("filter_shape").local(attrs, s, rank),
                        s.inputLayouts().get(1),
                        rank))
        .lowering(
            (attrs, s, rank) ->
                NodeSharding.Lowering.input(
                    1, filterGradHalo(attrs, s).exchangeAttrs(s.inputLayouts().get(1), rank)))
        .offering(strategy -> strategy.get(1).get(2) == 1 && strategy.get(1).get(3) == 1);
  }

  /** A strategy leaving input 0's H and W whole (what a strategy search is offered). */
  private static boolean wholeImages(List<List<Integer>> strategy) {
    return strategy.get(0).get(2) == 1 && strategy.get(0).get(3) == 1;
  }

  /**
   * The forward Conv2D's halo plan, from its input {@code x}'s layout, weight and output shapes.
   */
  private static ConvHalo halo(Attrs attrs, TensorLayout x, Shape w, Shape out) {
    return convHalo(attrs, x.shape(), w, out, x.strategy());
  }

  /** The halo plan of a Conv2D (x, w -> y). */
  private static ConvHalo forwardHalo(Attrs attrs, OpSharding s) {
    return halo(
        attrs,
        s.inputLayouts().get(0),
        s.inputLayouts().get(1).shape(),
        s.outputLayouts().get(0).shape());
  }

  /** The forward Conv2D's halo plan seen from its input gradient (dy, w -> dx). */
  private static ConvHalo inputGradHalo(Attrs attrs, OpSharding s) {
    return halo(
        attrs,
        s.outputLayouts().get(0),
        s.inputLayouts().get(1).shape(),
        s.inputLayouts().get(0).shape());
  }

  /** The forward Conv2D's halo plan seen from its filter gradient (dy, x -> dw). */
  private static ConvHalo filterGradHalo(Attrs attrs, OpSharding s) {
    return halo(
        attrs,
        s.inputLayouts().get(1),
        new Shape(attrs.ints("filter_shape")),
        s.inputLayouts().get(0).shape());
  }

  private static ConvHalo convHalo(Attrs attrs, Shape x, Shape w, Shape out, List<Integer> split) {
    return ConvHalo.of(attrs, x, w, out, split.get(2), split.get(3));
  }

  /** MaxPool, AvgPool: H and W split where windows do not overlap ({@link #poolingHwCheck}). */
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
              return EinsumSpec.parse("nchw->nchw").outputShapes(List.of(Shape.of(out)));
            })
        .checking(NnRules::poolingCheck)
        .offering(NnRules::wholeImages);
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
    return ShardingRule.of(NnRules::poolingGrad)
        .checking(
            (attrs, spec, s, shapes, n) ->
                poolingHwCheck(attrs, s.get(0), shapes.get(0), shapes.get(1)))
        .offering(NnRules::wholeImages);
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
        .reduce("i", PartialOp.SUM)
        .outputShapes(List.of(Shape.of(out)));
  }

  /**
   * MaxPoolGrad/AvgPoolGrad(x, dy): dy's H and W are the pooled ones; they split with x's where the
   * forward pooling may split them (windows that do not overlap).
   */
  static EinsumSpec poolingGrad(Attrs attrs, List<Shape> shapes) {
    return EinsumSpec.parse("nchw,nchw->nchw");
  }

  /** Conv2DInfo::CheckStrategy: CheckStrategyBase, equal c-in splits, CheckHWStrategy. */
  private static String conv2dCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    return convCheck(
        attrs,
        spec.outputShapes().get(0),
        s,
        "c-in",
        1,
        () ->
            padMode(attrs, "valid").equals("valid")
                ? conv2dValidCheck(attrs, s.get(0), shapes.get(0), shapes.get(1))
                : convHalo(
                        attrs, shapes.get(0), shapes.get(1), spec.outputShapes().get(0), s.get(0))
                    .problem());
  }

  /** Conv2DInfo::CheckHWStrategyValidMode. */
  private static String conv2dValidCheck(Attrs attrs, List<Integer> x, Shape xShape, Shape w) {
    int[] stride = pair(attrs, "stride");
    for (int a = 0; a < 2; a++) {
      if (extent(attrs, w, a) > stride[a] && x.get(2 + a) > 1) {
        return "The 'valid' mode do not support to split 2th or 3th dimension when"
            + " kernel_size_use_dilation_ > stride";
      }
    }
    for (int a = 0; a < 2; a++) {
      int slice = xShape.dim(2 + a) / x.get(2 + a);
      if (extent(attrs, w, a) <= stride[a] && slice % stride[a] != 0) {
        return "The 'valid' mode do not support to split "
            + (2 + a)
            + "th when kernel_size_use_dilation_ <= stride but slice shape is not divisible by"
            + " stride ";
      }
    }
    return null;
  }

  /**
   * Conv2DBackpropInput as a Conv2D's input gradient: Conv2DInfo's checks of the forward call (dy's
   * splits are its output's, {@code input_shape} its input's), with c-out for the channel dy and
   * the weight share. (MindSpore's Conv2DBackpropInputInfo, for a Conv2DTranspose a script calls,
   * splits H and W its own way; msjvm partitions every Conv2DBackpropInput as a gradient.)
   */
  private static String conv2dBackpropInputCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    Shape dx = spec.outputShapes().get(0);
    return convCheck(
        attrs,
        shapes.get(0),
        s,
        "c-out",
        0,
        () ->
            padMode(attrs, "valid").equals("valid")
                ? conv2dValidCheck(attrs, s.get(0), dx, shapes.get(1))
                : convHalo(attrs, dx, shapes.get(1), shapes.get(0), s.get(0)).problem());
  }

  /**
   * The checks Conv2D and Conv2DBackpropInput share: a stride of (1, 1, h, w), a grouped
   * convolution's channels whole, the kernel dims of the weight unsplit, the channel the two inputs
   * share ({@code channel}, weight dim {@code weightDim}) split alike, then {@link #hwCheck}.
   */
  private static String convCheck(
      Attrs attrs,
      Shape out,
      List<List<Integer>> s,
      String channel,
      int weightDim,
      Supplier<String> modeChecks) {
    List<Integer> x = s.get(0);
    List<Integer> w = s.get(1);
    List<Integer> stride = attrs.ints("stride");
    if (stride.size() == 4 && (stride.get(0) != 1 || stride.get(1) != 1)) {
      // Conv2DInfo::CheckAttrsBase
      return "The first two elements of stride must be 1, but got ("
          + stride.get(0)
          + ", "
          + stride.get(1)
          + ")";
    }
    int group = attrs.has("group") ? attrs.integer("group") : 1;
    if (group != 1 && (w.get(0) != 1 || w.get(1) != 1)) {
      return "The group is "
          + group
          + ", the cout and cin can not be split, but the shard num of cout is "
          + w.get(0)
          + ", the shard num of cin is "
          + w.get(1);
    }
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
    return hwCheck(out, x, "2th", "3th", modeChecks);
  }

  /** AvgPoolInfo::CheckHWStrategy (MaxPoolInfo's is the same). */
  private static String poolingCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    return poolingHwCheck(attrs, s.get(0), shapes.get(0), spec.outputShapes().get(0));
  }

  /**
   * A pooling of {@code xShape} into {@code out} split {@code x}: the output's H and W divide by
   * their splits, windows do not overlap and each slice is a whole number of strides (then every
   * rank pools its own slice, no communication).
   */
  private static String poolingHwCheck(Attrs attrs, List<Integer> x, Shape xShape, Shape out) {
    int[] kernel = pair(attrs, "kernel_size");
    int[] strides = pair(attrs, "strides");
    return hwCheck(
        out,
        x,
        "h",
        "w",
        () -> {
          for (int a = 0; a < 2; a++) {
            String dim = "HW".substring(a, a + 1);
            if (x.get(2 + a) > 1 && kernel[a] > strides[a]) {
              return "It does not support to split " + dim + " dimension when kernel_size > stride";
            }
            if (x.get(2 + a) > 1 && xShape.dim(2 + a) / x.get(2 + a) % strides[a] != 0) {
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
  private static String hwCheck(
      Shape out, List<Integer> x, String h, String w, Supplier<String> modeChecks) {
    if (x.get(2) == 1 && x.get(3) == 1) {
      return null;
    }
    for (int a = 0; a < 2; a++) {
      if (out.dim(2 + a) % x.get(2 + a) != 0) {
        String d = a == 0 ? h : w;
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
  static int extent(Attrs attrs, Shape w, int a) {
    return pair(attrs, "dilation")[a] * (w.dim(2 + a) - 1) + 1;
  }

  /** A window attribute's {@code (h, w)}: from an int, {@code (h, w)} or {@code (1, 1, h, w)}. */
  static int[] pair(Attrs attrs, String name) {
    List<Integer> v = attrs.ints(name);
    return new int[] {v.get(Math.max(0, v.size() - 2)), v.getLast()};
  }

  /** Conv2D's {@code pad} as (top, bottom, left, right); zeros unless the pad mode is "pad". */
  static int[] pads(Attrs attrs) {
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

  static String padMode(Attrs attrs, String otherwise) {
    return (attrs.has("pad_mode") ? attrs.string("pad_mode") : otherwise).toLowerCase(Locale.ROOT);
  }
}
