package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.ops.Window3d;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.List;
import java.util.Map;

/**
 * Conv3D and MaxPool3D on NCDHW tensors (MindSpore's conv3d_info.cc and max_avg_pool_3d_info.cc)
 * and the gradient operators their gradients emit. Batch and channels split; D and H split as
 * Conv2D's H and W do (without communication where windows do not overlap, else exchanging each
 * rank's overlapping planes and rows with its neighbours: {@link ConvHalo} over dims 2 and 3, the
 * exchange carrying W along); W stays whole.
 *
 * <ul>
 *   <li>Conv3D {@code nidhw,oi___->nodhw}, device matrix MindSpore's {@code (n, i, d, h, o)} (W
 *       whole): a split c-in makes the output partial.
 *   <li>Conv3DBackpropInput {@code nodhw,oi___->nidhw} (dy, w; {@code input_shape}) and
 *       Conv3DBackpropFilter {@code nodhw,nidhw->oi___} (dy, x; {@code filter_shape}), partitioned
 *       like the Conv3D they differentiate.
 *   <li>MaxPool3D {@code ncdhw->ncdhw} and MaxPool3DGrad {@code ncdhw,ncdhw->ncdhw} (x, dy): the
 *       gradient exchanges x as the forward did and sends the framed input gradient's frame back.
 * </ul>
 */
public final class Nn3dRules {
  private Nn3dRules() {}

  /** Conv3D (Conv3DInfo: Conv2DInfo's checks on D and H, the last dimension whole). */
  public static ShardingRule conv3d() {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("nidhw,oi___->nodhw")
                    .reduce("i", PartialOp.SUM)
                    .outputShapes(
                        List.of(
                            Window3d.conv3d(attrs, shapes.get(0), shapes.get(1))
                                .outShape(shapes.get(0).dim(0), shapes.get(1).dim(0)))))
        .checking(
            (attrs, spec, s, shapes, n) ->
                convCheck(
                    attrs,
                    Window3d.conv3d(attrs, shapes.get(0), shapes.get(1)),
                    shapes.get(0),
                    spec.outputShapes().get(0),
                    s,
                    "c-in",
                    1))
        .localizing(
            (attrs, s, rank) ->
                localConv(
                        attrs,
                        convWindow(attrs, s.inputLayouts().get(0), s.inputLayouts().get(1).shape()),
                        forwardHalo(attrs, s),
                        s.inputLayouts().get(0),
                        rank)
                    .with("out_channel", s.inputLayouts().get(1).sliceShape().dim(0)))
        .lowering(
            (attrs, s, rank) ->
                NodeSharding.Lowering.input(
                    0, forwardHalo(attrs, s).exchangeAttrs(s.inputLayouts().get(0), rank)))
        .offering(Nn3dRules::wholeVolumes);
  }

  /** Conv3DBackpropInput(dy, w), the gradient of a Conv3D for its input. */
  public static ShardingRule conv3dBackpropInput() {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("nodhw,oi___->nidhw")
                    .reduce("o", PartialOp.SUM)
                    .outputShapes(List.of(new Shape(attrs.ints("input_shape")))))
        .checking(
            (attrs, spec, s, shapes, n) -> {
              Shape x = spec.outputShapes().get(0);
              return convCheck(
                  attrs, Window3d.conv3d(attrs, x, shapes.get(1)), x, shapes.get(0), s, "c-out", 0);
            })
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout dx = s.outputLayouts().get(0);
              ConvHalo halo = inputGradHalo(attrs, s);
              return localConv(
                      attrs, convWindow(attrs, dx, s.inputLayouts().get(1).shape()), halo, dx, rank)
                  .with("input_shape", Shape.of(halo.framedShape(dx, rank)).dims());
            })
        .lowering(
            (attrs, s, rank) ->
                NodeSharding.Lowering.output(
                    0, inputGradHalo(attrs, s).exchangeAttrs(s.outputLayouts().get(0), rank)))
        .offering(Nn3dRules::wholeVolumes);
  }

  /** Conv3DBackpropFilter(dy, x): partial over the images and the image blocks. */
  public static ShardingRule conv3dBackpropFilter() {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("nodhw,nidhw->oi___")
                    .reduce("ndhw", PartialOp.SUM)
                    .outputShapes(List.of(new Shape(attrs.ints("filter_shape")))))
        .checking(
            (attrs, spec, s, shapes, n) -> {
              Shape w = new Shape(attrs.ints("filter_shape"));
              List<Integer> x = s.get(1);
              if (x.get(4) != 1) {
                return lastDimSplit(x);
              }
              return hwCheck(
                  Window3d.conv3d(attrs, shapes.get(1), w),
                  shapes.get(1),
                  shapes.get(0),
                  x,
                  "kernel_size_use_dilation_ ");
            })
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(1);
              Shape w = new Shape(attrs.ints("filter_shape"));
              return localConv(
                  ShardingRule.outputShapeAttr("filter_shape").local(attrs, s, rank),
                  convWindow(attrs, x, w),
                  filterGradHalo(attrs, s),
                  x,
                  rank);
            })
        .lowering(
            (attrs, s, rank) ->
                NodeSharding.Lowering.input(
                    1, filterGradHalo(attrs, s).exchangeAttrs(s.inputLayouts().get(1), rank)))
        .offering(strategy -> wholeVolume(strategy.get(1)));
  }

  /** MaxPool3D (MaxPool3DInfo). */
  public static ShardingRule maxPool3d() {
    return poolForward("MaxPool3D");
  }

  /** AvgPool3D (AvgPool3DInfo, MaxPool3DInfo's checks and halo). */
  public static ShardingRule avgPool3d() {
    return poolForward("AvgPool3D");
  }

  /** A 3-D pooling {@code op}(x): D and H split with a halo, as Conv3D's input. */
  private static ShardingRule poolForward(String op) {
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("ncdhw->ncdhw")
                    .outputShapes(
                        List.of(
                            poolWindow(op, attrs, shapes.get(0))
                                .outShape(shapes.get(0).dim(0), shapes.get(0).dim(1)))))
        .checking(
            (attrs, spec, s, shapes, n) ->
                poolCheck(
                    poolWindow(op, attrs, shapes.get(0)),
                    shapes.get(0),
                    spec.outputShapes().get(0),
                    s.get(0)))
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              return localPool(op, attrs, poolHalo(op, attrs, x), x, rank);
            })
        .lowering(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              return NodeSharding.Lowering.input(0, poolHalo(op, attrs, x).exchangeAttrs(x, rank));
            })
        .offering(Nn3dRules::wholeVolumes);
  }

  /**
   * MaxPool3DGrad(x, dy): x exchanged as the forward's input was, the framed input gradient's frame
   * sent back to the neighbours it belongs to.
   */
  public static ShardingRule maxPool3dGrad() {
    String op = "MaxPool3D";
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("ncdhw,ncdhw->ncdhw").outputShapes(List.of(shapes.get(0))))
        .checking(
            (attrs, spec, s, shapes, n) ->
                poolCheck(
                    poolWindow(op, attrs, shapes.get(0)), shapes.get(0), shapes.get(1), s.get(0)))
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              return localPool(op, attrs, poolHalo(op, attrs, x), x, rank);
            })
        .lowering(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              Attrs ex = poolHalo(op, attrs, x).exchangeAttrs(x, rank);
              return ex == null
                  ? NodeSharding.Lowering.NONE
                  : new NodeSharding.Lowering(Map.of(0, ex), Map.of(0, ex), null);
            })
        .offering(Nn3dRules::wholeVolumes);
  }

  /**
   * AvgPool3DGrad(dy) with {@code origin_input_shape}: the input gradient of the framed input
   * (shape and pads localized), its frame sent back to the neighbours it belongs to.
   */
  public static ShardingRule avgPool3dGrad() {
    String op = "AvgPool3D";
    return ShardingRule.of(
            (attrs, shapes) ->
                EinsumSpec.parse("ncdhw->ncdhw")
                    .outputShapes(List.of(new Shape(attrs.ints("origin_input_shape")))))
        .checking(
            (attrs, spec, s, shapes, n) -> {
              Shape x = spec.outputShapes().get(0);
              return poolCheck(poolWindow(op, attrs, x), x, shapes.get(0), s.get(0));
            })
        .localizing(
            (attrs, s, rank) -> {
              TensorLayout dx = s.outputLayouts().get(0);
              ConvHalo halo = poolHalo(op, attrs, dx);
              return localPool(op, attrs, halo, dx, rank)
                  .with("origin_input_shape", Shape.of(halo.framedShape(dx, rank)).dims());
            })
        .lowering(
            (attrs, s, rank) -> {
              TensorLayout dx = s.outputLayouts().get(0);
              return NodeSharding.Lowering.output(
                  0, poolHalo(op, attrs, dx).exchangeAttrs(dx, rank));
            })
        .offering(Nn3dRules::wholeVolumes);
  }

  private static Window3d poolWindow(String op, Attrs attrs, Shape x) {
    return op.equals("AvgPool3D")
        ? Window3d.avgPool3d(op, attrs, x)
        : Window3d.pool3d(op, attrs, x);
  }

  /** A strategy leaving input 0's D, H and W whole (what a strategy search is offered). */
  private static boolean wholeVolumes(List<List<Integer>> strategy) {
    return wholeVolume(strategy.get(0));
  }

  private static boolean wholeVolume(List<Integer> s) {
    return s.get(2) == 1 && s.get(3) == 1 && s.get(4) == 1;
  }

  /** The halo plan of a window op over {@code x} (global NCDHW) split {@code split}. */
  private static ConvHalo halo(Window3d g, Shape x, Shape out, List<Integer> split) {
    return halo(g, x, out, split, new boolean[3]);
  }

  private static ConvHalo halo(
      Window3d g, Shape x, Shape out, List<Integer> split, boolean[] ceil) {
    return ConvHalo.of(
        g.mode(),
        new int[] {g.extent()[0], g.extent()[1]},
        new int[] {g.stride()[0], g.stride()[1]},
        adjusted(g, x, ceil),
        x,
        out,
        split.get(2),
        split.get(3),
        "NCDHW");
  }

  /**
   * The D and H pads (head, tail, top, bottom) once AdjustPadList has trimmed, in mode "pad", the
   * trailing pads of the planes and rows the stride never reaches. With {@code ceil_mode} (a
   * pooling's) the tail is where the last window ends: longer than the pad where that window runs
   * past it, so that the halo of every slice is that of a window that fits.
   */
  private static int[] adjusted(Window3d g, Shape x, boolean[] ceil) {
    int[] p = g.pad();
    int[] out = {p[0], p[1], p[2], p[3]};
    for (int a = 0; a < 2; a++) {
      int in = x.dim(2 + a);
      if (ceil[a]) {
        out[2 * a + 1] = (g.out()[a] - 1) * g.stride()[a] + g.extent()[a] - in - p[2 * a];
      } else if (g.mode().equals("pad")) {
        out[2 * a + 1] = ConvHalo.trimmed(in, p[2 * a], p[2 * a + 1], g.extent()[a], g.stride()[a]);
      }
    }
    return out;
  }

  private static Window3d convWindow(Attrs attrs, TensorLayout x, Shape w) {
    return Window3d.conv3d(attrs, x.shape(), w);
  }

  /** The forward Conv3D's halo plan (x, w -> y). */
  private static ConvHalo forwardHalo(Attrs attrs, OpSharding s) {
    TensorLayout x = s.inputLayouts().get(0);
    return halo(
        convWindow(attrs, x, s.inputLayouts().get(1).shape()),
        x.shape(),
        s.outputLayouts().get(0).shape(),
        x.strategy());
  }

  /** The forward Conv3D's halo plan seen from its input gradient (dy, w -> dx). */
  private static ConvHalo inputGradHalo(Attrs attrs, OpSharding s) {
    TensorLayout dx = s.outputLayouts().get(0);
    return halo(
        convWindow(attrs, dx, s.inputLayouts().get(1).shape()),
        dx.shape(),
        s.inputLayouts().get(0).shape(),
        dx.strategy());
  }

  /** The forward Conv3D's halo plan seen from its filter gradient (dy, x -> dw). */
  private static ConvHalo filterGradHalo(Attrs attrs, OpSharding s) {
    TensorLayout x = s.inputLayouts().get(1);
    return halo(
        convWindow(attrs, x, new Shape(attrs.ints("filter_shape"))),
        x.shape(),
        s.inputLayouts().get(0).shape(),
        x.strategy());
  }

  private static ConvHalo poolHalo(String op, Attrs attrs, TensorLayout x) {
    Window3d g = poolWindow(op, attrs, x.shape());
    return halo(
        g,
        x.shape(),
        g.outShape(x.shape().dim(0), x.shape().dim(1)),
        x.strategy(),
        Window3d.ceilModes(attrs));
  }

  /**
   * A rank's Conv3D attributes: where D or H is split in mode "same" or "pad", pad mode "pad" with
   * the slice's own D and H pads and the global W pads.
   */
  private static Attrs localConv(Attrs attrs, Window3d g, ConvHalo halo, TensorLayout x, int rank) {
    if (!halo.repadded()) {
      return attrs;
    }
    int[] p = halo.localPads(x, rank);
    int[] all = g.pad();
    return attrs
        .with("pad_mode", "pad")
        .with("pad", List.of(p[0], p[1], p[2], p[3], all[4], all[5]));
  }

  /**
   * A rank's MaxPool3D or AvgPool3D attributes, as {@link #localConv} (MaxPool3DInfo's new pad
   * list).
   */
  private static Attrs localPool(String op, Attrs attrs, ConvHalo halo, TensorLayout x, int rank) {
    boolean[] ceil = Window3d.ceilModes(attrs);
    boolean rounds = ceil[0] || ceil[1] || ceil[2];
    if (!halo.repadded() && !rounds) {
      return attrs;
    }
    int[] p = halo.localPads(x, rank);
    int[] all = poolWindow(op, attrs, x.shape()).pad();
    Attrs local =
        attrs
            .with("pad_mode", "PAD")
            .with("pad_list", List.of(p[0], p[1], p[2], p[3], all[4], all[5]));
    if (!rounds) {
      return local;
    }
    // A split D or H rounds up only on its last slice, with the global tail pad; the other
    // slices' windows fit their framed slices exactly.
    List<Integer> flags = new java.util.ArrayList<>();
    int[] pads = {p[0], p[1], p[2], p[3], all[4], all[5]};
    for (int a = 0; a < 2; a++) {
      boolean last = ConvHalo.lastAlong(x, 2 + a, rank);
      if (ceil[a]) {
        // a slice before the last has no trailing pad (its halo plan's tail is the last window's)
        pads[2 * a + 1] = last ? all[2 * a + 1] : 0;
      }
      flags.add(ceil[a] && last ? 1 : 0);
    }
    flags.add(ceil[2] ? 1 : 0);
    return local
        .with("pad_list", java.util.Arrays.stream(pads).boxed().toList())
        .with("ceil_mode", flags);
  }

  /**
   * Conv3DInfo::CheckStrategy: the group's channels whole, the channel the two inputs share ({@code
   * channel}, weight dim {@code weightDim}) split alike, the kernel and the last input dimension
   * whole, then Conv2DInfo::CheckHWStrategy on D and H.
   */
  private static String convCheck(
      Attrs attrs,
      Window3d g,
      Shape x,
      Shape out,
      List<List<Integer>> s,
      String channel,
      int weightDim) {
    List<Integer> in = s.get(0);
    List<Integer> w = s.get(1);
    int group = attrs.has("groups") ? attrs.integer("groups") : 1;
    if (group != 1 && (w.get(0) != 1 || w.get(1) != 1)) {
      return "The group is "
          + group
          + ", the cout and cin can not be split, but the shard num of cout is "
          + w.get(0)
          + ", the shard num of cin is "
          + w.get(1);
    }
    if (!in.get(1).equals(w.get(weightDim))) {
      return "The shard num of "
          + channel
          + " for input strategy is "
          + in.get(1)
          + ", but the shard num of "
          + channel
          + " for weight strategy is "
          + w.get(weightDim);
    }
    if (w.get(2) != 1 || w.get(3) != 1 || w.get(4) != 1) {
      return "The kernel size can not be split, but the strategy for kernel size is ("
          + w.get(2)
          + ", "
          + w.get(3)
          + ", "
          + w.get(4)
          + ")";
    }
    if (in.get(4) != 1) {
      return lastDimSplit(in);
    }
    return hwCheck(g, x, out, in, "kernel_size_use_dilation_ ");
  }

  private static String lastDimSplit(List<Integer> in) {
    return "Do not support to split the last dimension of input, but the strategy for input is "
        + MsException.vector(in);
  }

  /** MaxPool3DInfo::CheckStrategy: the last input dimension whole, then CheckHWStrategy. */
  private static String poolCheck(Window3d g, Shape x, Shape out, List<Integer> in) {
    if (in.get(4) != 1) {
      return "Do not support to split the last dimension of input, but the strategy of input is ("
          + MsException.vector(in);
    }
    if (g.mode().equals("pad")) {
      for (int a = 0; a < 2; a++) {
        int useless =
            (x.dim(2 + a) + g.pad()[2 * a] + g.pad()[2 * a + 1] - g.extent()[a]) % g.stride()[a];
        if ((in.get(2) > 1 || in.get(3) > 1) && useless > g.pad()[2 * a + 1]) {
          return "The useless len for "
              + (2 + a)
              + "th dim ("
              + useless
              + ") can not larger than pad_list["
              + (2 * a + 1)
              + "] ("
              + g.pad()[2 * a + 1]
              + ")";
        }
      }
    }
    return hwCheck(g, x, out, in, "");
  }

  /**
   * Where D or H is split: the output's D and H divide by their splits (CheckHWStrategyBase), then
   * in mode "valid" windows do not overlap and slices hold whole strides, in "same" and "pad" the
   * halo plan's own checks.
   */
  private static String hwCheck(
      Window3d g, Shape x, Shape out, List<Integer> in, String kernelName) {
    if (in.get(2) == 1 && in.get(3) == 1) {
      return null;
    }
    for (int a = 0; a < 2; a++) {
      if (out.dim(2 + a) % in.get(2 + a) != 0) {
        String d = (2 + a) + "th";
        return "Do not support to split "
            + d
            + " dimension when out_shape of "
            + d
            + " dimension is not divisible by strategy of "
            + d
            + " dimension";
      }
    }
    if (g.mode().equals("valid")) {
      for (int a = 0; a < 2; a++) {
        if (g.extent()[a] > g.stride()[a] && in.get(2 + a) > 1) {
          return "The 'valid' mode do not support to split 2th or 3th dimension when "
              + (kernelName.isEmpty() ? "kernel_size " : kernelName)
              + "> stride";
        }
      }
      for (int a = 0; a < 2; a++) {
        int slice = x.dim(2 + a) / in.get(2 + a);
        if (g.extent()[a] <= g.stride()[a] && slice % g.stride()[a] != 0) {
          return "The 'valid' mode do not support to split "
              + (2 + a)
              + "th when "
              + (kernelName.isEmpty() ? "kernel_size " : kernelName)
              + "<= stride but slice shape is not divisible by stride ";
        }
      }
      return null;
    }
    return halo(g, x, out, in).problem();
  }
}
