package dev.msjvm.engine.job;

import dev.msjvm.engine.comm.InJvmWorld;
import dev.msjvm.engine.exec.SharedCompile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One training job: its ranks, the world they form and the communicator they share.
 *
 * <p>All ranks of a job run in this JVM (the default of {@code bin/msrun}). Ranks are numbered
 * {@code nodeRank * localWorkerNum + localIndex}, as msrun numbers them. Example: {@code
 * Job.local("job-1", 8, Duration.ofMinutes(10))} has ranks 0..7, all local.
 */
public final class Job {
  private final String id;
  private final int worldSize;
  private final int localWorkerNum;
  private final int nodeRank;
  private final Duration timeout;
  private final List<Rank> localRanks;
  private final InJvmWorld world;
  private final CompileExchange<SharedCompile> compiles;
  private final SharedFills fills;

  private Job(String id, int worldSize, int localWorkerNum, int nodeRank, Duration timeout) {
    if (worldSize < 1) {
      throw new IllegalArgumentException("worldSize must be >= 1, got " + worldSize);
    }
    if (localWorkerNum < 1 || localWorkerNum > worldSize) {
      throw new IllegalArgumentException(
          "localWorkerNum must be in [1, " + worldSize + "], got " + localWorkerNum);
    }
    this.id = Objects.requireNonNull(id);
    this.worldSize = worldSize;
    this.localWorkerNum = localWorkerNum;
    this.nodeRank = nodeRank;
    this.timeout = Objects.requireNonNull(timeout);
    // One communicator world serves every backend name a script may init with.
    this.world = new InJvmWorld(worldSize, timeout, InJvmWorld.HCCL_WORLD_GROUP);
    world.addWorldGroupAlias("nccl_world_group");
    world.addWorldGroupAlias("mccl_world_group");
    List<Rank> ranks = new ArrayList<>(localWorkerNum);
    for (int i = 0; i < localWorkerNum; i++) {
      ranks.add(new Rank(this, nodeRank * localWorkerNum + i, i));
    }
    this.localRanks = List.copyOf(ranks);
    this.compiles = new CompileExchange<>(localWorkerNum);
    this.fills = new SharedFills(localWorkerNum);
  }

  /** A job whose ranks all run in this JVM. */
  public static Job local(String id, int worldSize, Duration timeout) {
    return new Job(id, worldSize, worldSize, 0, timeout);
  }

  public String id() {
    return id;
  }

  public int worldSize() {
    return worldSize;
  }

  public int localWorkerNum() {
    return localWorkerNum;
  }

  public int nodeRank() {
    return nodeRank;
  }

  public Duration timeout() {
    return timeout;
  }

  /** The ranks that run in this JVM, in rank order. */
  public List<Rank> localRanks() {
    return localRanks;
  }

  /** The in-JVM communicator world of this job's ranks. */
  public InJvmWorld world() {
    return world;
  }

  /** The parallel compiles the local ranks share: one rank traces and plans, the others lower. */
  public CompileExchange<SharedCompile> compiles() {
    return compiles;
  }

  /** The random initializer fills the local ranks make alike, made once. */
  public SharedFills fills() {
    return fills;
  }

  /**
   * Stops the job because {@code failedRank} failed: every rank waiting in (or later entering) a
   * collective gets an error instead of hanging.
   */
  public void abort(int failedRank, Throwable cause) {
    world.abort(failedRank, cause);
  }
}
