package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.ir.Shape;
import dev.msjvm.engine.ops.Attrs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Operators that combine values across a dimension: the reductions (reduce_method_info.cc; reduced
 * letters leave the output PARTIAL: sum, max, min, or ReduceMean's sum-then-divide), Softmax and
 * LogSoftmax (axis letter unsplit, activation_info.cc), the softmax cross-entropy losses
 * (loss_info.cc, batch_parallel_info.cc), LayerNorm and BatchNorm (normalised dims unsplit).
 */
final class ReductionRules {
  private ReductionRules() {}

  static List<ShardingRule> rules() {
    List<ShardingRule> out = new ArrayList<>();
    for (var e :
        Map.of(
                "ReduceSum", PartialOp.SUM,
                "ReduceMean", PartialOp.MEAN,
                "ReduceMax", PartialOp.MAX,
                "ReduceMin", PartialOp.MIN)
            .entrySet()) {
      out.add(ShardingRule.of(e.getKey(), (attrs, shapes) -> reduce(e.getValue(), attrs, shapes)));
    }
    for (String name : List.of("Softmax", "LogSoftmax")) {
      out.add(
          ShardingRule.of(
                  name,
                  (attrs, shapes) -> {
                    String x = Letters.run('a', shapes.get(0).rank());
                    int axis = Letters.axis(name, attrs.integer("axis", -1), x.length());
                    return EinsumSpec.parse(x + "->" + x).unsplit(x.substring(axis, axis + 1));
                  })
              .checking(
                  (spec, s, shapes, n) -> {
                    for (int d = 0; d < s.get(0).size(); d++) {
                      char c = spec.inputs().get(0).charAt(d);
                      if (spec.unsplit().indexOf(c) >= 0 && s.get(0).get(d) != 1) {
                        return "The strategy corresponding to axis dimension("
                            + s.get(0).get(d)
                            + ") is not 1";
                      }
                    }
                    return null;
                  }));
    }
    out.add(
        ShardingRule.of(
                "SoftmaxCrossEntropyWithLogits",
                (attrs, shapes) -> {
                  String x = Letters.run('a', shapes.get(0).rank());
                  return EinsumSpec.parse(x + "," + x + "->" + x.charAt(0) + "," + x)
                      .unsplit(x.substring(x.length() - 1));
                })
            .checking(
                (spec, s, shapes, n) -> {
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
                }));
    out.add(
        ShardingRule.of(
                "SparseSoftmaxCrossEntropyWithLogits",
                (attrs, shapes) ->
                    attrs.bool("is_grad", false)
                        ? SPARSE_GRAD
                        // BatchParallelInfo: device matrix [batch split]; the mean loss is partial.
                        : EinsumSpec.parse("bc,b->").matrix("b").reduce("b", PartialOp.MEAN))
            .checking(ReductionRules::dataParallelCheck)
            // The loss itself is the mean of the ranks' means (partial MEAN); only the gradient,
            // whose rows stay on their ranks, divides by the global batch.
            .localizing(
                (attrs, s, rank) ->
                    attrs.bool("is_grad", false) ? globalBatch(attrs, s, rank) : attrs));
    out.add(
        ShardingRule.of("SparseSoftmaxCrossEntropyWithLogitsGrad", (attrs, shapes) -> SPARSE_GRAD)
            .checking(ReductionRules::dataParallelCheck)
            .localizing(ReductionRules::globalBatch));
    out.add(ShardingRule.of("LayerNorm", ReductionRules::layerNorm));
    out.add(ShardingRule.of("BatchNorm", ReductionRules::batchNorm));
    return out;
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
      EinsumSpec spec, List<List<Integer>> s, List<Shape> shapes, int n) {
    for (List<Integer> sub : s) {
      long big = sub.stream().filter(v -> v > 1).count();
      if (big > 1 || (big == 1 && sub.get(0) != n)) {
        return "It is not a valid data parallel strategy.";
      }
    }
    return null;
  }

  /** LayerNorm(x, gamma, beta): dims from begin_norm_axis unsplit; gamma/beta follow x's tail. */
  static EinsumSpec layerNorm(Attrs attrs, List<Shape> shapes) {
    String x = Letters.run('a', shapes.get(0).rank());
    int norm = Letters.axis("LayerNorm", attrs.integer("begin_norm_axis", 1), x.length());
    int params = Letters.axis("LayerNorm", attrs.integer("begin_params_axis", 1), x.length());
    String p = x.substring(params);
    String stats = x.substring(0, norm) + "_".repeat(x.length() - norm);
    return EinsumSpec.parse(x + "," + p + "," + p + "->" + x + "," + stats + "," + stats)
        .unsplit(x.substring(norm));
  }

  /**
   * BatchNorm(x, scale, bias, mean, variance): channel dim 1 shared with the four vectors. In
   * training the batch statistics need every N, H, W: those dims stay unsplit here (MindSpore
   * instead replaces the op by a SyncBatchNorm-style graph with an AllReduce).
   */
  static EinsumSpec batchNorm(Attrs attrs, List<Shape> shapes) {
    String x = Letters.run('a', shapes.get(0).rank());
    String c = x.substring(1, 2);
    List<String> in = new ArrayList<>(List.of(x));
    in.addAll(Collections.nCopies(4, c));
    EinsumSpec spec =
        new EinsumSpec(in, in, List.of(x, c, c), x, "", Map.of(), (char) 0, null, false);
    String others = x.substring(0, 1) + x.substring(2);
    // In inference the statistics outputs are the mean/variance inputs: x's dims do not matter.
    spec =
        attrs.bool("is_training", false)
            ? spec.unsplit(others)
            : spec.reduce(others, PartialOp.NONE);
    return spec;
  }
}
