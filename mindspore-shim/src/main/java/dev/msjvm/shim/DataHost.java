package dev.msjvm.shim;

import dev.msjvm.engine.data.Batching;
import dev.msjvm.engine.data.MnistBatches;
import dev.msjvm.engine.data.MnistData;
import dev.msjvm.engine.data.PipelineError;
import dev.msjvm.engine.data.SampleOrder;
import dev.msjvm.engine.data.Transform;
import dev.msjvm.engine.tensor.Tensor;
import java.util.List;

/**
 * What {@code mindspore.dataset} calls: idx decoding, sample orders, built-in transforms and
 * batching, all in Java.
 *
 * <p>Holds no state: every dataset object keeps its own handles. Python builds transforms with
 * {@link #transform} after MindSpore's argument checks. Example: {@code mnistBatches(mnist("/d",
 * "train"), order, [[rescale], []], 32, false)} iterates one epoch in batches of 32.
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
      boolean dropRemainder) {
    return new MnistBatches(data, order, transforms, batchSize, dropRemainder);
  }

  /** The built-in transform {@code name} with its validated arguments. */
  public Transform transform(String name, List<Object> args) {
    return Transform.of(name, args);
  }

  /** {@code x} after {@code transform}. */
  public Tensor apply(Transform transform, Tensor x) {
    return transform.apply(x);
  }

  /** Raises MindSpore's pipeline RuntimeError for {@code reason} (for checks made in Python). */
  public void fail(String reason) {
    throw PipelineError.of(reason);
  }

  /** The values of column {@code column} of a batch's rows, stacked. */
  public Tensor stack(List<Tensor> rows, int column) {
    return Batching.stack(rows, column);
  }
}
