package dev.msjvm.engine.parallel;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.ir.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plans the move of a tensor from one layout to another, as MindSpore's {@code
 * TensorRedistribution::InferTensorRedistributionOperatorList} ({@code
 * frontend/parallel/tensor_layout/tensor_redistribution.cc}) does.
 *
 * <ol>
 *   <li>Both layouts drop device axes of size 1 and tensor dims of size 1, then are brought onto
 *       the common refinement of their device matrices and tensor shapes ({@link LayoutTransfer}).
 *   <li>{@link OperatorInfer} turns the one tensor map into the other: StridedSlice, AllConcat and,
 *       with {@code enableAllToAll}, AllToAll.
 *   <li>A Reshape goes first when the refined slice shape differs from the source slice shape, and
 *       last when it differs from the target slice shape.
 * </ol>
 *
 * When no common refinement exists the whole tensor is gathered, reshaped and split again. Both
 * layouts must cover the same ranks and tensors of the same number of elements. Example, on 8
 * ranks: {@code plan(((1, 8), (1, 0), (32, 256)), ((1, 4, 2), (2, 1), (32, 256)), rank 0, false)}
 * is {@code [('Reshape', [32, 1, 32]), ('AllConcat', [0, 1, 2]), ('Reshape', [32, 64])]}.
 */
public final class TensorRedistribution {

  private TensorRedistribution() {}

  /**
   * The ops {@code rank} runs; {@code enableAllToAll} is MindSpore's {@code enable_alltoall} (graph
   * compilation only: its checkpoint transform, {@code _transform_tensor_by_layout}, always plans
   * without AllToAll).
   */
  public static RedistributionPlan plan(
      TensorLayout from, TensorLayout to, int rank, boolean enableAllToAll) {
    return plan(from, to, rank, enableAllToAll, false);
  }

  /**
   * {@code afterEarlierPlans}: MindSpore's checkpoint transform keeps one {@code
   * TensorRedistribution} per process whose recorded operator list is never cleared, so once any
   * call has planned a collective, a later plan without one still takes the "operators exist" path
   * of {@code InferReshape} (a Reshape to and from the refined slice shape) instead of {@code
   * OperatorListIsEmpty} (one Reshape between the two slice shapes, if they differ).
   */
  private static RedistributionPlan plan(
      TensorLayout from,
      TensorLayout to,
      int rank,
      boolean enableAllToAll,
      boolean afterEarlierPlans) {
    List<Integer> ranks = from.deviceMatrix().rankList();
    List<Integer> toRanks = to.deviceMatrix().rankList();
    boolean reordered =
        !ranks.equals(toRanks)
            && ranks.size() == toRanks.size()
            && new java.util.HashSet<>(ranks).equals(new java.util.HashSet<>(toRanks));
    if (!ranks.equals(toRanks) && !reordered) {
      throw MsException.valueError(
          "The layouts must cover the same ranks, but the source covers "
              + ranks
              + " and the target "
              + to.deviceMatrix().rankList());
    }
    if (!ranks.contains(rank)) {
      throw MsException.valueError(
          "Rank " + rank + " is not in the current stage! The stage's ranks are " + ranks);
    }
    if (from.shape().size() != to.shape().size()) {
      // MindSpore: tensor_redistribution.cc Init.
      throw MsException.valueError(
          "from shape size must be equal to to shape size! from shape size is "
              + from.shape().size()
              + ", to shape size is "
              + to.shape().size()
              + " (shapes "
              + from.shape()
              + " and "
              + to.shape()
              + ")");
    }
    ExpandedLayout fromOrigin = internal(from);
    ExpandedLayout toOrigin = internal(to);
    ExpandedLayout fromSqueezed = fromOrigin.squeezeShape();
    // Layouts listing the same ranks in another order (a Layout strategy splitting a dimension over
    // device axes that are not adjacent in order) have no common refinement of their device
    // matrices: the whole tensor is gathered over the source's ranks, then each rank cuts its
    // target slice (no communication).
    LayoutTransfer unified =
        reordered ? null : LayoutTransfer.unify(fromSqueezed, toOrigin.squeezeShape());
    List<RedistributionOp> ops = new ArrayList<>();
    List<OperatorInfer.Step> steps = new ArrayList<>();
    boolean reshaped = false;
    long prevSize;
    if (unified != null && unified.expandable()) {
      OperatorInfer infer =
          new OperatorInfer(unified.from(), unified.to().map, ranks, rank, enableAllToAll).infer();
      ops.addAll(infer.ops);
      steps.addAll(infer.steps);
      if (steps.isEmpty() && !afterEarlierPlans) {
        if (!Arrays.equals(fromOrigin.sliceShape(), toOrigin.sliceShape())) {
          ops.add(0, reshape(toOrigin.sliceShape()));
          reshaped = true;
        }
      } else {
        if (!Arrays.equals(fromOrigin.sliceShape(), unified.from().sliceShape())) {
          ops.add(0, reshape(unified.from().sliceShape()));
          reshaped = true;
        }
        if (!Arrays.equals(toOrigin.sliceShape(), unified.to().sliceShape())) {
          ops.add(reshape(toOrigin.sliceShape()));
          reshaped = true;
        }
      }
      prevSize = LayoutAlgebra.product(fromSqueezed.sliceShape());
    } else {
      // InferTensorRedistributionOperatorListUnExpand: gather all, reshape, split again.
      ExpandedLayout fromRepeat = fromOrigin.repeatLayout();
      ExpandedLayout toRepeat = toOrigin.repeatLayout();
      OperatorInfer gather =
          new OperatorInfer(fromOrigin, fromRepeat.map, ranks, rank, enableAllToAll).infer();
      ops.addAll(gather.ops);
      steps.addAll(gather.steps);
      if (!Arrays.equals(fromRepeat.shape, toRepeat.shape)) {
        ops.add(reshape(toRepeat.shape));
        reshaped = true;
      }
      OperatorInfer split =
          new OperatorInfer(toRepeat, toOrigin.map, toRanks, rank, enableAllToAll).infer();
      ops.addAll(split.ops);
      steps.addAll(split.steps);
      prevSize = LayoutAlgebra.product(fromSqueezed.shape);
    }
    return new RedistributionPlan(
        from, to, rank, enableAllToAll, ops, RedistributionCost.of(steps, reshaped, prevSize));
  }

  /**
   * MindSpore's {@code _transform_tensor_by_layout(from_layout, to_layout, device_list, rank_id)}:
   * layouts as {@code (device_matrix, tensor_map, full_shape)}, planned without AllToAll, as in a
   * MindSpore process that has already planned some collective (see {@code afterEarlierPlans}).
   */
  public static RedistributionPlan transformTensorByLayout(
      List<List<Integer>> fromLayout,
      List<List<Integer>> toLayout,
      List<Integer> deviceList,
      int rank) {
    return plan(layout(fromLayout, deviceList), layout(toLayout, deviceList), rank, false, true);
  }

  private static TensorLayout layout(List<List<Integer>> triple, List<Integer> deviceList) {
    if (triple.size() != 3) {
      throw MsException.valueError(
          "A layout is (device_matrix, tensor_map, full_shape), but got " + triple);
    }
    return TensorLayout.of(
        new DeviceMatrix(triple.get(0), deviceList), triple.get(1), new Shape(triple.get(2)));
  }

  private static ExpandedLayout internal(TensorLayout layout) {
    ExpandedLayout e =
        ExpandedLayout.init(
            LayoutAlgebra.toArray(layout.deviceMatrix().shape()),
            LayoutAlgebra.toArray(layout.tensorMap()),
            layout.shape().toArray());
    if (e == null) {
      throw new IllegalStateException("a valid TensorLayout failed to initialise: " + layout);
    }
    return e;
  }

  private static RedistributionOp reshape(int[] shape) {
    return new RedistributionOp.Reshape(Shape.of(shape));
  }
}
