package dev.msjvm.frontend.server;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * For a native build (the {@code native} Maven profile): the Java objects Python reaches through
 * the shim's host object are called reflectively by GraalPy, so their classes must be registered.
 * The engine types Python holds (tensors, variables, graphs, tapes, the partitioner's result, the
 * data pipeline's handles) are registered with their public members. Untested here: this machine
 * has no GraalVM native-image (see the README).
 */
@RegisterForReflection(
    targets = {
      dev.msjvm.shim.Host.class,
      dev.msjvm.shim.Host.BoundOp.class,
      dev.msjvm.shim.Host.SinkResult.class,
      dev.msjvm.shim.InitHost.class,
      dev.msjvm.shim.CheckpointHost.class,
      dev.msjvm.shim.DataHost.class,
      dev.msjvm.engine.tensor.Tensor.class,
      dev.msjvm.engine.tensor.Variable.class,
      dev.msjvm.engine.exec.Graph.class,
      dev.msjvm.engine.exec.Tape.class,
      dev.msjvm.engine.exec.SpmdPartitioner.Result.class,
      dev.msjvm.engine.data.MnistBatches.class,
      dev.msjvm.engine.context.AutoParallelContext.class,
      dev.msjvm.engine.job.Session.class,
    })
public final class NativeReflection {
  private NativeReflection() {}
}
