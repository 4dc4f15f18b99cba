package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One rank's {@link Communicator} over an {@link InJvmWorld}: collectives work on the other ranks'
 * published buffers directly (no intermediate copies), each rank doing its own share.
 *
 * <p>Invariants: the groups a rank sees are the world group, its aliases and the groups this rank
 * created and has not destroyed (MindSpore's per-process view); buffers passed by different ranks
 * must be distinct arrays or disjoint ranges; after a call fails, the contents of its buffers are
 * undefined (as with NCCL). Example: see {@link Communicator}.
 */
final class InJvmCommunicator implements Communicator {

  private final InJvmWorld world;
  private final int rank;
  private final Map<String, CommGroup> created = new ConcurrentHashMap<>();

  InJvmCommunicator(InJvmWorld world, int rank) {
    this.world = world;
    this.rank = rank;
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public int size() {
    return world.size();
  }

  @Override
  public String worldGroup() {
    return world.worldGroup();
  }

  // ---- groups ----

  @Override
  public void createGroup(String group, List<Integer> worldRanks) {
    CommGroup g = world.register(rank, group, worldRanks);
    if (world.permanentGroup(group) == null) {
      created.put(group, g);
    }
  }

  @Override
  public void destroyGroup(String group) {
    if (group != null && world.permanentGroup(group) != null) {
      // MindSpore: management.py destroy_group refuses the world group.
      throw MsException.valueError(
          "For 'destroy_group', the group cannot be the world group '" + group + "'");
    }
    CommGroup g = group == null ? null : created.remove(group);
    if (g == null) {
      throw notCreated(group);
    }
    world.release(rank, g);
  }

  @Override
  public List<Integer> groupRanks(String group) {
    return lookup(group).worldRanks();
  }

  @Override
  public int groupSize(String group) {
    return lookup(group).size();
  }

  @Override
  public int groupRank(String group) {
    return getGroupRankFromWorldRank(rank, group);
  }

  @Override
  public int getGroupRankFromWorldRank(int worldRank, String group) {
    CommGroup g = lookup(group);
    int r = g.groupRankOf(worldRank);
    if (r < 0) {
      throw MsException.valueError(
          "The world rank " + worldRank + " is not in group '" + group + "' " + g.worldRanks());
    }
    return r;
  }

  @Override
  public int getWorldRankFromGroupRank(String group, int groupRank) {
    CommGroup g = lookup(group);
    if (groupRank < 0 || groupRank >= g.size()) {
      throw MsException.valueError(
          "The group rank "
              + groupRank
              + " is out of range for group '"
              + group
              + "' of size "
              + g.size());
    }
    return g.worldRank(groupRank);
  }

  private CommGroup lookup(String group) {
    CommGroup g = group == null ? null : world.permanentGroup(group);
    if (g == null && group != null) {
      g = created.get(group);
    }
    if (g == null) {
      throw notCreated(group);
    }
    return g;
  }

  private MsException notCreated(String group) {
    return MsException.valueError(
        "The group '"
            + group
            + "' has not been created on rank "
            + rank
            + " (call create_group on every member rank first)");
  }

  /** This rank's group rank in {@code g}, or VALUE_ERROR naming the call. */
  private int member(CommGroup g, CallSpec spec) {
    int r = g.groupRankOf(rank);
    if (r < 0) {
      throw MsException.valueError(
          spec
              + ": world rank "
              + rank
              + " is not a member of group '"
              + g.name
              + "' "
              + g.worldRanks());
    }
    return r;
  }

  // ---- collectives ----

  /** Wall time this rank spent inside collectives (waiting for peers included), in nanoseconds. */
  private long collectiveNanos;

  @Override
  public long collectiveNanos() {
    return collectiveNanos;
  }

  @Override
  public void allReduce(float[] buf, int offset, int count, ReduceOp op, String group) {
    allReduce(buf, offset, buf, offset, count, op, group);
  }

  @Override
  public void allReduce(
      float[] send,
      int sendOffset,
      float[] recv,
      int recvOffset,
      int count,
      ReduceOp op,
      String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("AllReduce", requireOp(op), count, -1);
    spec.checkRange(group, "send", send, sendOffset, count);
    spec.checkRange(group, "recv", recv, recvOffset, count);
    int gr = member(g, spec);
    int n = g.size();
    if (n == 1) {
      g.checkUsable(spec);
      if (send != recv || sendOffset != recvOffset) {
        System.arraycopy(send, sendOffset, recv, recvOffset, count);
      }
      return;
    }
    boolean inPlace = send == recv && sendOffset == recvOffset;
    if (!inPlace && CallSpec.overlaps(send, sendOffset, count, recv, recvOffset, count)) {
      send = copyOf(send, sendOffset, count);
      sendOffset = 0;
    }
    CommGroup.Call call = g.begin(gr, spec);
    call.publishAndMatch(send, sendOffset, recv, recvOffset);
    // This rank alone owns elements [lo, hi): it reads them from every rank's input, folds them
    // and writes the result into every rank's output (which may be the input), so no scratch and
    // no third barrier are needed.
    int lo = chunkStart(count, n, gr);
    int hi = chunkStart(count, n, gr + 1);
    op.foldInto(
        call.slot.bufs, call.slot.offs, call.slot.recvBufs, call.slot.recvOffs, n, lo, hi - lo);
    collectiveNanos += call.finish(); // our output is complete once every rank wrote its share
  }

  @Override
  public void allGather(
      float[] send, int sendOffset, int count, float[] recv, int recvOffset, String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("AllGather", null, count, -1);
    int n = g.size();
    spec.checkRange(group, "send", send, sendOffset, count);
    spec.checkRange(group, "recv", recv, recvOffset, (long) n * count);
    int gr = member(g, spec);
    if (n == 1) {
      g.checkUsable(spec);
      System.arraycopy(send, sendOffset, recv, recvOffset, count);
      return;
    }
    if (CallSpec.overlaps(send, sendOffset, count, recv, recvOffset, (long) n * count)) {
      send = copyOf(send, sendOffset, count);
      sendOffset = 0;
    }
    CommGroup.Call call = g.begin(gr, spec);
    call.publishAndMatch(send, sendOffset);
    for (int i = 0; i < n; i++) {
      int q = (gr + i) % n; // staggered, so ranks do not all stream the same source at once
      System.arraycopy(call.slot.bufs[q], call.slot.offs[q], recv, recvOffset + q * count, count);
    }
    collectiveNanos += call.finish();
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
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("ReduceScatter", requireOp(op), count, -1);
    int n = g.size();
    spec.checkRange(group, "send", send, sendOffset, (long) n * count);
    spec.checkRange(group, "recv", recv, recvOffset, count);
    int gr = member(g, spec);
    if (n == 1) {
      g.checkUsable(spec);
      System.arraycopy(send, sendOffset, recv, recvOffset, count);
      return;
    }
    if (CallSpec.overlaps(send, sendOffset, (long) n * count, recv, recvOffset, count)) {
      send = copyOf(send, sendOffset, n * count);
      sendOffset = 0;
    }
    CommGroup.Call call = g.begin(gr, spec);
    call.publishAndMatch(send, sendOffset);
    op.fold(call.slot.bufs, call.slot.offs, n, gr * count, count, recv, recvOffset);
    collectiveNanos += call.finish();
  }

  @Override
  public void allToAll(
      float[] send, int sendOffset, float[] recv, int recvOffset, int chunk, String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("AllToAll", null, chunk, -1);
    int n = g.size();
    long total = (long) n * chunk;
    spec.checkRange(group, "send", send, sendOffset, total);
    spec.checkRange(group, "recv", recv, recvOffset, total);
    int gr = member(g, spec);
    if (n == 1) {
      g.checkUsable(spec);
      System.arraycopy(send, sendOffset, recv, recvOffset, chunk);
      return;
    }
    if (CallSpec.overlaps(send, sendOffset, total, recv, recvOffset, total)) {
      send = copyOf(send, sendOffset, (int) total);
      sendOffset = 0;
    }
    CommGroup.Call call = g.begin(gr, spec);
    call.publishAndMatch(send, sendOffset);
    for (int q = 0; q < n; q++) {
      System.arraycopy(
          call.slot.bufs[q], call.slot.offs[q] + gr * chunk, recv, recvOffset + q * chunk, chunk);
    }
    collectiveNanos += call.finish();
  }

  @Override
  public void broadcast(float[] buf, int offset, int count, int root, String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("Broadcast", null, count, root);
    spec.checkRange(group, "buffer", buf, offset, count);
    int n = g.size();
    if (root < 0 || root >= n) {
      throw MsException.valueError(
          spec + ": root must be a group rank in [0, " + n + ") of group '" + group + "'");
    }
    int gr = member(g, spec);
    if (n == 1) {
      g.checkUsable(spec);
      return;
    }
    CommGroup.Call call = g.begin(gr, spec);
    call.publishAndMatch(buf, offset);
    if (gr == root) {
      collectiveNanos += call.finish(); // the others read our buffer until they all arrive
    } else {
      System.arraycopy(call.slot.bufs[root], call.slot.offs[root], buf, offset, count);
      collectiveNanos += call.leave();
    }
  }

  @Override
  public void barrier(String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("Barrier", null, 0, -1);
    int gr = member(g, spec);
    if (g.size() == 1) {
      g.checkUsable(spec);
      return;
    }
    CommGroup.Call call = g.begin(gr, spec);
    call.publishAndMatch(null, 0);
    collectiveNanos += call.leave();
  }

  // ---- point to point ----

  @Override
  public void send(float[] buf, int offset, int count, int dst, int tag, String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("Send", null, count, -1);
    spec.checkRange(group, "buffer", buf, offset, count);
    member(g, spec);
    Mailbox.Key key = new Mailbox.Key(g.name, rank, g.worldRank(peer(g, spec, dst, "dst")), tag);
    g.checkUsable(spec);
    world.mailbox().post(key, copyOf(buf, offset, count));
  }

  @Override
  public void recv(float[] buf, int offset, int count, int src, int tag, String group) {
    CommGroup g = lookup(group);
    CallSpec spec = new CallSpec("Receive", null, count, -1);
    spec.checkRange(group, "buffer", buf, offset, count);
    int gr = member(g, spec);
    int srcWorld = g.worldRank(peer(g, spec, src, "src"));
    Mailbox.Key key = new Mailbox.Key(g.name, srcWorld, rank, tag);
    g.checkUsable(spec);
    float[] m =
        world
            .mailbox()
            .take(
                key,
                world.timeoutNanos(),
                world,
                () ->
                    String.format(
                        "%s from group rank %d, tag %d on group '%s' at group rank %d (world rank"
                            + " %d)",
                        spec, src, tag, g.name, gr, rank));
    if (m.length != count) {
      throw MsException.runtimeError(
          String.format(
              "%s from group rank %d, tag %d on group '%s': the matching Send sent %d elements,"
                  + " expected %d",
              spec, src, tag, g.name, m.length, count));
    }
    System.arraycopy(m, 0, buf, offset, count);
  }

  private static int peer(CommGroup g, CallSpec spec, int peer, String what) {
    if (peer < 0 || peer >= g.size()) {
      throw MsException.valueError(
          spec
              + ": "
              + what
              + " must be a group rank in [0, "
              + g.size()
              + ") of group '"
              + g.name
              + "', but got "
              + peer);
    }
    return peer;
  }

  // ---- small helpers ----

  private static ReduceOp requireOp(ReduceOp op) {
    if (op == null) {
      throw MsException.valueError("The reduce op must be one of " + List.of(ReduceOp.values()));
    }
    return op;
  }

  /** Start of group rank r's share of {@code count} elements split as evenly as possible. */
  static int chunkStart(int count, int n, int r) {
    return (int) ((long) count * r / n);
  }

  private static float[] copyOf(float[] a, int offset, int count) {
    float[] c = new float[count];
    System.arraycopy(a, offset, c, 0, count);
    return c;
  }
}
