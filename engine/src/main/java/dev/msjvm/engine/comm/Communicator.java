package dev.msjvm.engine.comm;

import java.util.List;

/**
 * One rank's view of a job's collective communication: MindSpore's {@code mindspore.communication}
 * functions and the HCCL/NCCL collectives over {@code float[]} buffers.
 *
 * <p>Invariants:
 *
 * <ul>
 *   <li>Group rank {@code i} is the {@code i}-th world rank of the list the group was created with,
 *       as in MindSpore ({@code create_group("g", [1, 0])}: world rank 1 is group rank 0).
 *   <li>Calls on one group are matched by their order on that group: the k-th collective a rank
 *       issues on group {@code g} meets the k-th collective of every other member. Every member
 *       must issue the same collective with the same sizes, op and root, otherwise all of them get
 *       an {@link dev.msjvm.engine.MsException} (RUNTIME_ERROR) naming each rank's call. A rank
 *       issues calls on one group from one thread at a time; different groups may run concurrently.
 *   <li>Results are bitwise identical on every rank and every run (see {@link ReduceOp}).
 *   <li>Every wait is bounded by the job's timeout (TIMEOUT_ERROR naming the missing ranks), ends
 *       at once when the job is aborted or the thread interrupted (RUNTIME_ERROR), and a group on
 *       which a call failed half-way fails fast afterwards.
 *   <li>Sizes are element counts. A call returns only when the rank's own buffers are free again.
 * </ul>
 *
 * <p>Example, data-parallel gradient averaging on 8 ranks, each on its own thread:
 *
 * <pre>{@code
 * Communicator comm = world.communicator(rank);
 * comm.allReduce(grad, ReduceOp.SUM, comm.worldGroup()); // grad now holds the sum on all ranks
 * comm.createGroup("dp_0_2", List.of(0, 2));          // called by rank 0 and rank 2
 * comm.getGroupRankFromWorldRank(2, "dp_0_2");         // 1
 * }</pre>
 */
public interface Communicator {

  /** This rank's world rank (MindSpore {@code get_rank()}). */
  int rank();

  /**
   * Wall time this rank has spent inside collectives so far (waiting for peers included), in
   * nanoseconds; -1 where the communicator does not measure it.
   */
  default long collectiveNanos() {
    return -1;
  }

  /** Number of ranks in the job (MindSpore {@code get_group_size()}). */
  int size();

  /** Name of the world group, e.g. {@code "hccl_world_group"}. */
  String worldGroup();

  /**
   * Registers {@code group} over {@code worldRanks} for this rank; every member calls it (as in
   * MindSpore). The same name with the same ranks again is a no-op; different ranks are a
   * VALUE_ERROR.
   */
  void createGroup(String group, List<Integer> worldRanks);

  /** Forgets {@code group} on this rank; the world group and its aliases cannot be destroyed. */
  void destroyGroup(String group);

  /** The group's world ranks, in group-rank order. */
  List<Integer> groupRanks(String group);

  /** MindSpore {@code get_group_size(group)}. */
  int groupSize(String group);

  /** This rank's rank inside {@code group} (MindSpore {@code get_rank(group)}). */
  int groupRank(String group);

  /** MindSpore {@code get_group_rank_from_world_rank(world_rank_id, group)}. */
  int getGroupRankFromWorldRank(int worldRank, String group);

  /** MindSpore {@code get_world_rank_from_group_rank(group, group_rank_id)}. */
  int getWorldRankFromGroupRank(String group, int groupRank);

  /** In place: {@code buf[offset, offset+count)} becomes the reduction over the group. */
  void allReduce(float[] buf, int offset, int count, ReduceOp op, String group);

  /**
   * Out of place: {@code recv[recvOffset, +count)} becomes the reduction over the group of every
   * rank's {@code send[sendOffset, +count)}; {@code send} is left as it was (unless it is {@code
   * recv} at the same offset: then this is the in-place call).
   */
  default void allReduce(
      float[] send,
      int sendOffset,
      float[] recv,
      int recvOffset,
      int count,
      ReduceOp op,
      String group) {
    if (send != recv || sendOffset != recvOffset) {
      System.arraycopy(send, sendOffset, recv, recvOffset, count);
    }
    allReduce(recv, recvOffset, count, op, group);
  }

  default void allReduce(float[] buf, ReduceOp op, String group) {
    allReduce(buf, 0, buf.length, op, group);
  }

  /**
   * {@code recv[recvOffset + g*count, +count)} receives group rank g's {@code send[sendOffset,
   * +count)}, for every g in group-rank order.
   */
  void allGather(
      float[] send, int sendOffset, int count, float[] recv, int recvOffset, String group);

  /** Whole arrays: {@code recv.length} must be {@code send.length * groupSize}. */
  default void allGather(float[] send, float[] recv, String group) {
    CallSpec.wholeArrays("AllGather", recv.length, (long) send.length * groupSize(group), group);
    allGather(send, 0, send.length, recv, 0, group);
  }

  /**
   * {@code recv[recvOffset, +count)} receives the reduction over the group of every rank's chunk
   * {@code send[sendOffset + r*count, +count)}, where r is this rank's group rank.
   */
  void reduceScatter(
      float[] send,
      int sendOffset,
      float[] recv,
      int recvOffset,
      int count,
      ReduceOp op,
      String group);

  /** Whole arrays: {@code send.length} must be {@code recv.length * groupSize}. */
  default void reduceScatter(float[] send, float[] recv, ReduceOp op, String group) {
    CallSpec.wholeArrays(
        "ReduceScatter", send.length, (long) recv.length * groupSize(group), group);
    reduceScatter(send, 0, recv, 0, recv.length, op, group);
  }

  /**
   * Chunk g of this rank's {@code recv} (each {@code chunk} elements) receives chunk r of group
   * rank g's {@code send}, where r is this rank's group rank.
   */
  void allToAll(
      float[] send, int sendOffset, float[] recv, int recvOffset, int chunk, String group);

  /** Whole arrays of equal length, divisible by the group size. */
  default void allToAll(float[] send, float[] recv, String group) {
    int n = groupSize(group);
    CallSpec.wholeArrays("AllToAll", recv.length, send.length, group);
    CallSpec.wholeArrays("AllToAll", send.length, (long) send.length / n * n, group);
    allToAll(send, 0, recv, 0, send.length / n, group);
  }

  /** Every rank's {@code buf[offset, +count)} receives the one of group rank {@code root}. */
  void broadcast(float[] buf, int offset, int count, int root, String group);

  default void broadcast(float[] buf, int root, String group) {
    broadcast(buf, 0, buf.length, root, group);
  }

  /**
   * Sends {@code buf[offset, +count)} to group rank {@code dst}; buffered (the data is copied), so
   * it never blocks. Messages with the same (src, dst, tag, group) arrive in send order.
   */
  void send(float[] buf, int offset, int count, int dst, int tag, String group);

  default void send(float[] buf, int dst, int tag, String group) {
    send(buf, 0, buf.length, dst, tag, group);
  }

  /**
   * Waits for the oldest message from group rank {@code src} with {@code tag} and copies it into
   * {@code buf[offset, +count)}; its length must be {@code count}.
   */
  void recv(float[] buf, int offset, int count, int src, int tag, String group);

  default void recv(float[] buf, int src, int tag, String group) {
    recv(buf, 0, buf.length, src, tag, group);
  }

  /** Returns once every member of {@code group} has entered this barrier. */
  void barrier(String group);
}
