package dev.msjvm.engine.comm;

import java.time.Duration;
import java.util.List;

/**
 * One rank of a cluster that is not there: MindSpore's dry run ({@code MS_SIMULATION_LEVEL}). It
 * knows its rank, the world's size and the groups created, with the same checks and messages as a
 * real communicator, but its collectives move no data (the buffers keep what they held) and never
 * wait: a script compiles and "runs" for a cluster of any size in one process. It counts the calls
 * and bytes each collective would move, for a cost model.
 *
 * <p>Example: {@code SimulatedCommunicator.of(1024, 17, "hccl_world_group")} plans rank 17 of 1024.
 */
public final class SimulatedCommunicator implements Communicator {
  private final Communicator groups;
  private long calls;
  private long bytes;

  private SimulatedCommunicator(Communicator groups) {
    this.groups = groups;
  }

  /**
   * Rank {@code rank} of a simulated world of {@code size} ranks whose world group is {@code
   * worldGroup}; {@code aliases} are other names of the world group.
   */
  public static SimulatedCommunicator of(int size, int rank, String worldGroup, String... aliases) {
    InJvmWorld world = new InJvmWorld(size, Duration.ofSeconds(1), worldGroup);
    for (String alias : aliases) {
      world.addWorldGroupAlias(alias);
    }
    return new SimulatedCommunicator(world.communicator(rank));
  }

  /** The collectives called so far (none of them moved anything). */
  public long calls() {
    return calls;
  }

  /** The bytes this rank's collectives would have sent so far. */
  public long bytes() {
    return bytes;
  }

  private void count(String group, long elements) {
    groups.groupSize(group); // the group must exist, as for a real call
    calls++;
    bytes += 4 * elements;
  }

  @Override
  public int rank() {
    return groups.rank();
  }

  @Override
  public int size() {
    return groups.size();
  }

  @Override
  public String worldGroup() {
    return groups.worldGroup();
  }

  @Override
  public void createGroup(String group, List<Integer> worldRanks) {
    groups.createGroup(group, worldRanks);
  }

  @Override
  public void destroyGroup(String group) {
    groups.destroyGroup(group);
  }

  @Override
  public List<Integer> groupRanks(String group) {
    return groups.groupRanks(group);
  }

  @Override
  public int groupSize(String group) {
    return groups.groupSize(group);
  }

  @Override
  public int groupRank(String group) {
    return groups.groupRank(group);
  }

  @Override
  public int getGroupRankFromWorldRank(int worldRank, String group) {
    return groups.getGroupRankFromWorldRank(worldRank, group);
  }

  @Override
  public int getWorldRankFromGroupRank(String group, int groupRank) {
    return groups.getWorldRankFromGroupRank(group, groupRank);
  }

  @Override
  public void allReduce(float[] buf, int offset, int count, ReduceOp op, String group) {
    count(group, count);
  }

  @Override
  public void allGather(
      float[] send, int sendOffset, int count, float[] recv, int recvOffset, String group) {
    count(group, count);
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
    count(group, (long) count * groups.groupSize(group));
  }

  @Override
  public void allToAll(
      float[] send, int sendOffset, float[] recv, int recvOffset, int chunk, String group) {
    count(group, (long) chunk * groups.groupSize(group));
  }

  @Override
  public void broadcast(float[] buf, int offset, int count, int root, String group) {
    count(group, count);
  }

  @Override
  public void send(float[] buf, int offset, int count, int dst, int tag, String group) {
    count(group, count);
  }

  @Override
  public void recv(float[] buf, int offset, int count, int src, int tag, String group) {
    count(group, 0);
  }

  @Override
  public void barrier(String group) {
    count(group, 0);
  }
}
