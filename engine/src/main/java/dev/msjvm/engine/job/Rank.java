package dev.msjvm.engine.job;

/**
 * One worker of a {@link Job}: its global rank and its index among the workers of its node.
 *
 * <p>Invariant: {@code 0 <= rank < job.worldSize()} and {@code 0 <= localRank <
 * job.localWorkerNum()}. Example: rank 5 of an 8-rank single-node job has local rank 5.
 */
public record Rank(Job job, int rank, int localRank) {
  public Rank {
    if (rank < 0 || rank >= job.worldSize()) {
      throw new IllegalArgumentException("rank " + rank + " outside [0, " + job.worldSize() + ")");
    }
  }

  @Override
  public String toString() {
    return "Rank[" + job.id() + "#" + rank + "]";
  }
}
