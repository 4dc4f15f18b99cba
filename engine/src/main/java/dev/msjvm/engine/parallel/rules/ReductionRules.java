package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import dev.msjvm.engine.parallel.NodeSharding;
import dev.msjvm.engine.parallel.TensorLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Operators that combine values across a dimension: the reductions (reduce_method_info.cc; reduced
 * letters leave the output PARTIAL: sum, max, min, or ReduceMean's sum-then-divide), Softmax and
 * LogSoftmax (axis letter unsplit, activation_info.cc), the softmax cross-entropy losses
 * (loss_info.cc, batch_parallel_info.cc), LayerNorm and BatchNorm (normalised dims unsplit) and
 * their gradients (the parameter gradients sum over the other dims: partial SUM where split).
 */
public final class ReductionRules {
  private ReductionRules() {}

  /** ReduceSum/Mean/Max/Min: a split reduced dim leaves the output partial ({@code op}). */
  public static ShardingRule reduce(PartialOp op) {
    return ShardingRule.of((attrs, shapes) -> reduce(op, attrs, shapes));
  }

  /**
   * Argmax (ArgmaxInfo): the indices along {@code axis}, which stays whole (a split one would need
   * the ranks' maxima compared); the output drops it.
   */
  public static ShardingRule argReduce(String name) {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String x = Letters.run('a', shapes.get(0).rank());
          int axis = Letters.axis(name, attrs.integer("axis", -1), x.length());
          return EinsumSpec.parse(x + "->" + x.substring(0, axis) + x.substring(axis + 1))
              .unsplit(x.substring(axis, axis + 1));
        });
  }

  /**
   * ArgMaxWithValue, ArgMinWithValue (ArgMaxWithValueInfo): the index and the value, both laid out
   * as the input less {@code axis} (a size-1 dim with {@code keep_dims}); the axis stays whole.
   * MindSpore lets a strategy split it with a warning that the index may differ from the
   * stand-alone run's; here such a strategy is refused, so the parallel run stays equal to it.
   */
  public static ShardingRule argReduceWithValue(String name) {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String x = Letters.run('a', shapes.get(0).rank());
          if (x.isEmpty()) {
            return EinsumSpec.parse("->,");
          }
          int axis = Letters.axis(name, attrs.integer("axis", 0), x.length());
          String kept = attrs.bool("keep_dims", false) ? String.valueOf(EinsumSpec.FRESH) : "";
          String out = x.substring(0, axis) + kept + x.substring(axis + 1);
          return EinsumSpec.parse(x + "->" + out + "," + out).unsplit(x.substring(axis, axis + 1));
        });
  }

  /**
   * SquareSumAll (SquareSumAllInfo): both inputs split alike; each 0-d sum is partial over every
   * split dim (AllReduce sum).
   */
  public static ShardingRule squareSumAll() {
    return ShardingRule.of(
        (attrs, shapes) -> {
          String x = Letters.run('a', shapes.get(0).rank());
          EinsumSpec spec = EinsumSpec.parse(x + "," + x + "->,");
          return x.isEmpty() ? spec : spec.reduce(x, PartialOp.SUM);
        });
  }

  /** Softmax, LogSoftmax ({@code name} for the axis error): the axis stays whole. */
  public static ShardingRule softmax(String name) {
    return ShardingRule.of(
            (attrs, shapes) -> {
              String x = Letters.run('a', shapes.get(0).rank());
              int axis = Letters.axis(name, attrs.integer("axis", -1), x.length());
              return EinsumSpec.parse(x + "->" + x).unsplit(x.substring(axis, axis + 1));
            })
        .checking(
            (attrs, spec, s, shapes, n) -> {
              for (int d = 0; d < s.get(0).size(); d++) {
                char c = spec.inputs().get(0).charAt(d);
                if (spec.unsplit().indexOf(c) >= 0 && s.get(0).get(d) != 1) {
                  return "The strategy corresponding to axis dimension("
                      + s.get(0).get(d)
                      + ") is not 1";
                }
              }
              return null;
            });
  }

  /** SoftmaxCrossEntropyWithLogits: logits and labels split alike, classes whole. */
  public static ShardingRule softmaxCrossEntropy() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              String x = Letters.run('a', shapes.get(0).rank());
              return EinsumSpec.parse(x + "," + x + "->" + x.charAt(0) + "," + x)
                  .unsplit(x.substring(x.length() - 1));
            })
        .checking(
            (attrs, spec, s, shapes, n) -> {
              if (!s.get(0).equals(s.get(1))) {
                return "Strategies of relevant dimensions are not equal.";
              }
              int c = s.get(0).getLast();
              return c == 1
                  ? null
                  : "The strategy corresponding to axis dimension is not 1, input: "
                      + c
                      + ", label: "
                      + s.get(1).getLast();
            });
  }

  /**
   * KLDivLoss (kldiv_loss_info.cc): logits and labels take one strategy; with a reduction the
   * scalar loss is partial over every split letter (mean: the mean of the equal slices' means; sum
   * and batchmean: the sum, each rank dividing a batchmean by the global batch).
   */
  public static ShardingRule klDivLoss() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              String x = Letters.run('a', shapes.get(0).rank());
              String reduction = attrs.string("reduction");
              if (reduction.equals("none")) {
                return EinsumSpec.parse(x + "," + x + "->" + x);
              }
              return EinsumSpec.parse(x + "," + x + "->")
                  .reduce(x, reduction.equals("mean") ? PartialOp.MEAN : PartialOp.SUM);
            })
        .checking(
            (attrs, spec, s, shapes, n) ->
                s.get(0).equals(s.get(1))
                    ? null
                    : "The strategy of 'logits' and 'labels' must be the same, but got strategy "
                        + s)
        .localizing(
            (attrs, s, rank) ->
                attrs.string("reduction").equals("batchmean")
                    ? globalBatch(attrs, s, rank)
                    : attrs);
  }

  /**
   * SparseSoftmaxCrossEntropyWithLogits (BatchParallelInfo): device matrix [batch split]; the mean
   * loss is partial.
   */
  public static ShardingRule sparseSoftmaxCrossEntropy() {
    return ShardingRule.of(
            (attrs, shapes) ->
                attrs.bool("is_grad", false)
                    ? SPARSE_GRAD
                    : EinsumSpec.parse("bc,b->").matrix("b").reduce("b", PartialOp.MEAN))
        .checking(ReductionRules::dataParallelCheck)
        // The loss itself is the mean of the ranks' means (partial MEAN); only the gradient,
        // whose rows stay on their ranks, divides by the global batch.
        .localizing(
            (attrs, s, rank) -> attrs.bool("is_grad", false) ? globalBatch(attrs, s, rank) : attrs);
  }

  /** SparseSoftmaxCrossEntropyWithLogitsGrad: rows stay on their ranks. */
  public static ShardingRule sparseSoftmaxCrossEntropyGrad() {
    return ShardingRule.of((attrs, shapes) -> SPARSE_GRAD)
        .checking(ReductionRules::dataParallelCheck)
        .localizing(ReductionRules::globalBatch);
  }

  /** LayerNorm: the normalized dims stay whole. */
  public static ShardingRule layerNorm() {
    return ShardingRule.of(ReductionRules::layerNorm);
  }

  /**
   * RmsNorm(x, gamma) -> (y, rstd) (RmsNormInfo): gamma covers x's trailing (normalised) dims and
   * splits as they do; rstd keeps them as 1s. Where a normalised dim is split, the rank runs {@code
   * SyncRmsNorm} over the ranks holding the rest of its rows (MindSpore reduces the squares over
   * them the same way), so rstd is whole: not partial over those letters.
   */
  public static ShardingRule rmsNorm() {
    return ShardingRule.of(
            (attrs, shapes) -> {
              String x = Letters.run('a', shapes.get(0).rank());
              int begin = x.length() - shapes.get(1).rank();
              String normed = x.substring(begin);
              String stats =
                  x.substring(0, begin) + String.valueOf(EinsumSpec.FRESH).repeat(normed.length());
              EinsumSpec spec = EinsumSpec.parse(x + "," + normed + "->" + x + "," + stats);
              return normed.isEmpty() ? spec : spec.reduce(normed, PartialOp.NONE);
            })
        .lowering(
            (attrs, s, rank) -> {
              TensorLayout x = s.inputLayouts().get(0);
              int begin = x.rank() - s.inputLayouts().get(1).rank();
              List<Integer> axes = new ArrayList<>();
              for (int d = begin; d < x.rank(); d++) {
                if (x.splitCount(d) > 1) {
                  axes.add(x.deviceAxisOf(d));
                }
              }
              return axes.isEmpty()
                  ? NodeSharding.Lowering.NONE
                  : NodeSharding.Lowering.replaced(
                      "SyncRmsNorm", x.deviceMatrix().devicesVaryingOnly(rank, axes));
            });
  }

  /** LayerNormGrad: gamma's and beta's gradients partial over the batch dims. */
  public static ShardingRule layerNormGrad() {
    return ShardingRule.of(ReductionRules::layerNormGrad);
  }

  /** BatchNorm. */
  public static ShardingRule batchNorm() {
    return ShardingRule.of(ReductionRules::batchNorm)
        .checking(ReductionRules::batchNormGroupSize)
        .lowering(synced("SyncBatchNorm"));
  }

  /**
   * BatchNormInfo's checks of a {@code group_size} attribute (the statistics then synchronised over
   * blocks of that many consecutive ranks only): a power of 2 dividing the device count, the batch
   * split over all devices.
   */
  private static String batchNormGroupSize(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    if (!attrs.has("group_size")) {
      return null;
    }
    int g = attrs.integer("group_size");
    if (g < 1 || g > n || (g & (g - 1)) != 0 || n % g != 0) {
      return "The group size is out of range, it must be in [1, "
          + n
          + "], it must be the power of 2, and it can divide all device num "
          + n
          + ", but got "
          + g;
    }
    if (s.get(0).get(0) != n) {
      return "The config group size only support the N dimension is shard with device num";
    }
    return null;
  }

  /** BatchNormGrad. */
  public static ShardingRule batchNormGrad() {
    return ShardingRule.of(ReductionRules::batchNormGrad).lowering(synced("SyncBatchNormGrad"));
  }

  /**
   * In training, where the batch (or H, W) of input 0 is split, the rank runs {@code op}
   * (MindSpore's BatchNormInfo replaces BatchNorm with SyncBatchNorm) over the ranks holding the
   * other blocks of its channels: the devices varying along the axes that split those dimensions.
   */
  private static ShardingRule.Lowerer synced(String op) {
    return (attrs, s, rank) -> {
      if (!attrs.bool("is_training", false)) {
        return NodeSharding.Lowering.NONE;
      }
      TensorLayout x = s.inputLayouts().get(0);
      if (attrs.has("group_size")) {
        // Blocks of group_size consecutive ranks (the batch is split over all of them); 1: none.
        int g = attrs.integer("group_size");
        List<Integer> ranks = x.deviceMatrix().rankList();
        int first = ranks.indexOf(rank) / g * g;
        return g == 1
            ? NodeSharding.Lowering.NONE
            : NodeSharding.Lowering.replaced(op, ranks.subList(first, first + g));
      }
      List<Integer> axes = new ArrayList<>();
      for (int d = 0; d < x.rank(); d++) {
        if (d != 1 && x.splitCount(d) > 1) {
          axes.add(x.deviceAxisOf(d));
        }
      }
      if (axes.isEmpty()) {
        return NodeSharding.Lowering.NONE;
      }
      return NodeSharding.Lowering.replaced(op, x.deviceMatrix().devicesVaryingOnly(rank, axes));
    };
  }

  /**
   * The gradient of the mean sparse cross-entropy with respect to the logits: row-wise, batch split
   * only (each rank's rows need only its labels).
   */
  private static final EinsumSpec SPARSE_GRAD = EinsumSpec.parse("bc,b->bc").matrix("b");

  /**
   * The kernel divides by the batch size; on a slice of the batch it must still divide by the whole
   * batch ({@code global_batch}, read by the kernel).
   */
  private static Attrs globalBatch(Attrs attrs, OpSharding s, int rank) {
    return attrs.with("global_batch", s.inputLayouts().get(0).shape().dim(0));
  }

  /** ReduceSum/Mean/Max/Min over {@code axis} (empty: all), {@code keep_dims}. */
  static EinsumSpec reduce(PartialOp op, Attrs attrs, List<Shape> shapes) {
    String x = Letters.run('a', shapes.get(0).rank());
    List<Integer> axes = attrs.has("axis") ? attrs.ints("axis") : List.of();
    boolean keep = attrs.bool("keep_dims", false);
    boolean[] reduced = new boolean[x.length()];
    for (int a : axes) {
      reduced[Letters.axis("Reduce", a, x.length())] = true;
    }
    StringBuilder outL = new StringBuilder();
    StringBuilder gone = new StringBuilder();
    for (int d = 0; d < x.length(); d++) {
      boolean r = axes.isEmpty() || reduced[d];
      if (r) {
        gone.append(x.charAt(d));
      }
      if (!r) {
        outL.append(x.charAt(d));
      } else if (keep) {
        outL.append(EinsumSpec.FRESH);
      }
    }
    EinsumSpec spec = EinsumSpec.parse(x + "->" + outL);
    return gone.isEmpty() ? spec : spec.reduce(gone.toString(), op);
  }

  /** BatchParallelInfo::CheckStrategy: a split must be the whole stage, once per input. */
  private static String dataParallelCheck(
      Attrs attrs, EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    for (List<Integer> sub : s) {
      long big = sub.stream().filter(v -> v > 1).count();
      if (big > 1 || (big == 1 && sub.get(0) != n)) {
        return "It is not a valid data parallel strategy.";
      }
    }
    return null;
  }

  /**
   * The letters of a LayerNorm call: {@code x}'s, gamma's and beta's ({@code params}: x's dims from
   * begin_params_axis), the statistics' (x's dims before begin_norm_axis, then kept 1s), the
   * normalised dims (unsplit) and the row dims before both axes.
   */
  private record LayerLetters(String x, String params, String stats, String normed, String rows) {
    static LayerLetters of(Attrs attrs, int rank) {
      String x = Letters.run('a', rank);
      int norm = Letters.axis("LayerNorm", attrs.integer("begin_norm_axis", 1), rank);
      int params = Letters.axis("LayerNorm", attrs.integer("begin_params_axis", 1), rank);
      return new LayerLetters(
          x,
          x.substring(params),
          x.substring(0, norm) + "_".repeat(rank - norm),
          x.substring(norm),
          x.substring(0, Math.min(norm, params)));
    }
  }

  /** LayerNorm(x, gamma, beta): dims from begin_norm_axis unsplit; gamma/beta follow x's tail. */
  static EinsumSpec layerNorm(Attrs attrs, List<Shape> shapes) {
    LayerLetters l = LayerLetters.of(attrs, shapes.get(0).rank());
    String p = l.params();
    return EinsumSpec.parse(
            l.x() + "," + p + "," + p + "->" + l.x() + "," + l.stats() + "," + l.stats())
        .unsplit(l.normed());
  }

  /**
   * LayerNormGrad(x, dy, mean, rstd, gamma) -> (dx, dgamma, dbeta), as NnOps emits it: LayerNorm's
   * letters; dgamma and dbeta sum over the rows, so a split row dim leaves them partial (SUM).
   */
  static EinsumSpec layerNormGrad(Attrs attrs, List<Shape> shapes) {
    LayerLetters l = LayerLetters.of(attrs, shapes.get(0).rank());
    String x = l.x();
    String p = l.params();
    EinsumSpec spec =
        EinsumSpec.parse(
                String.join(",", x, x, l.stats(), l.stats(), p) + "->" + String.join(",", x, p, p))
            .unsplit(l.normed());
    return l.rows().isEmpty() ? spec : spec.reduce(l.rows(), PartialOp.SUM);
  }

  /**
   * BatchNorm(x, scale, bias, mean, variance): channel dim 1 shared with the four vectors. In
   * training the batch statistics need every N, H, W: where those are split the rank runs
   * SyncBatchNorm over the ranks holding the rest of the batch (MindSpore's BatchNormInfo replaces
   * the op the same way), so the statistics outputs are whole.
   */
  static EinsumSpec batchNorm(Attrs attrs, List<Shape> shapes) {
    // In inference the statistics outputs are the mean/variance inputs: x's dims do not matter.
    return perChannel(attrs, shapes.get(0).rank(), 1, 4, PartialOp.NONE);
  }

  /**
   * BatchNormGrad(dy, x, scale, mean, variance) -> (dx, dscale, dbias), mirroring BatchNorm. In
   * training dx needs the per-channel sums over N, H, W: where those are split the rank runs
   * SyncBatchNormGrad, which sums them over its group (dscale/dbias whole); in inference dx is
   * elementwise and dscale/dbias, sums over N, H, W, are partial (SUM) where those are split.
   */
  static EinsumSpec batchNormGrad(Attrs attrs, List<Shape> shapes) {
    return perChannel(attrs, shapes.get(0).rank(), 2, 3, PartialOp.SUM);
  }

  /**
   * {@code xs} x-shaped inputs then {@code cs} channel vectors, outputs x and two vectors: channel
   * dim 1 shared; the other dims unsplit in training, else contracted with {@code inference}.
   */
  private static EinsumSpec perChannel(Attrs attrs, int rank, int xs, int cs, PartialOp inference) {
    String x = Letters.run('a', rank);
    String c = x.substring(1, 2);
    List<String> in = new ArrayList<>(Collections.nCopies(xs, x));
    in.addAll(Collections.nCopies(cs, c));
    EinsumSpec spec =
        new EinsumSpec(in, in, List.of(x, c, c), x, "", Map.of(), (char) 0, null, false);
    String others = x.substring(0, 1) + x.substring(2);
    // In training the kernel sums its statistics over the ranks itself (SyncBatchNorm): the
    // statistics outputs, and dscale/dbias, come out whole.
    return spec.reduce(others, attrs.bool("is_training", false) ? PartialOp.NONE : inference);
  }
}
