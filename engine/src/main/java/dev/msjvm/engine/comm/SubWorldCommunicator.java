package dev.msjvm.engine.comm;

import java.util.ArrayList;
import java.util.List;

/**
 * A contiguous block of world ranks seen as a world of its own: a pipeline stage's devices. Rank
 * {@code first + i} of the job is rank {@code i} here; groups are created over block ranks and
 * registered on the job's communicator under a name prefixed with the block's, so two stages may
 * both create "redistribution_0_1" (their own ranks 0 and 1) without meeting.
 *
 * <p>Example: stage 1 of a 2-stage pipeline on 8 ranks is {@code of(world, 4, 4)}; world rank 6
 * sees {@code rank() == 2}, {@code size() == 4}, and {@code createGroup("g", [0, 2])} creates the
 * job group over world ranks 4 and 6.
 */
public final class SubWorldCommunicator implements Communicator {
  private final Communicator job;
  private final int first;
  private final int size;
  private final String prefix;
  private final String worldGroup;

  private SubWorldCommunicator(Communicator job, int first, int size) {
    this.job = job;
    this.first = first;
    this.size = size;
    this.prefix = "block_" + first + "_" + size + "/";
    this.worldGroup = prefix + "world";
    List<Integer> ranks = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      ranks.add(first + i);
    }
    job.createGroup(worldGroup, ranks);
  }

  /**
   * The block {@code [first, first + size)} of {@code job}'s world, which must contain {@code
   * job}'s rank; {@code job} itself when the block is the whole world.
   */
  public static Communicator of(Communicator job, int first, int size) {
    if (job.rank() < first || job.rank() >= first + size || first + size > job.size()) {
      throw new IllegalArgumentException(
          "Rank " + job.rank() + " is not in [" + first + ", " + (first + size) + ")");
    }
    return first == 0 && size == job.size() ? job : new SubWorldCommunicator(job, first, size);
  }

  private String name(String group) {
    return group.equals(worldGroup) ? group : prefix + group;
  }

  private List<Integer> toJob(List<Integer> ranks) {
    return ranks.stream().map(r -> r + first).toList();
  }

  @Override
  public int rank() {
    return job.rank() - first;
  }

  @Override
  public long collectiveNanos() {
    return job.collectiveNanos();
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public String worldGroup() {
    return worldGroup;
  }

  @Override
  public void createGroup(String group, List<Integer> worldRanks) {
    if (!group.equals(worldGroup)) {
      job.createGroup(name(group), toJob(worldRanks));
    }
  }

  @Override
  public void destroyGroup(String group) {
    job.destroyGroup(name(group));
  }

  @Override
  public List<Integer> groupRanks(String group) {
    return job.groupRanks(name(group)).stream().map(r -> r - first).toList();
  }

  @Override
  public int groupSize(String group) {
    return job.groupSize(name(group));
  }

  @Override
  public int groupRank(String group) {
    return job.groupRank(name(group));
  }

  @Override
  public int getGroupRankFromWorldRank(int worldRank, String group) {
    return job.getGroupRankFromWorldRank(worldRank + first, name(group));
  }

  @Override
  public int getWorldRankFromGroupRank(String group, int groupRank) {
    return job.getWorldRankFromGroupRank(name(group), groupRank) - first;
  }

  @Override
  public void allReduce(float[] buf, int offset, int count, ReduceOp op, String group) {
    job.allReduce(buf, offset, count, op, name(group));
  }

  @Override
  public void allGather(
      float[] send, int sendOffset, int count, float[] recv, int recvOffset, String group) {
    job.allGather(send, sendOffset, count, recv, recvOffset, name(group));
  }

  @Override
  public void reduceScatter(
      float[] send,
      int sendOffset,
      float[] recv,
      int recvOffset,
      int count,
      ReduceOp op,
      String group) {
    job.reduceScatter(send, sendOffset, recv, recvOffset, count, op, name(group));
  }

  @Override
  public void allToAll(
      float[] send, int sendOffset, float[] recv, int recvOffset, int chunk, String group) {
    job.allToAll(send, sendOffset, recv, recvOffset, chunk, name(group));
  }

  @Override
  public void broadcast(float[] buf, int offset, int count, int root, String group) {
    job.broadcast(buf, offset, count, root, name(group));
  }

  @Override
  public void send(float[] buf, int offset, int count, int dst, int tag, String group) {
    job.send(buf, offset, count, dst, tag, name(group));
  }

  @Override
  public void recv(float[] buf, int offset, int count, int src, int tag, String group) {
    job.recv(buf, offset, count, src, tag, name(group));
  }

  @Override
  public void barrier(String group) {
    job.barrier(name(group));
  }
}
