package dev.msjvm.engine.comm;

import dev.msjvm.engine.MsException;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Point-to-point messages of one job, queued per (group, source, destination, tag).
 *
 * <p>Invariants: sends are buffered copies and never block, so pipeline schedules in which both
 * neighbours send before they receive cannot deadlock; messages with the same key are received in
 * send order. Example: rank 0 sends {@code [1, 2]} then {@code [3]} with tag 7 to rank 1; rank 1's
 * two receives from (0, tag 7) get {@code [1, 2]} then {@code [3]}.
 */
final class Mailbox {

  /** Ranks are world ranks; {@code group} is the canonical group name. */
  record Key(String group, int src, int dst, int tag) {}

  private static final class Channel {
    final ReentrantLock lock = new ReentrantLock();
    final Condition arrived = lock.newCondition();
    final ArrayDeque<float[]> queue = new ArrayDeque<>();
  }

  private final ConcurrentHashMap<Key, Channel> channels = new ConcurrentHashMap<>();

  void post(Key key, float[] message) {
    Channel ch = channels.computeIfAbsent(key, k -> new Channel());
    ch.lock.lock();
    try {
      ch.queue.addLast(message);
      ch.arrived.signalAll();
    } finally {
      ch.lock.unlock();
    }
  }

  /**
   * Takes the oldest message for {@code key}, waiting at most {@code timeoutNanos}; {@code what}
   * describes the receive for error messages and is only built on failure.
   */
  float[] take(Key key, long timeoutNanos, InJvmWorld world, Supplier<String> what) {
    Channel ch = channels.computeIfAbsent(key, k -> new Channel());
    long remaining = timeoutNanos;
    ch.lock.lock();
    try {
      while (true) {
        if (world.isAborted()) {
          throw world.abortedError(what.get());
        }
        float[] m = ch.queue.pollFirst();
        if (m != null) {
          return m;
        }
        if (remaining <= 0) {
          throw new MsException(
              MsException.Kind.TIMEOUT_ERROR,
              what.get()
                  + " timed out after "
                  + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                  + " ms: world rank "
                  + key.src()
                  + " did not send tag "
                  + key.tag()
                  + " to world rank "
                  + key.dst());
        }
        try {
          remaining = ch.arrived.awaitNanos(remaining);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new MsException(
              MsException.Kind.RUNTIME_ERROR, what.get() + " was interrupted while waiting", e);
        }
      }
    } finally {
      ch.lock.unlock();
    }
  }

  /** Wakes every waiting receiver so it re-checks the abort flag. */
  void wakeAll() {
    for (Channel ch : channels.values()) {
      ch.lock.lock();
      try {
        ch.arrived.signalAll();
      } finally {
        ch.lock.unlock();
      }
    }
  }
}
