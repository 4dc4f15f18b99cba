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

  /** This process's parent, from {@code /proc/self/stat} (-1 where it cannot be read). */
  private static long parentPid() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so after the last ')'.
      String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(rest[1]);
    } catch (IOException | RuntimeException e) {
      return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    }
  }

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

  /**
   * {@code args[0]}: the server's process id; then {@code --prepare N} for the preparation of
   * confined children ({@link #prepare}) instead of a job.
   */
  public static void main(String[] args) throws IOException {
    watchParent(Long.parseLong(args[0]));
    if (args.length == 3 && args[1].equals("--prepare")) {
      System.exit(prepare(Integer.parseInt(args[2])));
    }
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
        new PythonRuntime.Sandbox(
            work, spec.readOnly().stream().map(Path::of).toList(), quota, confined());
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
    OutputStream none = OutputStream.nullOutputStream();
    try (Context ctx = throwAway(runtime, "warm-up", none, none)) {
      ctx.eval("python", "import mindspore");
    }
  }

  /** An unrestricted one-rank interpreter for the JVM's own work (no job code runs there). */
  private static Context throwAway(
      PythonRuntime runtime, String name, OutputStream out, OutputStream err) {
    Job job = Job.local(name, 1, Duration.ofMinutes(10));
    return runtime.newContext(
        new PythonRuntime.ContextSpec(
            new Session(job.localRanks().get(0)),
            Map.of(),
            Path.of("").toAbsolutePath(),
            new ByteArrayInputStream(new byte[0]),
            out,
            err));
  }

  /**
   * Whether this JVM runs confined, so its jobs may run native code: the server said so ({@code
   * -Dmsjvm.confined=true}, with {@code confine.py} before the JVM) and the process shows it: no
   * new privileges, no effective capability, and the file system's root cannot be listed (a
   * property alone, forwarded by mistake, never lets native code into an unconfined JVM).
   */
  static boolean confined() {
    if (!Boolean.getBoolean("msjvm.confined")) {
      return false;
    }
    try {
      String status = Files.readString(Path.of("/proc/self/status"));
      if (!status.contains("\nNoNewPrivs:\t1\n")
          || !status.contains("\nCapEff:\t0000000000000000\n")) {
        return false;
      }
    } catch (IOException e) {
      return false;
    }
    try (var entries = Files.newDirectoryStream(Path.of("/"))) {
      return false;
    } catch (java.nio.file.AccessDeniedException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Prepares, unconfined, what confined children read but cannot write (run before the first one
   * starts): the shim's files and GraalPy's resources (unpacked by building a runtime), a warm-up
   * (which a JVM started with the archive options writes into the class-data archive at exit), and
   * the copies of numpy's native libraries for {@code slots} contexts of one JVM (GraalPy loads a
   * private copy per context, made in the venv on first use, which a confined child may not do).
   * Status 0 when confined children may run native code.
   */
  static int prepare(int slots) {
    try (PythonRuntime runtime = PythonRuntime.create()) {
      warmUp(runtime);
      Optional<Path> venv = NumpyHome.venv();
      if (venv.isEmpty() || numpyCopies(venv.get(), slots)) {
        return 0;
      }
      try (Context ctx = throwAway(runtime, "prepare", System.out, System.err)) {
        ctx.getBindings("python").putMember("venv", venv.get().toString());
        ctx.eval(
            "python",
            "import __graalpython__\n"
                + "__graalpython__.replicate_extensions_in_venv(venv, "
                + slots
                + ")\n");
      }
      return numpyCopies(venv.get(), slots) ? 0 : 1;
    } catch (RuntimeException e) {
      System.err.println("msjvm: the preparation of confined server children failed: " + e);
      return 1;
    }
  }

  /** Whether the venv holds numpy's core library and the C API's copies for {@code slots}. */
  private static boolean numpyCopies(Path venv, int slots) {
    Path core = venv.resolve("lib/python3.12/site-packages/numpy/_core");
    for (int i = 0; i < slots; i++) {
      String suffix = ".dup" + Integer.toHexString(i);
      if (!Files.exists(venv.resolve("libpython-native.so" + suffix))) {
        return false;
      }
      try (var files = Files.list(core)) {
        if (files.noneMatch(
            f ->
                f.getFileName().toString().startsWith("_multiarray_umath.")
                    && f.getFileName().toString().endsWith(suffix))) {
          return false;
        }
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  /**
   * Halts this JVM (status 143) within a second of process {@code pid} going away: when this
   * process's parent is no longer {@code pid} (read from {@code /proc/self/stat}, which a confined
   * JVM may read where another process's entry is closed to it).
   */
  static void watchParent(long pid) {
    if (parentPid() != pid) {
      Runtime.getRuntime().halt(143);
    }
    Thread watcher =
        new Thread(
            () -> {
              while (parentPid() == pid) {
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
