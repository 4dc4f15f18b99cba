package dev.msjvm.engine.job;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.comm.Communicator;
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
  private Communicator comm;

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

  /**
   * Joins the job's communicator ({@code init()}); {@code worldGroup} names the backend's world.
   */
  public void commInit(String worldGroup) {
    Communicator c = job().world().communicator(rank.rank());
    c.groupRanks(worldGroup); // fails for an unknown world name before anything is recorded
    comm = c;
  }

  /** Leaves the communicator ({@code release()}). */
  public void commRelease() {
    comm = null;
  }

  /** This rank's communicator; only after {@link #commInit}. */
  public Communicator comm() {
    if (comm == null) {
      throw MsException.runtimeError(
          "Distributed Communication has not been inited."
              + "You can't invoke this interface yet. Please call `init()` method first.");
    }
    return comm;
  }

  /** This rank's index among the members of {@code group} that run on its node. */
  public int localRank(String group) {
    int node = rank.rank() / job().localWorkerNum();
    int index = 0;
    for (int r : comm().groupRanks(group)) {
      if (r == rank.rank()) {
        return index;
      }
      if (r / job().localWorkerNum() == node) {
        index++;
      }
    }
    throw MsException.valueError("rank " + rank.rank() + " is not a member of group " + group);
  }

  /** How many members of {@code group} run on this rank's node. */
  public int localGroupSize(String group) {
    int node = rank.rank() / job().localWorkerNum();
    int count = 0;
    for (int r : comm().groupRanks(group)) {
      if (r / job().localWorkerNum() == node) {
        count++;
      }
    }
    return count;
  }
}
