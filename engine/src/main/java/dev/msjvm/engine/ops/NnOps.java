package dev.msjvm.engine.ops;

import static dev.msjvm.engine.ops.ElementwiseOps.one;

import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.ir.AbstractTensor;
import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.parallel.rules.ElementwiseRules;
import dev.msjvm.engine.parallel.rules.MatrixRules;
import dev.msjvm.engine.parallel.rules.NnRules;
import dev.msjvm.engine.parallel.rules.ReductionRules;
import dev.msjvm.engine.parallel.rules.ShardingRule;
import dev.msjvm.engine.tensor.AdaptivePooling;
import dev.msjvm.engine.tensor.BatchMatMul;
import dev.msjvm.engine.tensor.Convolution;
import dev.msjvm.engine.tensor.NnActivations;
import dev.msjvm.engine.tensor.NnLosses;
import dev.msjvm.engine.tensor.Normalization;
import dev.msjvm.engine.tensor.Pooling;
import dev.msjvm.engine.tensor.Resize;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Neural-network operators: BiasAdd, BatchMatMul, Conv2D, MaxPool/AvgPool/AdaptiveAvgPool2D,
 * BatchNorm, LayerNorm, GeLU, Dropout and the softmax cross-entropy losses, with the grad operators
 * their gradient rules emit (Conv2DBackpropInput/Filter, MaxPoolGrad, BatchNormGrad, ...).
 * Attribute names are MindSpore's ({@code pad_mode}, {@code kernel_size}, {@code strides}, {@code
 * epsilon}...); window attributes take MindSpore's 4-element {@code (1, 1, h, w)} or 2-element
 * forms.
 */
public final class NnOps {
  private NnOps() {}

  private static final Attrs NONE = Attrs.EMPTY;

  /** A window attribute as {@code (h, w)}: from an int, {@code (h, w)} or {@code (1, 1, h, w)}. */
  static int[] hw(Attrs a, String name) {
    List<Integer> v = a.ints(name);
    return switch (v.size()) {
      case 1 -> new int[] {v.get(0), v.get(0)};
      case 2 -> new int[] {v.get(0), v.get(1)};
      default -> new int[] {v.get(v.size() - 2), v.get(v.size() - 1)};
    };
  }

  /** ResizeBilinearV2's {@code size} as {@code (h, w)}. */
  private static int[] sizeAttr(Attrs a) {
    return a.ints("size").stream().mapToInt(Integer::intValue).toArray();
  }

  static int[] pad4(Attrs a) {
    if (!a.has("pad")) {
      return new int[4];
    }
    List<Integer> v = a.ints("pad");
    return v.size() == 1
        ? new int[] {v.get(0), v.get(0), v.get(0), v.get(0)}
        : new int[] {v.get(0), v.get(1), v.get(2), v.get(3)};
  }

  private static String padMode(Attrs a) {
    return a.has("pad_mode") ? a.string("pad_mode") : "valid";
  }

  private static Tensor conv(Kernel.Call c) {
    Attrs a = c.attrs();
    return Convolution.conv2d(
        c.in(0),
        c.in(1),
        padMode(a),
        pad4(a),
        hw(a, "stride"),
        hw(a, "dilation"),
        a.integer("group", 1),
        c.blas());
  }

  /** A pooling kernel: input, window {@code (h, w)}, strides {@code (h, w)}, pad mode. */
  private interface Pool {
    Tensor run(Tensor x, int[] kernel, int[] strides, String padMode);
  }

  /** The gradient kernel of a pooling: input, output gradient, then as {@link Pool}. */
  private interface PoolGrad {
    Tensor run(Tensor x, Tensor dy, int[] kernel, int[] strides, String padMode);
  }

  /** Pooling operator {@code name} and its {@code <name>Grad}, which gets the same attributes. */
  private static List<OpDef> pooling(String name, Pool pool, PoolGrad grad) {
    return List.of(
        OpDef.of(
                name,
                c ->
                    one(
                        pool.run(
                            c.in(0),
                            hw(c.attrs(), "kernel_size"),
                            hw(c.attrs(), "strides"),
                            padMode(c.attrs()))),
                g -> one(g.op(name + "Grad", g.attrs(), g.in(0), g.dout(0))))
            .infers(
                Infer.one(
                    (a, in) ->
                        Pooling.poolType(
                            name, in.get(0), hw(a, "kernel_size"), hw(a, "strides"), padMode(a))))
            .role(CostRole.GENERAL)
            .shards(NnRules.pooling()),
        OpDef.of(
                name + "Grad",
                c ->
                    one(
                        grad.run(
                            c.in(0),
                            c.in(1),
                            hw(c.attrs(), "kernel_size"),
                            hw(c.attrs(), "strides"),
                            padMode(c.attrs()))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        Pooling.poolGradType(
                            name + "Grad",
                            in.get(0),
                            in.get(1),
                            hw(a, "kernel_size"),
                            hw(a, "strides"),
                            padMode(a))))
            .role(CostRole.GENERAL)
            .shards(NnRules.poolingGrad()));
  }

  /**
   * BatchNorm's kernel ({@code x, scale, bias, moving_mean, moving_variance} -> {@code y,
   * batch_mean, batch_variance}), its statistics summed by {@code sums} (SyncBatchNorm's over a
   * group); in training the moving-statistics Parameters are updated in place, as MindSpore does.
   */
  public static Tensor[] batchNorm(Kernel.Call c, boolean training, Normalization.Sums sums) {
    Normalization.BatchNormResult r =
        Normalization.batchNorm(
            c.in(0),
            c.in(1),
            c.in(2),
            c.in(3),
            c.in(4),
            training,
            c.attrs().real("epsilon"),
            c.attrs().real("momentum"),
            true,
            sums);
    if (training) {
      c.var(3).set(r.movingMean());
      c.var(4).set(r.movingVariance());
    }
    return new Tensor[] {r.y(), r.batchMean(), r.batchVariance()};
  }

  /**
   * BatchNormGrad's kernel ({@code dy, x, scale, mean, variance} -> dx, dscale, dbias); a script's
   * SyncBatchNorm ({@code device_num} set) gives dscale/dbias averaged over its group.
   */
  public static Tensor[] batchNormGrad(Kernel.Call c, boolean training, Normalization.Sums sums) {
    Normalization.NormGrads r =
        Normalization.batchNormGrad(
            c.in(0),
            c.in(1),
            c.in(2),
            c.in(3),
            c.in(4),
            training,
            c.attrs().real("epsilon"),
            sums,
            1.0 / c.attrs().integer("device_num", 1));
    return new Tensor[] {r.dx(), r.dscale(), r.dbias()};
  }

  /** A convolution gradient's kernel: output gradient, other input, the shape it computes. */
  private interface ConvGradKernel {
    Tensor run(
        Tensor dy,
        Tensor other,
        Shape shape,
        String padMode,
        int[] pad,
        int[] stride,
        int[] dilation,
        int group,
        Blas blas);
  }

  /** A convolution gradient's inference, with the kernel's arguments. */
  private interface ConvGradType {
    AbstractTensor of(
        AbstractTensor dy,
        AbstractTensor other,
        Shape shape,
        String padMode,
        int[] pad,
        int[] stride,
        int[] dilation,
        int group);
  }

  /**
   * Conv2DBackpropInput or Conv2DBackpropFilter: Conv2D's attributes plus {@code shapeAttr}, the
   * shape of the input whose gradient it computes.
   */
  private static OpDef convGrad(
      String name, String shapeAttr, ConvGradKernel kernel, ConvGradType type, ShardingRule rule) {
    return convGrad(name, shapeAttr, kernel, type, rule, GradRule.UNDEFINED);
  }

  /**
   * The gradient of {@code Conv2DBackpropInput(dy, w)} (a Conv2DTranspose's forward): for {@code
   * dy} the Conv2D of the output gradient with {@code w}, for {@code w} the filter gradient of
   * {@code dy} against the output gradient (MindSpore's Conv2DTranspose bprop).
   */
  private static Tensor[] transposedGrad(GradRule.Call g) {
    Attrs conv = g.attrs().without(List.of("input_shape"));
    Tensor ddy = g.needs(0) ? g.op("Conv2D", conv, g.dout(0), g.in(1)) : null;
    Tensor dw =
        g.needs(1)
            ? g.op(
                "Conv2DBackpropFilter",
                conv.with("filter_shape", g.in(1).shape().dims()),
                g.in(0),
                g.dout(0))
            : null;
    return new Tensor[] {ddy, dw};
  }

  private static OpDef convGrad(
      String name,
      String shapeAttr,
      ConvGradKernel kernel,
      ConvGradType type,
      ShardingRule rule,
      GradRule grad) {
    return OpDef.of(
            name,
            c -> {
              Attrs a = c.attrs();
              return one(
                  kernel.run(
                      c.in(0),
                      c.in(1),
                      new Shape(a.ints(shapeAttr)),
                      padMode(a),
                      pad4(a),
                      hw(a, "stride"),
                      hw(a, "dilation"),
                      a.integer("group", 1),
                      c.blas()));
            },
            grad)
        .infers(
            Infer.one(
                (a, in) ->
                    type.of(
                        in.get(0),
                        in.get(1),
                        new Shape(a.ints(shapeAttr)),
                        padMode(a),
                        pad4(a),
                        hw(a, "stride"),
                        hw(a, "dilation"),
                        a.integer("group", 1))))
        .role(CostRole.GENERAL)
        .shards(rule);
  }

  static List<OpDef> defs() {
    List<OpDef> defs = new java.util.ArrayList<>(layerDefs());
    defs.add(
        OpDef.of(
                "MaxPoolWithArgmax",
                c ->
                    Pooling.maxPoolWithArgmax(
                        c.in(0),
                        hw(c.attrs(), "kernel_size"),
                        hw(c.attrs(), "strides"),
                        padMode(c.attrs())),
                g -> one(g.op("MaxPoolGradWithArgmax", g.attrs(), g.in(0), g.dout(0), g.out(1))))
            .infers(
                (a, in) ->
                    Pooling.maxPoolWithArgmaxType(
                        in.get(0), hw(a, "kernel_size"), hw(a, "strides"), padMode(a)))
            .role(CostRole.GENERAL)
            .shards(NnRules.poolingWithArgmax()));
    defs.add(
        OpDef.of(
                "MaxPoolGradWithArgmax",
                c ->
                    one(
                        Pooling.maxPoolGradWithArgmax(
                            c.in(0),
                            c.in(1),
                            c.in(2),
                            hw(c.attrs(), "kernel_size"),
                            hw(c.attrs(), "strides"),
                            padMode(c.attrs()))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        Pooling.poolGradType(
                            "MaxPoolGradWithArgmax",
                            in.get(0),
                            in.get(1),
                            hw(a, "kernel_size"),
                            hw(a, "strides"),
                            padMode(a))))
            .role(CostRole.GENERAL)
            .shards(NnRules.poolingGradWithArgmax()));
    defs.add(
        OpDef.of(
                "ResizeBilinearV2",
                c ->
                    one(
                        Resize.resizeBilinear(
                            c.in(0),
                            sizeAttr(c.attrs()),
                            c.attrs().bool("align_corners", false),
                            c.attrs().bool("half_pixel_centers", false))),
                g ->
                    one(
                        g.op(
                            "ResizeBilinearGrad",
                            Attrs.of(
                                "align_corners",
                                g.attrs().bool("align_corners", false),
                                "half_pixel_centers",
                                g.attrs().bool("half_pixel_centers", false)),
                            g.dout(0),
                            g.in(0))))
            .infers(
                Infer.one(
                    (a, in) ->
                        Resize.resizeBilinearType(
                            in.get(0),
                            sizeAttr(a),
                            a.bool("align_corners", false),
                            a.bool("half_pixel_centers", false))))
            .role(CostRole.GENERAL)
            .shards(NnRules.resize(false)));
    defs.add(
        OpDef.of(
                "ResizeBilinearGrad",
                c ->
                    one(
                        Resize.resizeBilinearGrad(
                            c.in(0),
                            c.in(1),
                            c.attrs().bool("align_corners", false),
                            c.attrs().bool("half_pixel_centers", false))),
                GradRule.UNDEFINED)
            .infers(Infer.one((a, in) -> Resize.resizeBilinearGradType(in.get(0), in.get(1))))
            .role(CostRole.GENERAL)
            .shards(NnRules.resize(true)));
    defs.addAll(pooling("MaxPool", Pooling::maxPool, Pooling::maxPoolGrad));
    defs.addAll(pooling("AvgPool", Pooling::avgPool, Pooling::avgPoolGrad));
    defs.add(
        OpDef.of(
                "AdaptiveAvgPool2D",
                c -> one(AdaptivePooling.adaptiveAvgPool2d(c.in(0), c.attrs().ints("output_size"))),
                g -> one(g.op("AdaptiveAvgPool2DGrad", NONE, g.in(0), g.dout(0))))
            .infers(
                Infer.one(
                    (a, in) ->
                        AdaptivePooling.adaptiveAvgPool2dType(in.get(0), a.ints("output_size"))))
            .role(CostRole.GENERAL)
            .shards(NnRules.adaptivePooling()));
    defs.add(
        OpDef.of(
                "AdaptiveAvgPool2DGrad",
                c -> one(AdaptivePooling.adaptiveAvgPool2dGrad(c.in(0), c.in(1))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) -> AdaptivePooling.adaptiveAvgPool2dGradType(in.get(0), in.get(1))))
            .role(CostRole.GENERAL)
            .shards(NnRules.adaptivePoolingGrad()));
    return defs;
  }

  private static List<OpDef> layerDefs() {
    return List.of(
        OpDef.of(
                "BiasAdd",
                c -> one(NnActivations.biasAdd(c.in(0), c.in(1))),
                g ->
                    new Tensor[] {
                      g.dout(0), g.needs(1) ? g.op("BiasAddGrad", NONE, g.dout(0)) : null
                    })
            .infers(Infer.one((a, in) -> NnActivations.biasAddType(in.get(0), in.get(1))))
            .role(CostRole.GENERAL)
            .shards(MatrixRules.biasAdd()),
        OpDef.of("BiasAddGrad", c -> one(NnActivations.biasAddGrad(c.in(0))), GradRule.UNDEFINED)
            .infers(Infer.one((a, in) -> NnActivations.biasAddGradType(in.get(0))))
            .role(CostRole.GENERAL)
            .shards(MatrixRules.biasAddGrad()),
        OpDef.of(
                "BatchMatMul",
                c ->
                    one(
                        BatchMatMul.batchMatMul(
                            c.in(0),
                            c.in(1),
                            c.attrs().bool("transpose_a", false),
                            c.attrs().bool("transpose_b", false),
                            c.blas())),
                NnOps::batchMatMulGrad)
            .infers(
                Infer.one(
                    (a, in) ->
                        BatchMatMul.batchMatMulType(
                            in.get(0),
                            in.get(1),
                            a.bool("transpose_a", false),
                            a.bool("transpose_b", false))))
            .role(CostRole.MATMUL)
            .shards(MatrixRules.matmul()),
        OpDef.of(
                "Conv2D",
                c -> one(conv(c)),
                convolutionGrad("Conv2DBackpropInput", "Conv2DBackpropFilter"))
            .infers(
                Infer.one(
                    (a, in) ->
                        Convolution.conv2dType(
                            in.get(0),
                            in.get(1),
                            padMode(a),
                            pad4(a),
                            hw(a, "stride"),
                            hw(a, "dilation"),
                            a.integer("group", 1))))
            .role(CostRole.GENERAL)
            .shards(NnRules.conv2d()),
        convGrad(
            "Conv2DBackpropInput",
            "input_shape",
            Convolution::conv2dBackpropInput,
            Convolution::conv2dBackpropInputType,
            NnRules.conv2dBackpropInput(),
            NnOps::transposedGrad),
        // Conv2DTranspose(x, w, input_size) is Conv2DBackpropInput(x, w) under its own name.
        convGrad(
            "Conv2DTranspose",
            "input_shape",
            Convolution::conv2dBackpropInput,
            Convolution::conv2dBackpropInputType,
            NnRules.conv2dBackpropInput(),
            NnOps::transposedGrad),
        convGrad(
            "Conv2DBackpropFilter",
            "filter_shape",
            Convolution::conv2dBackpropFilter,
            Convolution::conv2dBackpropFilterType,
            NnRules.conv2dBackpropFilter()),
        new OpDef(
                "BatchNorm",
                c -> batchNorm(c, c.attrs().bool("is_training", false), Normalization.Sums.LOCAL),
                g -> {
                  Tensor[] d =
                      g.ops(
                          "BatchNormGrad",
                          g.attrs(),
                          g.dout(0),
                          g.in(0),
                          g.in(1),
                          g.attrs().bool("is_training", false) ? g.out(1) : g.in(3),
                          g.attrs().bool("is_training", false) ? g.out(2) : g.in(4));
                  return new Tensor[] {d[0], d[1], d[2], null, null};
                },
                true,
                List.of(3, 4))
            .infers(
                (a, in) ->
                    Normalization.batchNormType(
                        in.get(0), in.get(1), in.get(2), in.get(3), in.get(4)))
            .role(CostRole.BATCH_PARALLEL)
            .shards(ReductionRules.batchNorm()),
        OpDef.of(
                "BatchNormGrad",
                c ->
                    batchNormGrad(
                        c, c.attrs().bool("is_training", false), Normalization.Sums.LOCAL),
                GradRule.UNDEFINED)
            .infers(
                (a, in) ->
                    Normalization.batchNormGradType(
                        in.get(0), in.get(1), in.get(2), in.get(3), in.get(4)))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.batchNormGrad()),
        OpDef.of(
                "LayerNorm",
                c -> {
                  Normalization.LayerNormResult r =
                      Normalization.layerNorm(
                          c.in(0),
                          c.in(1),
                          c.in(2),
                          c.attrs().integer("begin_norm_axis", 1),
                          c.attrs().integer("begin_params_axis", 1),
                          c.attrs().real("epsilon"));
                  return new Tensor[] {r.y(), r.mean(), r.rstd()};
                },
                g -> {
                  Tensor[] d =
                      g.ops(
                          "LayerNormGrad",
                          g.attrs(),
                          g.in(0),
                          g.dout(0),
                          g.out(1),
                          g.out(2),
                          g.in(1));
                  return new Tensor[] {d[0], d[1], d[2]};
                })
            .infers(
                (a, in) ->
                    Normalization.layerNormType(
                        in.get(0),
                        in.get(1),
                        in.get(2),
                        a.integer("begin_norm_axis", 1),
                        a.integer("begin_params_axis", 1)))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.layerNorm()),
        OpDef.of(
                "LayerNormGrad",
                c -> {
                  Normalization.NormGrads r =
                      Normalization.layerNormGrad(
                          c.in(0),
                          c.in(1),
                          c.in(2),
                          c.in(3),
                          c.in(4),
                          c.attrs().integer("begin_norm_axis", 1),
                          c.attrs().integer("begin_params_axis", 1));
                  return new Tensor[] {r.dx(), r.dscale(), r.dbias()};
                },
                GradRule.UNDEFINED)
            .infers(
                (a, in) ->
                    Normalization.layerNormGradType(
                        in.get(0),
                        in.get(1),
                        in.get(4),
                        a.integer("begin_norm_axis", 1),
                        a.integer("begin_params_axis", 1)))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.layerNormGrad()),
        OpDef.of(
                "GeLU",
                c -> one(NnActivations.gelu(c.in(0))),
                g -> one(g.op("GeLUGrad", NONE, g.dout(0), g.in(0))))
            .infers(Infer.one((a, in) -> NnActivations.geluType(in.get(0))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise()),
        OpDef.of("GeLUGrad", c -> one(NnActivations.geluGrad(c.in(0), c.in(1))), GradRule.UNDEFINED)
            .infers(Infer.one((a, in) -> NnActivations.geluGradType(in.get(0), in.get(1))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()),
        new OpDef(
                "Dropout",
                c -> {
                  NnActivations.DropoutResult r =
                      NnActivations.dropout(
                          c.in(0),
                          c.attrs().real("keep_prob"),
                          (RandomGenerator) c.attrs().get("rng"));
                  return new Tensor[] {r.output(), r.mask()};
                },
                g -> one(g.op("DropoutGrad", g.attrs(), g.dout(0), g.out(1))),
                true)
            .infers(
                (a, in) -> {
                  AbstractTensor y = NnActivations.dropoutType(in.get(0), a.real("keep_prob"));
                  return List.of(y, y);
                })
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.pointwise(2)),
        OpDef.of(
                "DropoutGrad",
                c -> one(NnActivations.dropoutGrad(c.in(0), c.in(1), c.attrs().real("keep_prob"))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        NnActivations.dropoutGradType(in.get(0), in.get(1), a.real("keep_prob"))))
            .role(CostRole.ELEMENTWISE)
            .shards(ElementwiseRules.arithmetic()),
        OpDef.of(
                "SoftmaxCrossEntropyWithLogits",
                c -> {
                  NnLosses.LossAndGrad r = NnLosses.softmaxCrossEntropyWithLogits(c.in(0), c.in(1));
                  return new Tensor[] {r.loss(), r.backprop()};
                },
                g -> {
                  Tensor d = g.op("ExpandDims", Attrs.of("axis", -1), g.dout(0));
                  return new Tensor[] {g.op("Mul", NONE, d, g.out(1)), null};
                })
            .infers((a, in) -> NnLosses.softmaxCrossEntropyWithLogitsType(in.get(0), in.get(1)))
            .role(CostRole.BATCH_PARALLEL)
            .shards(ReductionRules.softmaxCrossEntropy()),
        OpDef.of(
                "SparseSoftmaxCrossEntropyWithLogits",
                c ->
                    one(
                        NnLosses.sparseSoftmaxCrossEntropyWithLogits(
                            c.in(0),
                            c.in(1),
                            c.attrs().bool("is_grad", false),
                            c.attrs().integer("global_batch", c.in(0).shape().dim(0)))),
                g -> {
                  Tensor grad =
                      g.op("SparseSoftmaxCrossEntropyWithLogitsGrad", NONE, g.in(0), g.in(1));
                  return new Tensor[] {g.op("Mul", NONE, grad, g.dout(0)), null};
                })
            .infers(
                Infer.one(
                    (a, in) ->
                        NnLosses.sparseSoftmaxCrossEntropyWithLogitsType(
                            in.get(0), in.get(1), a.bool("is_grad", false))))
            .role(CostRole.BATCH_PARALLEL)
            .shards(ReductionRules.sparseSoftmaxCrossEntropy()),
        OpDef.of(
                "SparseSoftmaxCrossEntropyWithLogitsGrad",
                c ->
                    one(
                        NnLosses.sparseSoftmaxCrossEntropyWithLogits(
                            c.in(0),
                            c.in(1),
                            true,
                            c.attrs().integer("global_batch", c.in(0).shape().dim(0)))),
                GradRule.UNDEFINED)
            .infers(
                Infer.one(
                    (a, in) ->
                        NnLosses.sparseSoftmaxCrossEntropyWithLogitsType(
                            in.get(0), in.get(1), true)))
            .role(CostRole.GENERAL)
            .shards(ReductionRules.sparseSoftmaxCrossEntropyGrad()));
  }

  private static Tensor[] batchMatMulGrad(GradRule.Call g) {
    boolean ta = g.attrs().bool("transpose_a", false);
    boolean tb = g.attrs().bool("transpose_b", false);
    Tensor x = g.in(0);
    Tensor y = g.in(1);
    Tensor d = g.dout(0);
    Tensor dx = null;
    Tensor dy = null;
    if (g.needs(0)) {
      dx = ta ? bmm(g, y, d, tb, true) : bmm(g, d, y, false, !tb);
      dx = g.sumTo(dx, x.shape());
    }
    if (g.needs(1)) {
      dy = tb ? bmm(g, d, x, true, ta) : bmm(g, x, d, !ta, false);
      dy = g.sumTo(dy, y.shape());
    }
    return new Tensor[] {dx, dy};
  }

  private static Tensor bmm(GradRule.Call g, Tensor a, Tensor b, boolean ta, boolean tb) {
    return g.op("BatchMatMul", Attrs.of("transpose_a", ta, "transpose_b", tb), a, b);
  }

  /**
   * The gradient of a convolution (x, w): {@code dxOp(dy, w)} with the input's shape as {@code
   * input_shape} and {@code dwOp(dy, x)} with the weight's as {@code filter_shape}, each where it
   * is needed. Conv2D's and Conv3D's.
   */
  static GradRule convolutionGrad(String dxOp, String dwOp) {
    return g -> {
      Attrs a = g.attrs();
      Tensor dx =
          g.needs(0)
              ? g.op(dxOp, a.with("input_shape", g.in(0).shape().dims()), g.dout(0), g.in(1))
              : null;
      Tensor dw =
          g.needs(1)
              ? g.op(dwOp, a.with("filter_shape", g.in(1).shape().dims()), g.dout(0), g.in(0))
              : null;
      return new Tensor[] {dx, dw};
    };
  }
}
