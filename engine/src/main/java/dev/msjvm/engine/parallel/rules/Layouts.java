package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.parallel.TensorLayout;
import java.util.HashSet;
import java.util.List;

/** Comparisons of layouts that the graph partitioner needs. */
public final class Layouts {
  private Layouts() {}

  /**
   * Whether every rank holds the same slice under {@code a} and {@code b} (same ranks, same shape):
   * then moving from one to the other needs no redistribution, even if their device matrices differ
   * (e.g. {@code [2, 4]} map {@code [1, -1]} and {@code [2, 1, 4]} map {@code [2, 1]}).
   */
  public static boolean sameSlices(TensorLayout a, TensorLayout b) {
    List<Integer> ranks = a.deviceMatrix().rankList();
    List<Integer> others = b.deviceMatrix().rankList();
    // The same ranks, in whatever order the two device matrices list them.
    if (!a.shape().equals(b.shape())
        || ranks.size() != others.size()
        || !(ranks.equals(others) || new HashSet<>(ranks).equals(new HashSet<>(others)))) {
      return false;
    }
    for (int r : a.deviceMatrix().rankList()) {
      if (!a.sliceRanges(r).equals(b.sliceRanges(r))) {
        return false;
      }
    }
    return true;
  }
}
