package dev.msjvm.shim;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.data.Batching;
import dev.msjvm.engine.data.Cifar10Data;
import dev.msjvm.engine.data.MnistBatches;
import dev.msjvm.engine.data.MnistData;
import dev.msjvm.engine.data.PipelineError;
import dev.msjvm.engine.data.SampleOrder;
import dev.msjvm.engine.data.Transform;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * What {@code mindspore.dataset} calls: idx decoding, sample orders, built-in transforms and
 * batching, all in Java.
 *
 * <p>Holds no state: every dataset object keeps its own handles. Python builds transforms with
 * {@link #transform} after MindSpore's argument checks. Example: {@code mnistBatches(mnist("/d",
 * "train"), order, [[rescale], []], 32, false, seed)} iterates one epoch in batches of 32.
 */
public final class DataHost {
  private final FilePolicy policy;

  /** Files through {@code policy} (resolved against the interpreter's directory, checked). */
  public DataHost(FilePolicy policy) {
    this.policy = policy;
  }

  /** The samples of the MNIST idx files of {@code usage} under {@code dir}. */
  public MnistData mnist(String dir, String usage) {
    return MnistData.read(policy.read(dir), usage);
  }

  /**
   * The number of samples of the CIFAR-10 files of {@code usage} under {@code dir}, as MindSpore
   * counts them (10,000 a file); MindSpore's error when the folder has no {@code .bin} file.
   */
  public int cifar10Count(String dir, String usage) {
    return Cifar10Data.count(policy.read(dir), dir, usage);
  }

  /** The samples of the CIFAR-10 files of {@code usage} under {@code dir}. */
  public Cifar10Data cifar10(String dir, String usage) {
    return Cifar10Data.read(policy.read(dir), dir, usage);
  }

  /** The {@code k}-th sample of {@code order} in {@code data}, as [image, label]. */
  public List<Tensor> cifar10Sample(Cifar10Data data, SampleOrder order, int k) {
    return data.sample(order.get(k));
  }

  /** The {@code k}-th sample of {@code order} in {@code data}, as [image, label]. */
  public List<Tensor> mnistSample(MnistData data, SampleOrder order, int k) {
    return data.sample(order.get(k));
  }

  /** One epoch's sample order (see {@link SampleOrder#of}). */
  public SampleOrder order(
      int n, boolean shuffle, long seed, int numShards, int shardId, int numSamples) {
    return SampleOrder.of(n, shuffle, seed, numShards, shardId, numSamples);
  }

  /** A batch iterator over {@code data} in {@code order} with per-column transforms. */
  public MnistBatches mnistBatches(
      MnistData data,
      SampleOrder order,
      List<List<Transform>> transforms,
      int batchSize,
      boolean dropRemainder,
      long seed) {
    return new MnistBatches(data, order, transforms, batchSize, dropRemainder, seed);
  }

  /** The built-in transform {@code name} with its validated arguments. */
  public Transform transform(String name, List<Object> args) {
    return Transform.of(name, args);
  }

  /** {@code x} after {@code transform}. */
  public Tensor apply(Transform transform, Tensor x) {
    return transform.apply(x);
  }

  /** The columns {@code transform} makes of {@code x}, random draws from {@code rng} (or none). */
  public List<Tensor> columns(Transform transform, Tensor x, RandomGenerator rng) {
    return transform.columns(x, rng);
  }

  /** As {@link #columns}, inside a map: a failure names the transform {@code op} as MindSpore's. */
  public List<Tensor> mapColumns(Transform transform, String op, Tensor x, RandomGenerator rng) {
    try {
      return transform.columns(x, rng);
    } catch (MsException e) {
      throw PipelineError.inMap(op, e);
    }
  }

  /** Whether {@code transform} draws random numbers. */
  public boolean isRandom(Transform transform) {
    return transform.random();
  }

  /** A random generator for the random transforms of one epoch, seeded from the dataset seed. */
  public RandomGenerator random(long seed) {
    return new SplittableRandom(seed);
  }

  /** Raises MindSpore's pipeline RuntimeError for {@code reason} (for checks made in Python). */
  public void fail(String reason) {
    throw PipelineError.of(reason);
  }

  /** Raises MindSpore's error for a map whose operations give {@code got} of {@code expected}. */
  public void failMapColumns(int got, int expected) {
    throw PipelineError.mapColumns(got, expected);
  }

  /** The values of column {@code column} of a batch's rows, stacked. */
  public Tensor stack(List<Tensor> rows, int column) {
    return Batching.stack(rows, column);
  }
}
