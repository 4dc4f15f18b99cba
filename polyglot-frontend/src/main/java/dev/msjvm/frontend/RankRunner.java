package dev.msjvm.frontend;

import dev.msjvm.engine.job.Job;
import dev.msjvm.engine.job.Rank;
import dev.msjvm.engine.job.Session;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;

/**
 * Runs one script on every local rank of a {@link Job}, one thread and one GraalPy context each,
 * and stops the others as soon as one fails.
 *
 * <p>"Fails" means a non-zero exit status. The first failure aborts the job's communicator (ranks
 * waiting in a collective get an error instead of hanging) and cancels the other contexts. The
 * result lists each rank's exit status and which rank failed first. Example: an 8-rank run where
 * rank 3 raises returns {@code firstFailedRank() == 3} and status 1 for rank 3.
 */
public final class RankRunner {
  private static final long RANK_STACK_BYTES = 64L << 20;

  /** What each rank gets: environment and streams. */
  public record RankIo(Map<String, String> environment, OutputStream out, OutputStream err) {
    public RankIo {
      environment = Map.copyOf(environment);
      Objects.requireNonNull(out);
      Objects.requireNonNull(err);
    }
  }

  /** Exit status per local rank (in rank order) and the rank that failed first, or -1. */
  public record Result(List<Integer> exitStatus, int firstFailedRank) {
    public Result {
      exitStatus = List.copyOf(exitStatus);
    }

    public boolean succeeded() {
      return firstFailedRank < 0;
    }
  }

  private final PythonRuntime runtime;

  public RankRunner(PythonRuntime runtime) {
    this(runtime, null);
  }

  /** A runner whose ranks run under {@code sandbox} (null: unrestricted). */
  public RankRunner(PythonRuntime runtime, PythonRuntime.Sandbox sandbox) {
    this.runtime = Objects.requireNonNull(runtime);
    this.sandbox = sandbox;
  }

  private final PythonRuntime.Sandbox sandbox;

  /** Runs {@code script args} on every local rank of {@code job}; waits for all of them. */
  public Result run(
      Job job,
      String script,
      List<String> args,
      Path workingDirectory,
      InputStream in,
      Function<Rank, RankIo> io)
      throws InterruptedException {
    List<Rank> ranks = job.localRanks();
    int n = ranks.size();
    Context[] contexts = new Context[n];
    int[] status = new int[n];
    AtomicInteger firstFailed = new AtomicInteger(-1);
    Object lock = new Object();
    synchronized (this) {
      if (cancelled) {
        List<Integer> codes = new ArrayList<>(java.util.Collections.nCopies(n, 130));
        return new Result(codes, n == 0 ? -1 : ranks.get(0).rank());
      }
      running = contexts;
      runningLock = lock;
      runningFailed = firstFailed;
      runningJob = job;
    }
    List<Thread> threads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int index = i;
      Rank rank = ranks.get(i);
      RankIo rankIo = io.apply(rank);
      Runnable body =
          () -> {
            int code;
            try {
              Context ctx;
              synchronized (lock) {
                if (firstFailed.get() >= 0) {
                  status[index] = 1;
                  return;
                }
                ctx =
                    runtime.newContext(
                        new PythonRuntime.ContextSpec(
                            new Session(rank),
                            rankIo.environment(),
                            workingDirectory,
                            in,
                            rankIo.out(),
                            rankIo.err(),
                            sandbox));
                contexts[index] = ctx;
              }
              try {
                code = runtime.runScript(ctx, script, args);
              } finally {
                synchronized (lock) {
                  contexts[index] = null;
                }
                closeQuietly(ctx);
              }
            } catch (PolyglotException e) {
              code = e.isExit() ? e.getExitStatus() : 1;
              if (!e.isCancelled()) {
                report(rankIo.err(), "rank " + rank.rank() + " stopped: " + e.getMessage());
              }
            } catch (RuntimeException | Error e) {
              code = 1;
              report(rankIo.err(), "rank " + rank.rank() + " crashed in the launcher: " + e);
            }
            status[index] = code;
            if (code != 0 && firstFailed.compareAndSet(-1, rank.rank())) {
              job.abort(rank.rank(), new IllegalStateException("exit status " + code));
              cancelOthers(contexts, lock, index);
            }
          };
      Thread t =
          new Thread(null, body, "msjvm-" + job.id() + "-rank-" + rank.rank(), RANK_STACK_BYTES);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    try {
      for (Thread t : threads) {
        t.join();
      }
    } finally {
      synchronized (this) {
        running = null;
      }
    }
    List<Integer> codes = new ArrayList<>(n);
    for (int c : status) {
      codes.add(c);
    }
    return new Result(codes, firstFailed.get());
  }

  /**
   * Stops the job this runner is running (or will run): every rank's interpreter is cancelled, the
   * job's collectives fail, and {@link #run} returns with the ranks' non-zero statuses. Safe from
   * any thread.
   */
  public void cancel() {
    Context[] contexts;
    Object lock;
    synchronized (this) {
      cancelled = true;
      contexts = running;
      lock = runningLock;
      if (contexts != null) {
        runningFailed.compareAndSet(-1, runningJob.localRanks().get(0).rank());
        runningJob.abort(-1, new IllegalStateException("cancelled"));
      }
    }
    if (contexts != null) {
      cancelOthers(contexts, lock, -1);
    }
  }

  private boolean cancelled;
  private Context[] running;
  private Object runningLock;
  private AtomicInteger runningFailed;
  private Job runningJob;

  private static void cancelOthers(Context[] contexts, Object lock, int self) {
    List<Context> victims = new ArrayList<>();
    synchronized (lock) {
      for (int i = 0; i < contexts.length; i++) {
        if (i != self && contexts[i] != null) {
          victims.add(contexts[i]);
        }
      }
    }
    for (Context c : victims) {
      try {
        c.close(true);
      } catch (RuntimeException ignored) {
        // Already closing on its own thread.
      }
    }
  }

  private static void closeQuietly(Context ctx) {
    try {
      ctx.close();
    } catch (PolyglotException e) {
      if (!e.isCancelled() && !e.isExit()) {
        throw e;
      }
    } catch (IllegalStateException alreadyClosed) {
      // Cancelled by another rank's failure.
    }
  }

  private static void report(OutputStream err, String line) {
    PrintStream ps = new PrintStream(err, true, StandardCharsets.UTF_8);
    ps.println("[ERROR] msjvm: " + line);
  }
}
