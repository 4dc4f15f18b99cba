package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * The communication state shared by all ranks of one in-JVM job: groups, rendezvous slots,
 * point-to-point mailboxes, the timeout and the abort flag.
 *
 * <p>Invariants: one instance per job and nothing static, so many jobs can share a JVM; the world
 * group (and its aliases) always exists and spans ranks {@code 0..size-1}; once {@link #abort} has
 * been called every waiting rank wakes with a RUNTIME_ERROR naming the failed rank and every later
 * call fails the same way.
 *
 * <p>Example, one thread per rank:
 *
 * <pre>{@code
 * InJvmWorld world = new InJvmWorld(8, Duration.ofMinutes(10), "hccl_world_group");
 * world.addWorldGroupAlias("nccl_world_group");
 * // on rank r's thread:
 * Communicator comm = world.communicator(r);
 * comm.allReduce(grad, ReduceOp.SUM, "nccl_world_group");
 * // launcher, when rank 3's script dies with e:
 * world.abort(3, e);
 * }</pre>
 */
public final class InJvmWorld {

  /** MindSpore's world group name on Ascend; the default here. */
  public static final String HCCL_WORLD_GROUP = "hccl_world_group";

  private final int size;
  private final Duration timeout;
  private final long timeoutNanos;
  private final String worldGroupName;
  private final CommGroup worldGroup;

  /** World group and aliases: visible to every rank without createGroup. */
  private final Map<String, CommGroup> permanent = new ConcurrentHashMap<>();

  /** Groups made by createGroup, by name; guarded by {@code this}. */
  private final Map<String, CommGroup> registered = new HashMap<>();

  private final InJvmCommunicator[] ranks;
  private final Mailbox mailbox = new Mailbox();
  private volatile String abortReason;
  private volatile Throwable abortCause;

  /** A world whose world group is {@value #HCCL_WORLD_GROUP}. */
  public InJvmWorld(int size, Duration timeout) {
    this(size, timeout, HCCL_WORLD_GROUP);
  }

  public InJvmWorld(int size, Duration timeout, String worldGroupName) {
    if (size < 1) {
      throw MsException.valueError("The world size must be at least 1, but got " + size);
    }
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw MsException.valueError("The communication timeout must be positive, got " + timeout);
    }
    checkName(worldGroupName);
    this.size = size;
    this.timeout = timeout;
    this.timeoutNanos = timeout.toNanos();
    this.worldGroupName = worldGroupName;
    this.worldGroup =
        new CommGroup(this, worldGroupName, IntStream.range(0, size).boxed().toList());
    permanent.put(worldGroupName, worldGroup);
    this.ranks = new InJvmCommunicator[size];
    for (int r = 0; r < size; r++) {
      ranks[r] = new InJvmCommunicator(this, r);
    }
  }

  public int size() {
    return size;
  }

  public Duration timeout() {
    return timeout;
  }

  public String worldGroup() {
    return worldGroupName;
  }

  /**
   * Makes {@code alias} (e.g. {@code "nccl_world_group"}) another name of the world group: calls
   * under either name are the same sequence of calls on the same ranks.
   */
  public void addWorldGroupAlias(String alias) {
    checkName(alias);
    synchronized (this) {
      if (registered.containsKey(alias)) {
        throw MsException.valueError(
            "Cannot alias '" + alias + "' to the world group: a group of that name exists");
      }
      permanent.putIfAbsent(alias, worldGroup);
    }
  }

  /** The handle of world rank {@code rank}; the same object on every call. */
  public Communicator communicator(int rank) {
    if (rank < 0 || rank >= size) {
      throw MsException.valueError(
          "Rank " + rank + " is out of range for a world of " + size + " ranks");
    }
    return ranks[rank];
  }

  /**
   * Fails the job's communication because {@code failedRank}'s script died: wakes every waiting
   * rank at once, and every later call fails fast. Only the first abort's reason is kept.
   */
  public void abort(int failedRank, Throwable cause) {
    abort("rank " + failedRank + " failed", cause);
  }

  /** {@link #abort(int, Throwable)} when the failing rank is not known. */
  public void abort(Throwable cause) {
    abort("a rank failed", cause);
  }

  private void abort(String reason, Throwable cause) {
    synchronized (this) {
      if (abortReason != null) {
        return;
      }
      abortCause = cause;
      abortReason = cause == null ? reason : reason + ": " + cause;
    }
    List<CommGroup> groups;
    synchronized (this) {
      groups = new ArrayList<>(registered.values());
    }
    groups.add(worldGroup);
    groups.forEach(CommGroup::wakeAll);
    mailbox.wakeAll();
  }

  public boolean isAborted() {
    return abortReason != null;
  }

  /** The error a call named {@code what} throws once the world is aborted. */
  MsException abortedError(String what) {
    return new MsException(
        MsException.Kind.RUNTIME_ERROR,
        what + " aborted: the job's communication was aborted because " + abortReason,
        abortCause);
  }

  long timeoutNanos() {
    return timeoutNanos;
  }

  Mailbox mailbox() {
    return mailbox;
  }

  /** The world group or one of its aliases, or null. */
  CommGroup permanentGroup(String name) {
    return permanent.get(name);
  }

  /**
   * Registers {@code worldRanks} under {@code name} for {@code rank}; returns the shared group. A
   * group lives until every rank that registered it has destroyed it.
   */
  CommGroup register(int rank, String name, List<Integer> worldRanks) {
    checkName(name);
    if (worldRanks == null || worldRanks.isEmpty()) {
      // MindSpore: management.py create_group; its text says "greater than 1" but accepts 1.
      throw MsException.valueError(
          "For 'create_group', the length of 'rank_ids' must be greater than 0, but got "
              + worldRanks);
    }
    // Group rank i is the i-th rank of the list as given, as MindSpore's collective manager does
    // (create_group("g", [1, 0]) makes world rank 1 group rank 0).
    List<Integer> ordered = new ArrayList<>(worldRanks.size());
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (Integer r : worldRanks) {
      if (r == null || r < 0 || r >= size) {
        throw MsException.valueError(
            "For 'create_group', every rank id must be in [0, "
                + size
                + "), but got "
                + worldRanks);
      }
      if (!seen.add(r)) {
        throw MsException.valueError(
            "For 'create_group', the rank ids must not be duplicated, but got " + worldRanks);
      }
      ordered.add(r);
    }
    synchronized (this) {
      CommGroup existing = permanent.get(name);
      if (existing == null) {
        existing = registered.get(name);
      }
      if (existing != null && !existing.worldRanks().equals(ordered)) {
        throw MsException.valueError(
            "The group '"
                + name
                + "' already exists with ranks "
                + existing.worldRanks()
                + ", cannot create it again with ranks "
                + ordered);
      }
      if (existing == null) {
        existing = new CommGroup(this, name, ordered);
        registered.put(name, existing);
      }
      if (permanent.get(name) == null) {
        existing.holders.add(rank);
      }
      return existing;
    }
  }

  /** Drops {@code rank}'s registration of {@code group}; the last one removes it. */
  synchronized void release(int rank, CommGroup group) {
    group.holders.remove(rank);
    if (group.holders.isEmpty() && registered.get(group.name) == group) {
      registered.remove(group.name);
    }
  }

  private static void checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw MsException.valueError("The group name must be a non-empty string, but got " + name);
    }
  }
}
