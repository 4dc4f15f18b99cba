package dev.msjvm.engine.job;

import dev.msjvm.engine.context.AutoParallelContext;
import dev.msjvm.engine.context.Settings;
import java.util.Objects;

/**
 * Everything MindSpore keeps as process-global state, held once per Python interpreter (one rank).
 *
 * <p>MindSpore's "global" contexts are global per process; here many ranks and jobs share one JVM,
 * so each interpreter gets its own Session and nothing lives in statics. Example: two ranks of one
 * job each call {@code set_auto_parallel_context(device_num=8)} on their own Session.
 */
public final class Session {
  private final Rank rank;
  private final AutoParallelContext autoParallel = new AutoParallelContext();
  private final Settings runContext = Settings.runContext();
  private final Settings algoParameters = Settings.algoParameters();
  private final Settings costModel = Settings.costModel();
  private final Settings runtimeMemory = Settings.runtimeMemory();
  private Long seed;

  public Session(Rank rank) {
    this.rank = Objects.requireNonNull(rank);
  }

  public Rank rank() {
    return rank;
  }

  public Job job() {
    return rank.job();
  }

  /** The store behind {@code set_auto_parallel_context}. */
  public AutoParallelContext autoParallelContext() {
    return autoParallel;
  }

  /** The store behind {@code set_context}. */
  public Settings runContext() {
    return runContext;
  }

  /** The store behind {@code set_algo_parameters}. */
  public Settings algoParameters() {
    return algoParameters;
  }

  /** The store behind the cost-model context. */
  public Settings costModel() {
    return costModel;
  }

  /** The store behind {@code mindspore.runtime.set_memory}. */
  public Settings runtimeMemory() {
    return runtimeMemory;
  }

  /** The global seed of {@code set_seed}, or null when none was set. */
  public Long seed() {
    return seed;
  }

  public void setSeed(Long seed) {
    this.seed = seed;
  }
}
