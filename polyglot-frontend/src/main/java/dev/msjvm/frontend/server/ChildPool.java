package dev.msjvm.frontend.server;

import dev.msjvm.frontend.ServerChild;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Child JVMs for process-isolated jobs ({@link ServerChild}), a few of them started ahead: each
 * builds its GraalPy engine and warms its code cache while no job needs it, so a job that takes one
 * starts in about the time a thread-isolated one does instead of paying a JVM start. A child serves
 * one job and ends; taking one starts its replacement. Children of another heap size than the
 * pool's are started on demand.
 */
final class ChildPool implements AutoCloseable {
  private final List<String> javaCommand;
  private final Map<String, String> environment;
  private final Path directory;
  private final Path log;
  private final int heapMb;
  private final int warm;
  private final BlockingQueue<Process> ready;
  private volatile boolean closed;

  /**
   * {@code javaCommand}: the JVM and its options up to the heap; {@code environment}: the whole
   * environment of a child; {@code directory}: its working directory; {@code log}: where the JVM's
   * own output goes (a job's goes to its console file); {@code warm} children of {@code heapMb}.
   */
  ChildPool(
      List<String> javaCommand,
      Map<String, String> environment,
      Path directory,
      Path log,
      int heapMb,
      int warm) {
    this.javaCommand = List.copyOf(javaCommand);
    this.environment = Map.copyOf(environment);
    this.directory = directory;
    this.log = log;
    this.heapMb = heapMb;
    this.warm = warm;
    this.ready = new LinkedBlockingQueue<>(Math.max(1, warm));
    for (int i = 0; i < warm; i++) {
      ready.add(start(heapMb));
    }
  }

  /**
   * A child with a heap of {@code heapMb}: a warm one when the pool has one alive (a replacement is
   * started at once), else a new one.
   */
  Process take(int heapMb) {
    if (heapMb == this.heapMb && warm > 0) {
      Process p;
      while ((p = ready.poll()) != null) {
        if (p.isAlive()) {
          refill();
          return p;
        }
      }
      refill();
    }
    return start(heapMb);
  }

  /** Starts a child to wait in place of one taken. */
  private void refill() {
    if (!closed && warm > 0 && ready.remainingCapacity() > 0) {
      Process p = start(heapMb);
      if (!ready.offer(p)) {
        p.destroyForcibly(); // full meanwhile
      }
    }
  }

  private Process start(int heap) {
    List<String> cmd = new java.util.ArrayList<>(javaCommand);
    cmd.add(1, "-Xmx" + heap + "m");
    cmd.add(ServerChild.class.getName());
    cmd.add(Long.toString(ProcessHandle.current().pid()));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().clear();
    pb.environment().putAll(environment);
    try {
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Ends the children no job took. */
  @Override
  public void close() {
    closed = true;
    Process p;
    while ((p = ready.poll()) != null) {
      p.destroyForcibly();
    }
  }
}
