package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * One communication group of a job: its world ranks (in the order given at creation) and the
 * rendezvous slots its collective calls meet in.
 *
 * <p>Protocol. Each member numbers its own calls on the group 0, 1, 2, ...; call {@code s} uses
 * slot {@code s % 2}. A call has two phases: in phase 1 every rank publishes its spec and buffer
 * and waits for all; then each rank does its share of the work; in phase 2 it signals that it no
 * longer touches the others' buffers and (where others touch its own) waits for all. A rank that
 * enters call {@code s + 2} has finished {@code s + 1}, whose phase 1 needed every rank to have
 * left call {@code s}, so two slots suffice and a slot is never reset: its counter only grows, and
 * phase k of the u-th use of a slot is complete at {@code n * (2u + k)} arrivals.
 *
 * <p>Waiting spins briefly, then parks; the rank whose arrival completes a phase unparks the
 * others. A timeout or interruption half-way leaves the group unusable ("broken"): its waiters are
 * woken and every later call fails fast. Example: {@code new CommGroup(world, "g", List.of(4, 1))}
 * has ranks {@code [1, 4]}, so world rank 4 is group rank 1.
 */
final class CommGroup {

  /** Busy-wait iterations before parking; short because 8 ranks may share 2 cores. */
  private static final int SPINS = 64;

  final String name;
  private final InJvmWorld world;
  private final int[] worldRanks;
  private final List<Integer> worldRankList;
  private final AtomicLongArray nextSeq;
  private final Slot[] slots;
  private volatile MsException broken;

  /** World ranks that registered this group and have not destroyed it; guarded by the world. */
  final Set<Integer> holders = new TreeSet<>();

  CommGroup(InJvmWorld world, String name, List<Integer> ranks) {
    this.world = world;
    this.name = name;
    this.worldRanks = ranks.stream().mapToInt(Integer::intValue).toArray();
    this.worldRankList = Arrays.stream(worldRanks).boxed().toList();
    this.nextSeq = new AtomicLongArray(worldRanks.length);
    this.slots = new Slot[] {new Slot(worldRanks.length), new Slot(worldRanks.length)};
  }

  int size() {
    return worldRanks.length;
  }

  List<Integer> worldRanks() {
    return worldRankList;
  }

  int worldRank(int groupRank) {
    return worldRanks[groupRank];
  }

  /** The group rank of {@code worldRank}, or -1 if it is not a member. */
  int groupRankOf(int worldRank) {
    return worldRankList.indexOf(worldRank);
  }

  /** Fails fast if the job was aborted or an earlier call on this group failed half-way. */
  void checkUsable(CallSpec spec) {
    if (world.isAborted()) {
      throw world.abortedError(spec + " on group '" + name + "'");
    }
    MsException b = broken;
    if (b != null) {
      throw new MsException(
          b.kind(),
          spec
              + " on group '"
              + name
              + "' failed: an earlier call on this group failed: "
              + b.getMessage(),
          b);
    }
  }

  /** Starts this member's next call on the group. */
  Call begin(int groupRank, CallSpec spec) {
    checkUsable(spec);
    long seq = nextSeq.getAndIncrement(groupRank);
    long now = System.nanoTime();
    return new Call(groupRank, seq, slots[(int) (seq & 1)], spec, now, now + world.timeoutNanos());
  }

  /** Unparks every rank waiting on this group, so it re-checks abort and broken state. */
  void wakeAll() {
    for (Slot slot : slots) {
      slot.wake();
    }
  }

  private void breakWith(MsException e) {
    synchronized (this) {
      if (broken == null) {
        broken = e;
      }
    }
    wakeAll();
  }

  /** State of one rendezvous slot; buffers and specs are published by the counter increment. */
  static final class Slot {
    final AtomicLong arrivals = new AtomicLong();

    /** Per group rank: {@code 2 * seq + phase} of the last phase it arrived at (diagnostics). */
    final AtomicLongArray marks;

    final AtomicReferenceArray<Thread> waiters;
    final CallSpec[] specs;
    final float[][] bufs;
    final int[] offs;

    /** Output buffers of calls that have one apart from the input (an out-of-place AllReduce). */
    final float[][] recvBufs;

    final int[] recvOffs;

    Slot(int n) {
      marks = new AtomicLongArray(n);
      waiters = new AtomicReferenceArray<>(n);
      specs = new CallSpec[n];
      bufs = new float[n][];
      offs = new int[n];
      recvBufs = new float[n][];
      recvOffs = new int[n];
    }

    void wake() {
      for (int i = 0; i < waiters.length(); i++) {
        Thread t = waiters.get(i);
        if (t != null) {
          LockSupport.unpark(t);
        }
      }
    }
  }

  /** One member's side of one collective call. */
  final class Call {
    final int groupRank;
    final long seq;
    final Slot slot;
    final CallSpec spec;
    private final long started;
    private final long deadline;

    Call(int groupRank, long seq, Slot slot, CallSpec spec, long started, long deadline) {
      this.groupRank = groupRank;
      this.seq = seq;
      this.slot = slot;
      this.spec = spec;
      this.started = started;
      this.deadline = deadline;
    }

    int size() {
      return worldRanks.length;
    }

    /** Phase 1: publishes this rank's spec and buffer, waits for all, checks the specs agree. */
    void publishAndMatch(float[] buf, int offset) {
      publishAndMatch(buf, offset, null, 0);
    }

    /** {@link #publishAndMatch(float[], int)} publishing an output buffer too. */
    void publishAndMatch(float[] buf, int offset, float[] recv, int recvOffset) {
      slot.recvBufs[groupRank] = recv;
      slot.recvOffs[groupRank] = recvOffset;
      slot.specs[groupRank] = spec;
      slot.bufs[groupRank] = buf;
      slot.offs[groupRank] = offset;
      arrive(1);
      await(1);
      for (int q = 0; q < size(); q++) {
        if (!spec.equals(slot.specs[q])) {
          // Every member sees the same specs, so all of them take this branch: finishing the
          // phase keeps the slot counters consistent and the group usable.
          String detail = describeCalls();
          arrive(2);
          throw MsException.runtimeError(
              "Mismatched collective calls on group '"
                  + name
                  + "' (call #"
                  + seq
                  + "): "
                  + detail
                  + ". Every member must issue the same collective with the same sizes.");
        }
      }
    }

    /**
     * Phase 2 without waiting: this rank's own buffer is not read by anyone else. Returns the
     * nanoseconds since {@link #begin}.
     */
    long leave() {
      arrive(2);
      return System.nanoTime() - started;
    }

    /**
     * Phase 2: waits until no rank reads or writes any published buffer any more. Returns the
     * nanoseconds since {@link #begin} (waiting for the other members included).
     */
    long finish() {
      arrive(2);
      await(2);
      if (broken != null) {
        // A member left half-way; its buffer may have changed under us.
        checkUsable(spec);
      }
      return System.nanoTime() - started;
    }

    private long target(int phase) {
      return (long) size() * (2 * (seq >> 1) + phase);
    }

    private void arrive(int phase) {
      slot.marks.set(groupRank, 2 * seq + phase);
      if (slot.arrivals.incrementAndGet() == target(phase)) {
        slot.wake();
      }
    }

    private void await(int phase) {
      long target = target(phase);
      if (slot.arrivals.get() >= target) {
        return;
      }
      // Register before re-checking, so an arriving rank either sees us or we see its arrival.
      slot.waiters.set(groupRank, Thread.currentThread());
      try {
        int spins = 0;
        while (slot.arrivals.get() < target) {
          checkUsable(spec);
          if (Thread.currentThread().isInterrupted()) {
            fail(
                MsException.runtimeError(
                    describe(phase) + " was interrupted while waiting for " + missing(phase)));
          }
          long remaining = deadline - System.nanoTime();
          if (remaining <= 0) {
            fail(
                new MsException(
                    MsException.Kind.TIMEOUT_ERROR,
                    describe(phase)
                        + " timed out after "
                        + TimeUnit.NANOSECONDS.toMillis(world.timeoutNanos())
                        + " ms: "
                        + missing(phase)
                        + " did not arrive"));
          }
          if (spins < SPINS) {
            spins++;
            Thread.onSpinWait();
          } else {
            LockSupport.parkNanos(this, remaining);
          }
        }
      } finally {
        slot.waiters.set(groupRank, null);
      }
    }

    private void fail(MsException e) {
      breakWith(e);
      throw e;
    }

    private String describe(int phase) {
      return String.format(
          "%s on group '%s' (call #%d, phase %d) at group rank %d (world rank %d)",
          spec, name, seq, phase, groupRank, worldRanks[groupRank]);
    }

    /** "group ranks [2] (world ranks [5])": members whose mark is below this phase. */
    private String missing(int phase) {
      List<Integer> group = new ArrayList<>();
      List<Integer> worldIds = new ArrayList<>();
      for (int q = 0; q < size(); q++) {
        if (slot.marks.get(q) < 2 * seq + phase) {
          group.add(q);
          worldIds.add(worldRanks[q]);
        }
      }
      return "group ranks " + group + " (world ranks " + worldIds + ")";
    }

    private String describeCalls() {
      StringBuilder sb = new StringBuilder();
      for (int q = 0; q < size(); q++) {
        sb.append(q == 0 ? "" : "; ")
            .append("group rank ")
            .append(q)
            .append(" (world rank ")
            .append(worldRanks[q])
            .append(") called ")
            .append(slot.specs[q]);
      }
      return sb.toString();
    }
  }
}
