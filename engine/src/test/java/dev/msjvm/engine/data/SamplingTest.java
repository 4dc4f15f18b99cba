package dev.msjvm.engine.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

// Unshuffled shard orders recorded from MnistDataset(shuffle=False, num_shards, shard_id) on
// MindSpore 2.10.0 with 10 samples.
class SamplingTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "0; 3; 0; [0, 3, 6, 9]",
        "0; 3; 1; [1, 4, 7, 0]",
        "0; 3; 2; [2, 5, 8, 1]",
        "4; 2; 1; [1, 3, 5, 7]",
        "4; 0; 0; [0, 1, 2, 3]",
        "0; 0; 0; [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"
      })
  void unshuffledShardsAreStridedAndWrap(int numSamples, int shards, int shard, String expected) {
    assertEquals(
        expected, Arrays.toString(Sampling.order(10, false, 0, shards, shard, numSamples)));
  }

  @Test
  void shuffleIsAPermutationFixedBySeed() {
    int[] a = Sampling.order(100, true, 7, 0, 0, 0);
    assertArrayEquals(a, Sampling.order(100, true, 7, 0, 0, 0));
    assertFalse(Arrays.equals(a, Sampling.order(100, true, 8, 0, 0, 0)));
    assertArrayEquals(IntStream.range(0, 100).toArray(), IntStream.of(a).sorted().toArray());
  }

  @Test
  void shuffledShardsCoverEverySample() {
    int[] seen = new int[12];
    for (int shard = 0; shard < 4; shard++) {
      for (int i : Sampling.order(12, true, 3, 4, shard, 0)) {
        seen[i]++;
      }
    }
    assertArrayEquals(IntStream.generate(() -> 1).limit(12).toArray(), seen);
  }
}
