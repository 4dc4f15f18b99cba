package dev.msjvm.frontend.server;

import dev.msjvm.frontend.ServerChild;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Child JVMs for process-isolated jobs ({@link ServerChild}), a few of them started ahead: each
 * builds its GraalPy engine and warms its code cache while no job needs it, so a job that takes one
 * starts in about the time a thread-isolated one does instead of paying a JVM start. A child serves
 * one job and ends; taking one starts its replacement. Children of another heap size than the
 * pool's are started on demand.
 *
 * <p>Where the machine can confine them ({@link Confinement}), every child starts confined: it may
 * write only beneath two fresh directories of its own ({@code slots/<id>/work} and {@code run}),
 * which become the directories of the job it takes ({@link Child#adopt}); Landlock's rules follow a
 * directory when it is renamed, so a child started before its job existed can write the job's files
 * and nothing else. Such children may run native code (numpy). Before the first one starts, a child
 * without confinement prepares what they cannot write themselves ({@code ServerChild --prepare}:
 * the shim's files, GraalPy's resources, the copies of numpy's libraries each of a JVM's ranks
 * loads, the class-data archive).
 */
final class ChildPool implements AutoCloseable {
  /**
   * A started child: its process and, when it is confined, the two directories it may write, which
   * {@link #adopt} turns into the job's working and run directories.
   */
  record Child(Process process, Path work, Path run) {
    /**
     * Makes the child's directories the job's: the files already in {@code work} (the uploads) move
     * into the child's, which then takes {@code work}'s place, and the child's run directory
     * becomes {@code run}. A child without confinement writes where the job is; nothing moves.
     */
    void adopt(Path jobWork, Path jobRun) throws IOException {
      if (work == null) {
        Files.createDirectories(jobRun);
        return;
      }
      try (java.util.stream.Stream<Path> entries = Files.list(jobWork)) {
        for (Path e : entries.toList()) {
          Files.move(e, work.resolve(e.getFileName().toString()));
        }
      }
      Files.delete(jobWork);
      Files.move(work, jobWork, StandardCopyOption.ATOMIC_MOVE);
      Files.move(run, jobRun, StandardCopyOption.ATOMIC_MOVE);
      Files.deleteIfExists(work.getParent());
    }

    /** Whether this child may run native code (it is confined). */
    boolean nativeCode() {
      return work != null;
    }
  }

  /**
   * How children are confined: by {@code confinement}, with their directories made under {@code
   * slots}, reading beneath {@code reads}, with {@code options} added to their JVM's.
   */
  record Confined(Confinement confinement, Path slots, List<Path> reads, List<String> options) {}

  /**
   * The unconfined preparation: its command, and where it dumps a fresh class-data archive at exit
   * ({@code dumped}, moved over {@code archive} once it exits with 0; both null: no archive).
   */
  record Preparation(List<String> command, Path dumped, Path archive) {}

  private final List<String> javaCommand;
  private final Map<String, String> environment;
  private final Path directory;
  private final Path log;
  private final int heapMb;
  private final int warm;
  private final BlockingQueue<Child> ready;
  private final Confined confined;
  private final CompletableFuture<Boolean> prepared;
  private volatile Process preparing;
  private volatile boolean closed;

  /**
   * {@code javaCommand}: the JVM and its options up to the heap; {@code environment}: the whole
   * environment of a child; {@code directory}: its working directory; {@code log}: where the JVM's
   * own output goes (a job's goes to its console file); {@code warm} children of {@code heapMb};
   * {@code confined}: how children are confined, or null; {@code prepare}: the unconfined
   * preparation that runs before the first confined child (null: none).
   */
  ChildPool(
      List<String> javaCommand,
      Map<String, String> environment,
      Path directory,
      Path log,
      int heapMb,
      int warm,
      Confined confined,
      Preparation prepare) {
    this.javaCommand = List.copyOf(javaCommand);
    this.environment = Map.copyOf(environment);
    this.directory = directory;
    this.log = log;
    this.heapMb = heapMb;
    this.warm = warm;
    this.confined = confined;
    this.ready = new LinkedBlockingQueue<>(Math.max(1, warm));
    if (confined != null) {
      clearSlots(confined.slots());
    }
    this.prepared =
        confined == null || prepare == null
            ? CompletableFuture.completedFuture(confined != null)
            : CompletableFuture.supplyAsync(
                () -> {
                  boolean ok = runPreparation(prepare);
                  if (!ok && !closed) {
                    org.jboss.logging.Logger.getLogger(ChildPool.class)
                        .warnf(
                            "the preparation of confined child JVMs failed (its output is in"
                                + " %s): process-isolated jobs run unconfined, without numpy",
                            log);
                  }
                  return ok;
                });
    prepared.thenRun(
        () -> {
          for (int i = 0; i < warm && !closed; i++) {
            ready.offer(start(heapMb));
          }
        });
  }

  /**
   * A child with a heap of {@code heapMb}: a warm one when the pool has one alive (a replacement is
   * started at once), else a new one.
   */
  Child take(int heapMb) {
    if (heapMb == this.heapMb && warm > 0) {
      Child c;
      while ((c = ready.poll()) != null) {
        if (c.process().isAlive()) {
          refill();
          return c;
        }
        discard(c);
      }
      refill();
    }
    return start(heapMb);
  }

  /** Starts a child to wait in place of one taken. */
  private void refill() {
    if (!closed && warm > 0 && ready.remainingCapacity() > 0) {
      Child c = start(heapMb);
      if (!ready.offer(c)) {
        discard(c); // full meanwhile
      }
    }
  }

  private Child start(int heap) {
    boolean confine = confined != null && prepared.join();
    List<String> java = new java.util.ArrayList<>(javaCommand);
    java.add(1, "-Xmx" + heap + "m");
    Path work = null;
    Path run = null;
    List<String> cmd = java;
    try {
      if (confine) {
        java.addAll(2, confined.options());
        Path slot = Files.createDirectories(confined.slots()).resolve(UUID.randomUUID().toString());
        work = Files.createDirectories(slot.resolve("work"));
        run = Files.createDirectories(slot.resolve("run"));
      }
      java.add(ServerChild.class.getName());
      java.add(Long.toString(ProcessHandle.current().pid()));
      if (confine) {
        cmd = confined.confinement().command(confined.reads(), List.of(work, run), java);
      }
      ProcessBuilder pb =
          new ProcessBuilder(cmd)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      pb.environment().clear();
      pb.environment().putAll(environment);
      Process p = pb.start();
      if (confine) {
        awaitExec(p, java.get(0));
      }
      return new Child(p, work, run);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until {@code confine.py} has executed the JVM ({@code java}), so its rules hold: it opens
   * the child's directories by name, and a job adopting them (renaming them into place) before that
   * would leave it nothing to open. Returns early if the process ends; at most 60 s.
   */
  private static void awaitExec(Process p, String java) {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (p.isAlive() && System.nanoTime() < deadline) {
      if (p.info().command().map(c -> c.equals(java) || c.endsWith("/java")).orElse(false)) {
        return;
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Runs the preparation; whether confined children may run native code after it. */
  private boolean runPreparation(Preparation prepare) {
    ProcessBuilder pb =
        new ProcessBuilder(prepare.command())
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().clear();
    pb.environment().putAll(environment);
    try {
      Process p = pb.start();
      preparing = p;
      if (closed) {
        p.destroyForcibly();
      }
      p.getOutputStream().close();
      if (!p.waitFor(10, java.util.concurrent.TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return false;
      }
      if (p.exitValue() != 0) {
        return false;
      }
      if (prepare.dumped() != null && Files.exists(prepare.dumped())) {
        // A JVM replaces no archive that is stale (a rebuilt jar): each start dumps a fresh one.
        Files.move(
            prepare.dumped(),
            prepare.archive(),
            StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Ends a child no job took and removes its directories. */
  private static void discard(Child c) {
    c.process().destroyForcibly();
    if (c.work() != null) {
      try {
        c.process().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      deleteTree(c.work().getParent());
    }
  }

  /** The directories of children an earlier server left behind. */
  private static void clearSlots(Path slots) {
    if (Files.isDirectory(slots)) {
      deleteTree(slots);
    }
  }

  private static void deleteTree(Path root) {
    try (java.util.stream.Stream<Path> files = Files.walk(root)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    } catch (IOException e) {
      // best effort: a later start clears what is left
    }
  }

  /** Ends the children no job took. */
  @Override
  public void close() {
    closed = true;
    Process p = preparing;
    if (p != null) {
      p.destroyForcibly();
    }
    Child c;
    while ((c = ready.poll()) != null) {
      discard(c);
    }
  }
}
