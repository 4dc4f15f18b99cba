package dev.msjvm.engine.data;

import dev.msjvm.engine.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * One epoch of {@code MnistDataset -> map(built-in transforms)* -> batch} run entirely in Java, so
 * Python crosses into Java once per batch rather than per sample.
 *
 * <p>Columns are (image, label); {@code transforms.get(c)} is applied in order to column {@code c}
 * of every sample. Example: order [0..59999], image transforms [Rescale, HWC2CHW, TypeCast], batch
 * size 32 and drop_remainder false give 1875 batches of a float32 [32, 1, 28, 28] image tensor and
 * an int32 [32] label tensor. Random transforms draw from one generator seeded with {@code seed}.
 */
public final class MnistBatches {
  private final MnistData data;
  private final SampleOrder order;
  private final List<List<Transform>> transforms;
  private final int batchSize;
  private final boolean dropRemainder;
  private final RandomGenerator rng;
  private int next;

  public MnistBatches(
      MnistData data,
      SampleOrder order,
      List<List<Transform>> transforms,
      int batchSize,
      boolean dropRemainder,
      long seed) {
    this.data = data;
    this.order = order;
    this.transforms = List.copyOf(transforms);
    this.batchSize = batchSize;
    this.dropRemainder = dropRemainder;
    this.rng = new SplittableRandom(seed);
  }

  /** The next batch's columns, or null after the last. */
  public List<Tensor> next() {
    int left = order.size() - next;
    if (left <= 0 || (dropRemainder && left < batchSize)) {
      return null;
    }
    int n = Math.min(batchSize, left);
    List<List<Tensor>> columns = List.of(new ArrayList<>(n), new ArrayList<>(n));
    for (int k = 0; k < n; k++) {
      int i = order.get(next + k);
      columns.get(0).add(apply(0, data.image(i)));
      columns.get(1).add(apply(1, data.label(i)));
    }
    next += n;
    return List.of(Batching.stack(columns.get(0), 0), Batching.stack(columns.get(1), 1));
  }

  private Tensor apply(int column, Tensor x) {
    for (Transform t : transforms.get(column)) {
      List<Tensor> out = t.columns(x, rng);
      if (out.size() != 1) {
        throw PipelineError.mapColumns(out.size(), 1);
      }
      x = out.get(0);
    }
    return x;
  }
}
