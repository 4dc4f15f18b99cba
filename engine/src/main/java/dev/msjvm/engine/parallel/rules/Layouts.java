package dev.msjvm.engine.parallel.rules;

import dev.msjvm.engine.parallel.TensorLayout;

/** Comparisons of layouts that the graph partitioner needs. */
public final class Layouts {
  private Layouts() {}

  /**
   * Whether every rank holds the same slice under {@code a} and {@code b} (same ranks, same shape):
   * then moving from one to the other needs no redistribution, even if their device matrices differ
   * (e.g. {@code [2, 4]} map {@code [1, -1]} and {@code [2, 1, 4]} map {@code [2, 1]}).
   */
  public static boolean sameSlices(TensorLayout a, TensorLayout b) {
    if (!a.shape().equals(b.shape())
        || !a.deviceMatrix().rankList().equals(b.deviceMatrix().rankList())) {
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
