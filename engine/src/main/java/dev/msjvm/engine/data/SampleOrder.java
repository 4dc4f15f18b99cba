package dev.msjvm.engine.data;

import java.util.Arrays;
import java.util.List;

/**
 * The sample indices one epoch of a source reads, kept in Java so a 60,000-sample order never
 * crosses into Python as a list.
 *
 * <p>Immutable. Example: {@code SampleOrder.of(10, false, 0, 3, 1, 0).toList()} is {@code [1, 4, 7,
 * 0]} (see {@link Sampling#order}).
 */
public final class SampleOrder {
  private final int[] indices;

  private SampleOrder(int[] indices) {
    this.indices = indices;
  }

  /** The order {@link Sampling#order} gives for these arguments. */
  public static SampleOrder of(
      int n, boolean shuffle, long seed, int numShards, int shardId, int numSamples) {
    return new SampleOrder(Sampling.order(n, shuffle, seed, numShards, shardId, numSamples));
  }

  /** Number of samples in the epoch. */
  public int size() {
    return indices.length;
  }

  /** The index of the {@code k}-th sample read. */
  public int get(int k) {
    return indices[k];
  }

  /** All indices, in reading order. */
  public List<Integer> toList() {
    return Arrays.stream(indices).boxed().toList();
  }
}
