package dev.msjvm.frontend;

import dev.msjvm.engine.job.Job;
import dev.msjvm.engine.job.Rank;
import dev.msjvm.engine.job.Session;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
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

  /**
   * How long a stop waits for each step: the interpreters to leave the script after an interrupt,
   * then for the rank to flush its files and close, before the context is cancelled outright.
   */
  public static final Duration STOP_STEP = Duration.ofSeconds(3);

  /**
   * How long {@link #run} waits, once the job is being stopped, for a rank's thread to end. A
   * thread still running after that is stuck in Java code that polls for no cancellation (a huge
   * integer power, say): it is left behind, its rank reported with status {@link #STUCK}.
   */
  public static final Duration STOP_LIMIT = STOP_STEP.multipliedBy(4);

  /** The exit status of a rank that could not be stopped (its thread is abandoned). */
  public static final int STUCK = 137;

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
    Arrays.fill(status, STUCK);
    AtomicInteger firstFailed = new AtomicInteger(-1);
    Object lock = new Object();
    List<Thread> threads = new ArrayList<>(n);
    synchronized (this) {
      if (cancelled) {
        List<Integer> codes = new ArrayList<>(java.util.Collections.nCopies(n, 130));
        return new Result(codes, n == 0 ? -1 : ranks.get(0).rank());
      }
      running = contexts;
      runningLock = lock;
      runningFailed = firstFailed;
      runningJob = job;
      runningThreads = threads;
    }
    for (int i = 0; i < n; i++) {
      int index = i;
      Rank rank = ranks.get(i);
      RankIo rankIo = io.apply(rank);
      Runnable body =
          () -> {
            int code;
            try {
              if (firstFailed.get() >= 0) {
                status[index] = 1;
                return;
              }
              // Built outside the lock (it takes a while), published under it: a stop that
              // collected its victims before this rank was published is seen just below.
              Context ctx =
                  runtime.newContext(
                      new PythonRuntime.ContextSpec(
                          new Session(rank),
                          rankIo.environment(),
                          workingDirectory,
                          in,
                          rankIo.out(),
                          rankIo.err(),
                          sandbox));
              synchronized (lock) {
                contexts[index] = ctx;
              }
              if (stopRequested != 0 || firstFailed.get() >= 0) {
                synchronized (lock) {
                  contexts[index] = null;
                }
                closeForced(ctx);
                status[index] = 1;
                return;
              }
              try {
                List<String> program = new ArrayList<>(1 + args.size());
                program.add(script);
                program.addAll(args);
                code = runtime.runProgram(ctx, program);
                runtime.finish(ctx);
              } catch (PolyglotException e) {
                if (!e.isInterrupted() && !e.isCancelled()) {
                  throw e;
                }
                // Stopped (cancellation, another rank's failure): the files the script left open
                // keep what it wrote, then the interpreter closes.
                runtime.closeFiles(ctx);
                code = 1;
              } finally {
                // Everything a normal end does has run (finish): nothing is waited for here, so a
                // thread the script left spinning cannot hold the close (or a later stop) up.
                closeForced(ctx);
                synchronized (lock) {
                  contexts[index] = null;
                }
              }
            } catch (PolyglotException e) {
              code = e.isExit() ? e.getExitStatus() : 1;
              if (e.isExit()) {
                // os._exit(n): the interpreter ended at once, as the process would.
                report(rankIo.err(), "rank " + rank.rank() + " exited with status " + code);
              } else if (!e.isCancelled() && !e.isInterrupted()) {
                report(rankIo.err(), "rank " + rank.rank() + " stopped: " + e.getMessage());
              }
            } catch (RuntimeException | Error e) {
              code = 1;
              report(rankIo.err(), "rank " + rank.rank() + " crashed in the launcher: " + e);
            }
            status[index] = code;
            if (code != 0 && firstFailed.compareAndSet(-1, rank.rank())) {
              job.abort(rank.rank(), new IllegalStateException("exit status " + code));
              stopAll(job, contexts, lock, threads, index);
            }
          };
      Thread t =
          new Thread(null, body, "msjvm-" + job.id() + "-rank-" + rank.rank(), RANK_STACK_BYTES);
      // A rank stuck in Java code that never polls for cancellation must not keep the JVM alive.
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    try {
      for (Thread t : threads) {
        while (t.isAlive()) {
          long since = stopRequested;
          if (since != 0
              && System.nanoTime() - since > STOP_LIMIT.toNanos()
              && !t.join(Duration.ofMillis(1))) {
            break; // stuck: its status stays STUCK
          }
          t.join(Duration.ofMillis(100));
        }
      }
    } finally {
      synchronized (this) {
        running = null;
      }
    }
    List<Integer> codes = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      codes.add(threads.get(i).isAlive() ? STUCK : status[i]);
    }
    return new Result(codes, firstFailed.get());
  }

  /**
   * Stops the job this runner is running (or will run): every rank's interpreter is interrupted
   * (its open files are flushed and closed) or, if it does not stop, cancelled; the job's
   * collectives fail, and {@link #run} returns with the ranks' non-zero statuses — at the latest
   * {@link #STOP_LIMIT} later, even if a rank is stuck. Returns at once; safe from any thread.
   */
  public void cancel() {
    Context[] contexts;
    Object lock;
    Job job;
    List<Thread> threads;
    synchronized (this) {
      cancelled = true;
      contexts = running;
      lock = runningLock;
      job = runningJob;
      threads = runningThreads;
      if (contexts != null) {
        runningFailed.compareAndSet(-1, runningJob.localRanks().get(0).rank());
        runningJob.abort(-1, new IllegalStateException("cancelled"));
      }
    }
    if (contexts != null) {
      stopAll(job, contexts, lock, threads, -1);
    }
  }

  private boolean cancelled;
  private Context[] running;
  private Object runningLock;
  private AtomicInteger runningFailed;
  private Job runningJob;
  private List<Thread> runningThreads;

  /** When a stop of the running job began ({@link System#nanoTime}), or 0. */
  private volatile long stopRequested;

  /**
   * Stops every rank but {@code self} on a thread of its own per rank, so the caller never waits:
   * an interrupt (the rank's thread then flushes its files and closes the interpreter), then, if
   * the rank is still running after {@link #STOP_STEP} or does not finish closing in another, a
   * forced close.
   */
  private void stopAll(Job job, Context[] contexts, Object lock, List<Thread> threads, int self) {
    if (stopRequested == 0) {
      stopRequested = System.nanoTime();
    }
    List<Integer> victims = new ArrayList<>();
    synchronized (lock) {
      for (int i = 0; i < contexts.length; i++) {
        if (i != self && contexts[i] != null) {
          victims.add(i);
        }
      }
    }
    for (int i : victims) {
      Context c = contexts[i];
      Thread rankThread = threads.get(i);
      if (c == null) {
        continue;
      }
      Thread stopper = new Thread(() -> stop(c, rankThread), "msjvm-" + job.id() + "-stop-" + i);
      stopper.setDaemon(true);
      stopper.start();
    }
  }

  private static void stop(Context c, Thread rankThread) {
    try {
      c.interrupt(STOP_STEP);
      if (rankThread.join(STOP_STEP)) {
        return;
      }
    } catch (TimeoutException | IllegalStateException | PolyglotException e) {
      // Not interruptible in time (or already closing): cancel it below.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      c.close(true);
    } catch (RuntimeException ignored) {
      // Already closed on its own thread.
    }
  }

  private static void closeForced(Context ctx) {
    try {
      ctx.close(true);
    } catch (PolyglotException e) {
      if (!e.isCancelled() && !e.isExit() && !e.isInterrupted()) {
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
