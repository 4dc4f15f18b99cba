package dev.msjvm.engine.comm;

import java.time.Duration;
import java.util.List;

/**
 * One rank of a cluster that is not there: MindSpore's dry run ({@code MS_SIMULATION_LEVEL}). It
 * knows its rank, the world's size and the groups created, with the same checks and messages as a
 * real communicator, but its collectives move no data (the buffers keep what they held) and never
 * wait: a script compiles and "runs" for a cluster of any size in one process. It counts the calls
 * and bytes each collective would move and the time they would take on the cluster's links ({@link
 * LinkModel}): what a dry run at level 3 adds to the compute it measures to predict a step.
 *
 * <p>Example: {@code SimulatedCommunicator.of(1024, 17, "hccl_world_group")} plans rank 17 of 1024.
 */
public final class SimulatedCommunicator implements Communicator {
  private final Communicator groups;
  private final LinkModel link;
  private long calls;
  private long bytes;
  private double seconds;

  private SimulatedCommunicator(Communicator groups, LinkModel link) {
    this.groups = groups;
    this.link = link;
  }

  /**
   * Rank {@code rank} of a simulated world of {@code size} ranks whose world group is {@code
   * worldGroup}; {@code aliases} are other names of the world group.
   */
  public static SimulatedCommunicator of(int size, int rank, String worldGroup, String... aliases) {
    return of(size, rank, LinkModel.IN_JVM, worldGroup, aliases);
  }

  /** {@link #of(int, int, String, String...)} whose collectives are timed by {@code link}. */
  public static SimulatedCommunicator of(
      int size, int rank, LinkModel link, String worldGroup, String... aliases) {
    InJvmWorld world = new InJvmWorld(size, Duration.ofSeconds(1), worldGroup);
    for (String alias : aliases) {
      world.addWorldGroupAlias(alias);
    }
    return new SimulatedCommunicator(world.communicator(rank), link);
  }

  /** The links the collectives are timed on. */
  public LinkModel link() {
    return link;
  }

  /** The seconds this rank's collectives would have taken so far ({@link LinkModel}). */
  public double seconds() {
    return seconds;
  }

  /** The collectives called so far (none of them moved anything). */
  public long calls() {
    return calls;
  }

  /** The bytes this rank's collectives would have sent so far. */
  public long bytes() {
    return bytes;
  }

  /**
   * One call of {@code kind} over {@code group}: {@code sent} float32 elements leave this rank, the
   * whole buffer the link model prices has {@code buffer} elements.
   */
  private void count(LinkModel.Kind kind, String group, long sent, long buffer) {
    int n = groups.groupSize(group); // the group must exist, as for a real call
    calls++;
    bytes += 4 * sent;
    seconds += link.seconds(kind, 4 * buffer, n);
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
    count(LinkModel.Kind.ALL_REDUCE, group, count, count);
  }

  @Override
  public void allGather(
      float[] send, int sendOffset, int count, float[] recv, int recvOffset, String group) {
    count(LinkModel.Kind.ALL_GATHER, group, count, (long) count * groups.groupSize(group));
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
    long whole = (long) count * groups.groupSize(group);
    count(LinkModel.Kind.REDUCE_SCATTER, group, whole, whole);
  }

  @Override
  public void allToAll(
      float[] send, int sendOffset, float[] recv, int recvOffset, int chunk, String group) {
    long whole = (long) chunk * groups.groupSize(group);
    count(LinkModel.Kind.ALL_TO_ALL, group, whole, whole);
  }

  @Override
  public void broadcast(float[] buf, int offset, int count, int root, String group) {
    count(LinkModel.Kind.BROADCAST, group, count, count);
  }

  @Override
  public void send(float[] buf, int offset, int count, int dst, int tag, String group) {
    count(LinkModel.Kind.SEND, group, count, count);
  }

  @Override
  public void recv(float[] buf, int offset, int count, int src, int tag, String group) {
    count(LinkModel.Kind.RECV, group, 0, count);
  }

  @Override
  public void barrier(String group) {
    count(LinkModel.Kind.BARRIER, group, 0, 0);
  }
}
