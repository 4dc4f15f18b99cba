package dev.msjvm.engine.comm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one body per rank of a fresh {@link InJvmWorld}, each on its own thread, for tests and
 * benchmarks: a rank that throws aborts the world (so the others stop waiting in collectives) and
 * the exception reaches the caller. Example: {@code InJvmRanks.run(4, Duration.ofSeconds(20),
 * Duration.ofSeconds(30), (rank, comm) -> comm.groupSize(comm.worldGroup()))} is {@code [4, 4, 4,
 * 4]}.
 */
public final class InJvmRanks {
  private InJvmRanks() {}

  /** One rank's work. */
  public interface Body<T> {
    T run(int rank, Communicator comm) throws Exception;
  }

  /**
   * The results of {@code body} on ranks 0..n-1, in rank order; {@code worldTimeout} bounds every
   * collective wait, {@code wait} each rank's whole run.
   */
  public static <T> List<T> run(int n, Duration worldTimeout, Duration wait, Body<T> body)
      throws Exception {
    InJvmWorld world = new InJvmWorld(n, worldTimeout);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        int rank = r;
        futures.add(
            pool.submit(
                () -> {
                  try {
                    return body.run(rank, world.communicator(rank));
                  } catch (Exception | Error e) {
                    world.abort(rank, e);
                    throw e;
                  }
                }));
      }
      List<T> out = new ArrayList<>();
      for (Future<T> f : futures) {
        out.add(f.get(wait.toMillis(), TimeUnit.MILLISECONDS));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}
