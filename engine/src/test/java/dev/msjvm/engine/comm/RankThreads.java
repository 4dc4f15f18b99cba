package dev.msjvm.engine.comm;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Runs a body on one platform thread per rank, as the launcher does, and collects outcomes. */
final class RankThreads {

  /** Generous bound so a deadlock fails the test instead of hanging the build. */
  private static final long JOIN_MILLIS = 20_000;

  @FunctionalInterface
  interface Body<T> {
    T run(Communicator comm) throws Exception;
  }

  /** What one rank's body returned or threw. */
  record Outcome<T>(T value, Throwable error) {}

  private RankThreads() {}

  /** Runs {@code body} on every rank of {@code world}; outcomes indexed by world rank. */
  static <T> List<Outcome<T>> runEach(InJvmWorld world, Body<T> body) {
    int n = world.size();
    List<Outcome<T>> outcomes = new ArrayList<>();
    Thread[] threads = new Thread[n];
    Object[] values = new Object[n];
    Throwable[] errors = new Throwable[n];
    for (int r = 0; r < n; r++) {
      int rank = r;
      threads[r] =
          new Thread(
              () -> {
                try {
                  values[rank] = body.run(world.communicator(rank));
                } catch (Throwable t) {
                  errors[rank] = t;
                }
              },
              "rank-" + r);
      threads[r].start();
    }
    long deadline = System.currentTimeMillis() + JOIN_MILLIS;
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, deadline - System.currentTimeMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted");
      }
      if (t.isAlive()) {
        world.abort(new AssertionError("test timed out"));
        fail(t.getName() + " still running after " + JOIN_MILLIS + " ms (deadlock?)");
      }
    }
    for (int r = 0; r < n; r++) {
      @SuppressWarnings("unchecked")
      T v = (T) values[r];
      outcomes.add(new Outcome<>(v, errors[r]));
    }
    return outcomes;
  }

  /** Like {@link #runEach} but rethrows the first rank's failure. */
  static <T> List<T> runAll(InJvmWorld world, Body<T> body) {
    List<T> values = new ArrayList<>();
    for (Outcome<T> o : runEach(world, body)) {
      if (o.error() != null) {
        throw new AssertionError("a rank failed: " + o.error(), o.error());
      }
      values.add(o.value());
    }
    return values;
  }

  /**
   * Deterministic test data for one rank: magnitudes spread over 6 decades so that summation order
   * changes the float result.
   */
  static float[] data(long seed, int rank, int count) {
    SplittableRandom random = new SplittableRandom(seed * 1_000_003L + rank);
    float[] a = new float[count];
    for (int i = 0; i < count; i++) {
      float scale = (float) Math.pow(10, random.nextInt(6));
      a[i] = (float) (random.nextDouble() - 0.5) * scale;
    }
    return a;
  }
}
