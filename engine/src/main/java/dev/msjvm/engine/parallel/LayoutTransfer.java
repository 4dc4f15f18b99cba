package dev.msjvm.engine.parallel;

import java.util.Arrays;

/**
 * Brings two layouts of the same tensor onto one device arrangement and one tensor shape, as
 * MindSpore's {@code RedistributionLayoutTransfer::UnifyDeviceArrangementAndTensorShape} and {@code
 * ReshapeLayoutTransfer} do: first the common refinement of both arrangements, then each tensor
 * shape is split further until both are the same.
 *
 * <p>Result: a pair of layouts with equal {@code dev} and {@code shape}, or {@link #NOT_EXPANDABLE}
 * when there is no such pair (e.g. shapes {@code [6, 4]} and {@code [4, 6]}); the planner then
 * gathers the whole tensor and splits it again. Example: {@code [8]}, map {@code [-1, 0]}, shape
 * {@code [32, 256]} against {@code [4, 2]}, map {@code [-1, 1]} unify to arrangement {@code [4, 2]}
 * and shape {@code [32, 4, 64]} with maps {@code [-1, 1, 0]} and {@code [-1, 1, -1]}.
 */
record LayoutTransfer(ExpandedLayout from, ExpandedLayout to) {

  static final LayoutTransfer NOT_EXPANDABLE = new LayoutTransfer(null, null);

  /** MindSpore's loops have no bound; a pair that does not converge here is treated as stuck. */
  private static final int MAX_STEPS = 64;

  boolean expandable() {
    return from != null;
  }

  static LayoutTransfer unify(ExpandedLayout from, ExpandedLayout to) {
    int[] arrangement = LayoutAlgebra.unifiedShape(from.dev, to.dev);
    if (arrangement == null) {
      return NOT_EXPANDABLE;
    }
    ExpandedLayout f = from.expandDeviceArrangement(arrangement);
    ExpandedLayout t = to.expandDeviceArrangement(arrangement);
    if (f == null || t == null || LayoutAlgebra.expandShape(f.shape, t.shape) == null) {
      return NOT_EXPANDABLE;
    }
    LayoutTransfer out = new LayoutTransfer(f, t);
    for (int step = 0; !Arrays.equals(out.from.shape, out.to.shape); step++) {
      if (step == MAX_STEPS) {
        return NOT_EXPANDABLE;
      }
      LayoutTransfer widerFrom = out.extendFromByTo();
      if (widerFrom == null) {
        return NOT_EXPANDABLE;
      }
      LayoutTransfer swapped = widerFrom.swap().extendFromByTo();
      if (swapped == null) {
        return NOT_EXPANDABLE;
      }
      out = swapped.swap();
    }
    return out;
  }

  private LayoutTransfer swap() {
    return new LayoutTransfer(to, from);
  }

  /**
   * {@code ExtendFromTensorShapeByTo}: refine {@code from}'s shape until {@code to}'s nests in it.
   */
  private LayoutTransfer extendFromByTo() {
    LayoutTransfer out = this;
    for (int step = 0; !out.from.tensorShapeCanBeExpanded(out.to.shape); step++) {
      if (step == MAX_STEPS) {
        return null;
      }
      int[] expanded = LayoutAlgebra.expandShape(out.from.shape, out.to.shape);
      if (expanded == null) {
        return null;
      }
      ExpandedLayout f = out.from.expandTensorShape(expanded);
      if (f == null) {
        return null;
      }
      ExpandedLayout t = out.to.expandDeviceArrangement(f.dev);
      if (t == null || !Arrays.equals(f.dev, t.dev)) {
        return null;
      }
      out = new LayoutTransfer(f, t);
    }
    return out;
  }
}
