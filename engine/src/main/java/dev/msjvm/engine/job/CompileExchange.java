package dev.msjvm.engine.job;

import dev.msjvm.engine.MsException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Work the ranks of a job sharing this JVM do once for all: the first rank to {@link #claim} a key
 * leads (does the work and {@link Claim#publish}es the result, or {@link Claim#abandon}s it); the
 * others claiming the same key wait for that result. A rank's n-th claim of a key matches the other
 * ranks' n-th claim of it, so a script compiling the same network twice shares both compiles in
 * order. An entry is dropped once every local rank has claimed it.
 *
 * <p>Used for parallel compiles: the leading rank traces and plans, the others lower the shared
 * plan with their own parameters. Example: {@code Claim c = exchange.claim(key); if (c.leads())
 * c.publish(work()); else use(c.await(timeout, aborted))}.
 *
 * @param <T> what is shared
 */
public final class CompileExchange<T> {
  private final int localRanks;

  /** Open entries by key and occurrence; guarded by {@code this}. */
  private final Map<String, Entry<T>> entries = new HashMap<>();

  private static final class Entry<T> {
    final CompletableFuture<T> result = new CompletableFuture<>();
    int claims;
  }

  public CompileExchange(int localRanks) {
    if (localRanks < 1) {
      throw new IllegalArgumentException("localRanks must be >= 1, got " + localRanks);
    }
    this.localRanks = localRanks;
  }

  /**
   * Claims occurrence {@code occurrence} (counted by the claiming rank from 0) of {@code key}: the
   * first claim leads, later ones follow.
   */
  public Claim<T> claim(String key, int occurrence) {
    String k = occurrence + "#" + Objects.requireNonNull(key);
    Entry<T> e;
    boolean leads;
    synchronized (this) {
      e = entries.get(k);
      leads = e == null;
      if (leads) {
        e = new Entry<>();
        entries.put(k, e);
      }
      if (++e.claims >= localRanks) {
        entries.remove(k);
      }
    }
    return new Claim<>(e.result, leads);
  }

  /** Open entries (for tests: every entry goes once all local ranks claimed it). */
  public synchronized int open() {
    return entries.size();
  }

  /** One rank's claim of a key. */
  public static final class Claim<T> {
    private final CompletableFuture<T> result;
    private final boolean leads;

    private Claim(CompletableFuture<T> result, boolean leads) {
      this.result = result;
      this.leads = leads;
    }

    /** Whether this rank does the work. */
    public boolean leads() {
      return leads;
    }

    /** The leader's result, for the followers. */
    public void publish(T value) {
      result.complete(Objects.requireNonNull(value));
    }

    /**
     * The leader could not do the work: the followers do it themselves ({@link #await} gives null).
     */
    public void abandon() {
      result.complete(null);
    }

    /**
     * The leader's result, or null if it abandoned the work. Waits up to {@code timeoutNanos},
     * looking every 50 ms whether {@code aborted} (the job failed: no leader will come).
     */
    public T await(long timeoutNanos, BooleanSupplier aborted) {
      long deadline = System.nanoTime() + timeoutNanos;
      while (true) {
        if (aborted.getAsBoolean()) {
          throw MsException.runtimeError(
              "The compile shared with the other ranks was aborted: the job's communication was aborted.");
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw MsException.runtimeError(
              "Timed out after "
                  + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
                  + " s waiting for another rank to compile the network shared with this rank.");
        }
        try {
          return result.get(
              Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          // look at the abort flag again
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw MsException.runtimeError("Interrupted while waiting for a shared compile.");
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
      }
    }
  }
}
