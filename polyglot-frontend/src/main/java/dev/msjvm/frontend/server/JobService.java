package dev.msjvm.frontend.server;

import dev.msjvm.frontend.MsRun;
import dev.msjvm.frontend.PythonRuntime;
import dev.msjvm.frontend.RankRunner;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs submitted scripts as msrun jobs, a bounded number at a time, in their own directories under
 * the data directory, with the same launcher as {@code bin/msrun} ({@link MsRun#launch}) on one
 * shared GraalPy engine. Records survive restarts: at startup a job left QUEUED or RUNNING by a
 * previous server is marked FAILED with the reason.
 */
@ApplicationScoped
public class JobService {

  /** A submission: the script's source, worker count, its arguments, files (name → base64). */
  public record Submission(
      String script,
      Integer workers,
      List<String> args,
      Map<String, String> files,
      Integer timeoutSeconds,
      Integer memoryMb) {}

  /** Thrown for a submission the server refuses (HTTP 400). */
  public static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message);
    }
  }

  @ConfigProperty(name = "msjvm.server.data-dir", defaultValue = "msserver-data")
  String dataDir;

  @ConfigProperty(name = "msjvm.server.max-concurrent-jobs", defaultValue = "2")
  int maxConcurrentJobs;

  @ConfigProperty(name = "msjvm.server.max-workers", defaultValue = "8")
  int maxWorkers;

  /**
   * The largest heap a job in its own process may ask for ({@code memoryMb}); with {@code
   * isolation=process} every job runs in its own process with this heap unless it asks for less.
   */
  @ConfigProperty(name = "msjvm.server.max-memory-mb", defaultValue = "4096")
  int maxMemoryMb;

  /** "thread" (default: jobs share the server's JVM unless they ask for memoryMb) or "process". */
  @ConfigProperty(name = "msjvm.server.isolation", defaultValue = "thread")
  String isolation;

  /** The longest a job may run (its own timeoutSeconds may only be shorter). */
  @ConfigProperty(name = "msjvm.server.max-wall-seconds", defaultValue = "3600")
  int maxWallSeconds;

  /** A folder of shared datasets jobs may read (and not write); empty for none. */
  @ConfigProperty(name = "msjvm.server.datasets-dir")
  Optional<String> datasetsDir;

  private List<Path> readOnly() {
    return datasetsDir == null || datasetsDir.isEmpty()
        ? List.of()
        : List.of(Path.of(datasetsDir.get()));
  }

  private JobStore store;
  private ExecutorService queue;
  private volatile PythonRuntime runtime;
  private final Map<String, JobRecord> records = new ConcurrentHashMap<>();
  private final Map<String, RankRunner> runners = new ConcurrentHashMap<>();
  private final Map<String, Boolean> cancelled = new ConcurrentHashMap<>();
  private final Map<String, Integer> timedOut = new ConcurrentHashMap<>();
  private final Map<String, Launch> launches = new ConcurrentHashMap<>();

  /**
   * How a queued job is to run: its wall-time limit, its own heap (null: on rank threads of this
   * JVM) and extra environment (a plan-only run's).
   */
  private record Launch(int timeoutSeconds, Integer heapMb, Map<String, String> env) {}

  private final Map<String, Process> processes = new ConcurrentHashMap<>();
  private java.util.concurrent.ScheduledExecutorService timer;
  private volatile boolean stopping;

  void start(@Observes StartupEvent event) {
    store = new JobStore(Path.of(dataDir));
    queue = Executors.newFixedThreadPool(Math.max(1, maxConcurrentJobs));
    timer = Executors.newSingleThreadScheduledExecutor();
    Instant now = Instant.now();
    for (JobRecord r : store.loadAll()) {
      if (!r.state().done()) {
        r =
            r.finished(
                JobRecord.State.FAILED,
                now,
                r.ranks(),
                "the server stopped while the job was " + r.state().name().toLowerCase());
        store.save(r);
      }
      records.put(r.id(), r);
    }
  }

  void stop(@Observes ShutdownEvent event) {
    stopping = true;
    runners.values().forEach(RankRunner::cancel);
    processes.values().forEach(JobService::kill);
    queue.shutdownNow();
    timer.shutdownNow();
    PythonRuntime rt = runtime;
    if (rt != null) {
      rt.close();
    }
  }

  private PythonRuntime runtime() {
    PythonRuntime rt = runtime;
    if (rt == null) {
      synchronized (this) {
        rt = runtime;
        if (rt == null) {
          runtime = rt = PythonRuntime.create();
        }
      }
    }
    return rt;
  }

  /** Queues {@code s}; returns its record (QUEUED). */
  public JobRecord submit(Submission s) {
    return submit(s, Map.of());
  }

  /**
   * Runs {@code s} as a plan-only job (the traced step is partitioned and its plan report written,
   * nothing is trained: {@code MSJVM_PLAN_ONLY}) and waits for it; returns its record and each
   * rank's plan report files (name → text).
   */
  public Map<String, Object> plan(Submission s) throws InterruptedException {
    JobRecord r = submit(s, Map.of("MSJVM_PLAN_ONLY", "1", "MS_DEV_SAVE_GRAPHS", "1"));
    while (!records.get(r.id()).state().done()) {
      Thread.sleep(50);
    }
    r = records.get(r.id());
    Map<String, String> reports = new java.util.TreeMap<>();
    Path work = store.work(r.id());
    try (java.util.stream.Stream<Path> files = Files.walk(work)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = work.relativize(f).toString();
        if (name.startsWith("rank_")) {
          reports.put(name, Files.readString(f));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.of("id", r.id(), "state", r.state(), "ranks", r.ranks(), "reports", reports);
  }

  private JobRecord submit(Submission s, Map<String, String> env) {
    if (s == null || s.script() == null || s.script().isBlank()) {
      throw new BadRequest("'script' (the Python source) is required");
    }
    int workers = s.workers() == null ? 1 : s.workers();
    if (workers < 1 || workers > maxWorkers) {
      throw new BadRequest("'workers' must be between 1 and " + maxWorkers + ", got " + workers);
    }
    int limit = s.timeoutSeconds() == null ? maxWallSeconds : s.timeoutSeconds();
    if (limit < 1 || limit > maxWallSeconds) {
      throw new BadRequest(
          "'timeoutSeconds' must be between 1 and " + maxWallSeconds + ", got " + limit);
    }
    Integer heap = s.memoryMb();
    if (heap == null && isolation.equals("process")) {
      heap = maxMemoryMb;
    }
    if (heap != null && (heap < 64 || heap > maxMemoryMb)) {
      throw new BadRequest("'memoryMb' must be between 64 and " + maxMemoryMb + ", got " + heap);
    }
    String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    launches.put(id, new Launch(limit, heap, env));
    Path work = store.work(id);
    try {
      Files.createDirectories(work.resolve("logs"));
      Files.writeString(work.resolve("script.py"), s.script());
      for (Map.Entry<String, String> f :
          (s.files() == null ? Map.<String, String>of() : s.files()).entrySet()) {
        Path target = work.resolve(f.getKey()).normalize();
        if (!target.startsWith(work) || f.getKey().isBlank()) {
          throw new BadRequest("file name '" + f.getKey() + "' leaves the job directory");
        }
        Files.createDirectories(target.getParent());
        try {
          Files.write(target, Base64.getDecoder().decode(f.getValue()));
        } catch (IllegalArgumentException e) {
          throw new BadRequest("file '" + f.getKey() + "' is not base64: " + e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JobRecord.RankStatus> ranks = new ArrayList<>();
    for (int r = 0; r < workers; r++) {
      ranks.add(new JobRecord.RankStatus(r, null));
    }
    JobRecord r =
        new JobRecord(
            id,
            JobRecord.State.QUEUED,
            workers,
            s.args() == null ? List.of() : s.args(),
            Instant.now(),
            null,
            null,
            ranks,
            null);
    store.save(r);
    records.put(id, r);
    queue.submit(() -> run(id));
    return r;
  }

  private void run(String id) {
    JobRecord r = records.get(id);
    if (cancelled.containsKey(id) || r.state().done()) {
      return;
    }
    r = r.running(Instant.now());
    update(r);
    List<String> argv = new ArrayList<>();
    argv.add("--worker_num=" + r.workers());
    argv.add("--local_worker_num=" + r.workers());
    argv.add("--log_dir=logs");
    argv.add("--join=True");
    argv.add("script.py");
    argv.addAll(r.args());
    MsRun.Outcome outcome;
    String reason = null;
    try {
      Launch launch = launches.get(id);
      outcome =
          launch.heapMb() != null ? runInProcess(id, argv, launch) : runInThreads(id, argv, launch);
    } catch (IOException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
      outcome = new MsRun.Outcome(1, List.of());
      reason = "the launcher failed: " + e;
    } finally {
      runners.remove(id);
    }
    List<JobRecord.RankStatus> ranks = new ArrayList<>();
    for (int k = 0; k < r.workers(); k++) {
      ranks.add(
          new JobRecord.RankStatus(
              k, k < outcome.rankStatus().size() ? outcome.rankStatus().get(k) : null));
    }
    JobRecord.State end =
        cancelled.containsKey(id)
            ? JobRecord.State.CANCELLED
            : outcome.status() == 0 ? JobRecord.State.SUCCEEDED : JobRecord.State.FAILED;
    if (timedOut.containsKey(id)) {
      end = JobRecord.State.FAILED;
      reason = "the job exceeded its wall-time limit of " + timedOut.get(id) + " s";
    }
    if (reason == null && end == JobRecord.State.FAILED) {
      reason =
          stopping
              ? "the server stopped while the job was running"
              : "msrun exited with status " + outcome.status();
    }
    update(
        r.finished(
            end, Instant.now(), ranks, end == JobRecord.State.CANCELLED ? "cancelled" : reason));
    launches.remove(id);
    timedOut.remove(id);
    cancelled.remove(id);
  }

  /** Runs job {@code id} on rank threads of this JVM, sandboxed, on the shared engine. */
  private MsRun.Outcome runInThreads(String id, List<String> argv, Launch launch)
      throws IOException {
    try (OutputStream out = Files.newOutputStream(store.console(id));
        PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      return MsRun.launch(
          argv,
          runtime(),
          launch.env(),
          store.work(id),
          new ByteArrayInputStream(new byte[0]),
          console,
          new PythonRuntime.Sandbox(store.work(id), readOnly()),
          runner -> {
            runners.put(id, runner);
            if (cancelled.containsKey(id)) {
              runner.cancel();
            }
            int limit = launch.timeoutSeconds();
            timer.schedule(
                () -> {
                  if (runners.get(id) == runner) {
                    timedOut.put(id, limit);
                    runner.cancel();
                  }
                },
                limit,
                java.util.concurrent.TimeUnit.SECONDS);
          });
    }
  }

  /**
   * Runs job {@code id} in a child JVM with its own heap (the same launcher, {@link MsRun#main},
   * sandboxed through the environment): a job that runs out of memory fails alone.
   */
  private MsRun.Outcome runInProcess(String id, List<String> argv, Launch launch) {
    int heapMb = launch.heapMb();
    Path statusFile = store.dir(id).resolve("ranks.txt");
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(
        List.of(
            "-Xmx" + heapMb + "m",
            "-Xss8m",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-Dpolyglot.engine.WarnInterpreterOnly=false",
            "-cp",
            launcherClasspath(),
            MsRun.class.getName()));
    cmd.addAll(argv);
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(store.work(id).toFile())
            .redirectErrorStream(true)
            .redirectOutput(store.console(id).toFile());
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("MSJVM_SERVER") || k.startsWith("QUARKUS"));
    env.putAll(launch.env());
    env.put("MSJVM_SANDBOX_DIR", store.work(id).toString());
    env.put(
        "MSJVM_SANDBOX_READONLY",
        String.join(java.io.File.pathSeparator, readOnly().stream().map(Path::toString).toList()));
    env.put("MSJVM_RANK_STATUS_FILE", statusFile.toString());
    try {
      Process p = pb.start();
      processes.put(id, p);
      if (cancelled.containsKey(id)) {
        kill(p);
      }
      int limit = launch.timeoutSeconds();
      timer.schedule(
          () -> {
            if (processes.get(id) == p && p.isAlive()) {
              timedOut.put(id, limit);
              kill(p);
            }
          },
          limit,
          java.util.concurrent.TimeUnit.SECONDS);
      int code = p.waitFor();
      List<Integer> ranks = new ArrayList<>();
      if (Files.exists(statusFile)) {
        for (String c : Files.readString(statusFile).split(",")) {
          if (!c.isBlank()) {
            ranks.add(Integer.parseInt(c.trim()));
          }
        }
      }
      return new MsRun.Outcome(code, ranks);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new MsRun.Outcome(130, List.of());
    } finally {
      processes.remove(id);
    }
  }

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  /**
   * The classpath a child launcher needs: this JVM's, or under the packaged server
   * (quarkus-run.jar) its application and library jars.
   */
  private static String launcherClasspath() {
    String cp = System.getProperty("java.class.path");
    if (cp.endsWith("quarkus-run.jar")) {
      Path app = Path.of(cp).toAbsolutePath().getParent();
      List<String> jars = new ArrayList<>();
      // Quarkus keeps the parent-first jars (GraalVM polyglot and Truffle among them) in lib/boot.
      for (String dir : List.of("app", "lib/boot", "lib/main")) {
        try (java.util.stream.Stream<Path> files = Files.list(app.resolve(dir))) {
          files
              .filter(f -> f.toString().endsWith(".jar"))
              .sorted()
              .forEach(f -> jars.add(f.toString()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return String.join(java.io.File.pathSeparator, jars);
    }
    return cp;
  }

  private void update(JobRecord r) {
    store.save(r);
    records.put(r.id(), r);
  }

  public List<JobRecord> list() {
    return records.values().stream()
        .sorted(java.util.Comparator.comparing(JobRecord::created).thenComparing(JobRecord::id))
        .toList();
  }

  public Optional<JobRecord> get(String id) {
    return Optional.ofNullable(records.get(id));
  }

  /** Cancels a queued or running job; returns its record, or empty if there is none. */
  public Optional<JobRecord> cancel(String id) {
    JobRecord r = records.get(id);
    if (r == null) {
      return Optional.empty();
    }
    if (r.state().done()) {
      return Optional.of(r);
    }
    cancelled.put(id, true);
    RankRunner runner = runners.get(id);
    Process process = processes.get(id);
    if (runner != null) {
      runner.cancel();
    } else if (process != null) {
      kill(process);
    } else if (r.state() == JobRecord.State.QUEUED) {
      update(r.finished(JobRecord.State.CANCELLED, Instant.now(), r.ranks(), "cancelled"));
    }
    return Optional.of(records.get(id));
  }

  /** The log file of {@code rank} of job {@code id} (it may not exist yet). */
  public Path log(String id, int rank) {
    return store.log(id, rank);
  }

  /** The job's working directory (its artifacts). */
  public Path work(String id) {
    return store.work(id);
  }
}
