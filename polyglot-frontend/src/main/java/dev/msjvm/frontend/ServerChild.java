package dev.msjvm.frontend;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.msjvm.engine.job.Job;
import dev.msjvm.engine.job.Session;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.graalvm.polyglot.Context;

/**
 * The JVM of one process-isolated server job: the same launcher as {@code bin/msrun} ({@link
 * MsRun#launch}), sandboxed, in a JVM whose heap is the job's.
 *
 * <p>The server may start it before any job needs it (a warm JVM): it builds its GraalPy engine,
 * imports {@code mindspore} once in a throw-away interpreter so the job's interpreters start from a
 * warm code cache, then reads its {@link Spec} as one line of JSON on standard input and runs it.
 * Nothing of the job is in its environment or command line (the environment is the server's minimal
 * one; the job's variables travel in the spec), so one started early serves any job. It halts
 * within a second of the server process going away ({@code kill -9} included).
 */
public final class ServerChild {
  private ServerChild() {}

  /**
   * One job: msrun's arguments, the job directory (the ranks' working directory and sandbox),
   * folders they may read, the disk quota, the bytes each log keeps, where the launcher's console
   * and each rank's exit status go, and the ranks' environment.
   */
  public record Spec(
      List<String> argv,
      String workDir,
      List<String> readOnly,
      long maxBytes,
      long maxFiles,
      long logLimit,
      String console,
      String statusFile,
      Map<String, String> env) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The spec as the line the server writes to the child's standard input. */
  public static String line(Spec spec) {
    try {
      return JSON.writeValueAsString(spec) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code args[0]}: the server's process id. */
  public static void main(String[] args) throws IOException {
    watchParent(Long.parseLong(args[0]));
    int status;
    try (PythonRuntime runtime = PythonRuntime.create()) {
      warmUp(runtime);
      String line =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      if (line == null) {
        return; // the server stopped before it needed this JVM
      }
      status = run(runtime, JSON.readValue(line, Spec.class));
    }
    System.exit(status);
  }

  private static int run(PythonRuntime runtime, Spec spec) throws IOException {
    Path work = Path.of(spec.workDir());
    DiskQuota quota = new DiskQuota(spec.maxBytes(), spec.maxFiles());
    quota.measure(work, work.resolve("logs"));
    PythonRuntime.Sandbox sandbox =
        new PythonRuntime.Sandbox(work, spec.readOnly().stream().map(Path::of).toList(), quota);
    OutputStream file = new FileOutputStream(spec.console(), true);
    PrintStream console =
        new PrintStream(CappedLog.of(file, spec.logLimit()), true, StandardCharsets.UTF_8);
    System.setOut(console);
    System.setErr(console);
    MsRun.Outcome outcome =
        MsRun.launch(
            spec.argv(),
            runtime,
            spec.env(),
            work,
            new ByteArrayInputStream(new byte[0]),
            console,
            new MsRun.Controls(sandbox, spec.logLimit(), r -> {}));
    try {
      Files.writeString(
          Path.of(spec.statusFile()),
          outcome.rankStatus().stream().map(String::valueOf).collect(Collectors.joining(",")));
    } catch (IOException e) {
      console.println("msrun: could not write " + spec.statusFile() + ": " + e);
    }
    console.close(); // appends a capped log's kept tail
    return outcome.status();
  }

  /**
   * Runs {@code import mindspore} in a throw-away interpreter of the engine (no job code runs
   * there), so a job's interpreters find the shim's code already parsed.
   */
  private static void warmUp(PythonRuntime runtime) {
    Job job = Job.local("warm-up", 1, Duration.ofMinutes(5));
    OutputStream none = OutputStream.nullOutputStream();
    try (Context ctx =
        runtime.newContext(
            new PythonRuntime.ContextSpec(
                new Session(job.localRanks().get(0)),
                Map.of(),
                Path.of("").toAbsolutePath(),
                new ByteArrayInputStream(new byte[0]),
                none,
                none))) {
      ctx.eval("python", "import mindspore");
    }
  }

  /** Halts this JVM (status 143) within a second of process {@code pid} going away. */
  static void watchParent(long pid) {
    Optional<ProcessHandle> parent = ProcessHandle.of(pid);
    if (parent.isEmpty()) {
      Runtime.getRuntime().halt(143);
    }
    ProcessHandle server = parent.get();
    Thread watcher =
        new Thread(
            () -> {
              while (server.isAlive()) {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
              }
              Runtime.getRuntime().halt(143);
            },
            "msjvm-parent-watch");
    watcher.setDaemon(true);
    watcher.start();
  }
}
