package dev.msjvm.engine.data;

import java.util.SplittableRandom;

/**
 * The sample order a MindSpore source op reads: optional shuffle, then the shard of this rank, then
 * the {@code num_samples} cap.
 *
 * <p>Sharding follows MindSpore's {@code DistributedSampler} (mindspore/ccsrc/minddata/dataset/
 * engine/datasetops/source/sampler/distributed_sampler.cc): every shard gets {@code ceil(n /
 * numShards)} samples, shard {@code s} taking positions {@code s, s + numShards, ...} and wrapping
 * past the end. All shards shuffle with the same seed, so together they cover every sample.
 * Shuffled orders are deterministic per seed but differ from MindSpore's (DEVIATIONS.md). Example:
 * {@code order(10, false, 0, 3, 1, 0)} is {@code [1, 4, 7, 0]}.
 */
public final class Sampling {
  private Sampling() {}

  /**
   * The indices one epoch reads; {@code numShards <= 0} means no sharding, {@code numSamples <= 0}
   * no cap.
   */
  public static int[] order(
      int n, boolean shuffle, long seed, int numShards, int shardId, int numSamples) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    if (shuffle) {
      permute(all, seed);
    }
    int[] mine = all;
    if (numShards > 0 && n > 0) {
      int per = (n + numShards - 1) / numShards;
      mine = new int[per];
      for (int k = 0; k < per; k++) {
        mine[k] = all[(int) ((shardId + (long) k * numShards) % n)];
      }
    }
    if (numSamples > 0 && numSamples < mine.length) {
      int[] capped = new int[numSamples];
      System.arraycopy(mine, 0, capped, 0, numSamples);
      return capped;
    }
    return mine;
  }

  /** Fisher-Yates shuffle of {@code a} in place, seeded. */
  public static void permute(int[] a, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = a.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
