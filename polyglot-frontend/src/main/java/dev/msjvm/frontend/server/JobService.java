package dev.msjvm.frontend.server;

import dev.msjvm.frontend.CappedLog;
import dev.msjvm.frontend.DiskQuota;
import dev.msjvm.frontend.MsRun;
import dev.msjvm.frontend.PythonRuntime;
import dev.msjvm.frontend.RankRunner;
import dev.msjvm.frontend.ServerChild;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
      @Schema(required = true, minLength = 1, description = "the Python source of the script")
          String script,
      @Schema(minimum = "1", description = "ranks (msrun workers); at most --max-workers")
          Integer workers,
      @Schema(description = "sys.argv[1:]") List<String> args,
      @Schema(description = "files to place in the job directory: relative name -> base64")
          Map<String, String> files,
      @Schema(minimum = "1", description = "wall-time limit, at most --max-wall-seconds")
          Integer timeoutSeconds,
      @Schema(minimum = "64", description = "the job's own JVM heap, at most --max-memory-mb")
          Integer memoryMb,
      @Schema(
              minimum = "1",
              description =
                  "POST /v1/plan only: the size of the cluster to plan (default: workers); the"
                      + " job's workers are its ranks 0..workers-1, each a dry run of its rank")
          Integer rankSize) {}

  /** Thrown for a submission the server refuses (HTTP 400). */
  public static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message);
    }
  }

  /** Thrown when the queue is full (HTTP 429 with {@code Retry-After}). */
  public static final class Busy extends RuntimeException {
    final int retryAfterSeconds;

    Busy(String message, int retryAfterSeconds) {
      super(message);
      this.retryAfterSeconds = retryAfterSeconds;
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

  /**
   * "process" (default: every job runs in a child JVM of its own, which the server can always stop)
   * or "thread" (jobs share the server's JVM unless they ask for memoryMb: cheaper, for trusted
   * scripts only, since a script stuck in Java code that polls for no cancellation cannot be
   * stopped there).
   */
  @ConfigProperty(name = "msjvm.server.isolation", defaultValue = "process")
  String isolation;

  /**
   * Child JVMs started ahead for process-isolated jobs (-1: as many as jobs run at once; 0: start
   * each when its job needs it).
   */
  @ConfigProperty(name = "msjvm.server.warm-processes", defaultValue = "-1")
  int warmProcesses;

  /**
   * Whether process-isolated jobs run in a JVM the operating system confines ({@link Confinement}),
   * which lets them run native code (numpy): "auto" (default: where the kernel can), "off", or
   * "required" (the server does not start without it).
   */
  @ConfigProperty(name = "msjvm.server.confine", defaultValue = "auto")
  String confine;

  /** Jobs waiting for a slot at most; past it a submission is refused with 429. */
  @ConfigProperty(name = "msjvm.server.max-queued-jobs", defaultValue = "32")
  int maxQueuedJobs;

  /** The most one log file of a job keeps (head and tail, see {@link CappedLog}), in MiB. */
  @ConfigProperty(name = "msjvm.server.max-log-mb", defaultValue = "32")
  int maxLogMb;

  /** The bytes a job may hold in its directory (uploads, checkpoints, outputs), in MiB. */
  @ConfigProperty(name = "msjvm.server.max-job-mb", defaultValue = "2048")
  int maxJobMb;

  /** The files and directories a job may hold in its directory. */
  @ConfigProperty(name = "msjvm.server.max-job-files", defaultValue = "10000")
  int maxJobFiles;

  /** The files one submission may upload. */
  @ConfigProperty(name = "msjvm.server.max-upload-files", defaultValue = "100")
  int maxUploadFiles;

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
  private final Map<String, String> failedBy = new ConcurrentHashMap<>();
  private final Map<String, Launch> launches = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<JobRecord>> finished = new ConcurrentHashMap<>();
  private final AtomicInteger queued = new AtomicInteger();

  /**
   * How a queued job is to run: its wall-time limit, its own heap (null: on rank threads of this
   * JVM), extra environment (a plan's), its disk quota, and for a plan the size of the cluster its
   * workers dry-run ranks of (0: a real job).
   */
  private record Launch(
      int timeoutSeconds,
      Integer heapMb,
      Map<String, String> env,
      DiskQuota quota,
      int clusterSize) {}

  /** The largest cluster {@code POST /v1/plan} plans (MindSpore's dry run has no bound either). */
  static final int MAX_PLAN_RANKS = 1 << 20;

  private final Map<String, Process> processes = new ConcurrentHashMap<>();
  private ChildPool children;
  private ScheduledExecutorService timer;
  private volatile boolean stopping;

  /** How long a server stop waits for its jobs to end before it leaves them behind. */
  static final Duration STOP_WAIT = RankRunner.STOP_LIMIT.plusSeconds(3);

  /** How often a running job's directory is measured against its quota. */
  static final Duration QUOTA_PERIOD = Duration.ofSeconds(2);

  void start(@Observes StartupEvent event) {
    if (!isolation.equals("thread") && !isolation.equals("process")) {
      throw new IllegalArgumentException(
          "msjvm.server.isolation must be 'thread' or 'process', got '" + isolation + "'");
    }
    store = new JobStore(Path.of(dataDir));
    queue = Executors.newFixedThreadPool(Math.max(1, maxConcurrentJobs));
    int warm = warmProcesses < 0 ? Math.max(1, maxConcurrentJobs) : warmProcesses;
    ChildPool.Confined confined = isolation.equals("process") ? confinement() : null;
    children =
        new ChildPool(
            childJava(confined == null),
            childEnvironment(),
            store.root().getParent(),
            store.root().getParent().resolve("children.log"),
            maxMemoryMb,
            isolation.equals("process") ? warm : 0,
            confined,
            confined == null ? null : preparation());
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

  /**
   * A server stop (SIGTERM): every job still queued or running is recorded FAILED at once, running
   * ones are stopped (child JVMs killed, rank interpreters interrupted then cancelled), and the
   * stop waits at most {@link #STOP_WAIT} for them; a rank stuck in Java code is left behind on its
   * daemon thread, so the JVM still exits.
   */
  void stop(@Observes ShutdownEvent event) {
    stopping = true;
    Instant now = Instant.now();
    for (JobRecord r : records.values()) {
      if (!r.state().done()) {
        update(
            r.finished(
                JobRecord.State.FAILED,
                now,
                r.ranks(),
                "the server stopped while the job was " + r.state().name().toLowerCase()));
      }
    }
    processes.values().forEach(JobService::kill);
    runners.values().forEach(RankRunner::cancel);
    children.close();
    queue.shutdownNow();
    timer.shutdownNow();
    PythonRuntime rt = runtime;
    if (rt != null) {
      // Cancels the interpreters still running; a rank stuck in Java code keeps its thread (a
      // daemon), so the wait is bounded and the JVM exits anyway.
      Thread closer = new Thread(rt::closeNow, "msjvm-engine-close");
      closer.setDaemon(true);
      closer.start();
      try {
        closer.join(STOP_WAIT);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * How this machine confines child JVMs, or null where it cannot (logged) or {@code confine} is
   * off. They read the JDK, their classpath, the shim, GraalPy's resources, the numpy venv, the
   * class-data archive and the datasets folder; their own directories are the only ones they write.
   */
  private ChildPool.Confined confinement() {
    String confine = this.confine == null ? "auto" : this.confine;
    if (!List.of("auto", "off", "required").contains(confine)) {
      throw new IllegalArgumentException(
          "msjvm.server.confine must be 'auto', 'off' or 'required', got '" + confine + "'");
    }
    if (confine.equals("off")) {
      return null;
    }
    Path cache = dev.msjvm.frontend.Caches.root();
    StringBuilder why = new StringBuilder();
    Optional<Confinement> c = Confinement.detect(cache, why::append);
    if (c.isEmpty()) {
      if (confine.equals("required")) {
        throw new IllegalStateException("msjvm.server.confine=required, but " + why);
      }
      org.jboss.logging.Logger.getLogger(JobService.class)
          .warnf(
              "process-isolated jobs run without numpy: their JVMs cannot be confined (%s)", why);
      return null;
    }
    List<Path> reads = new ArrayList<>();
    reads.add(Path.of(System.getProperty("java.home")));
    for (String e : launcherClasspath().split(java.io.File.pathSeparator)) {
      reads.add(Path.of(e));
    }
    reads.add(cache.resolve("shim"));
    reads.add(cache.resolve(ARCHIVE));
    dev.msjvm.frontend.NumpyHome.venv().ifPresent(reads::add);
    String resources = System.getProperty("polyglot.engine.userResourceCache");
    reads.add(
        resources != null
            ? Path.of(resources)
            : Path.of(System.getProperty("user.home"), ".cache", "org.graalvm.polyglot"));
    // JavaCPP's natives (OpenBLAS), unpacked there by the preparation's first GEMM library load.
    String javacpp = System.getProperty("org.bytedeco.javacpp.cachedir");
    reads.add(
        javacpp != null
            ? Path.of(javacpp)
            : Path.of(System.getProperty("user.home"), ".javacpp", "cache"));
    reads.addAll(readOnly());
    List<String> options = new ArrayList<>(List.of("-XX:-UsePerfData", "-Dmsjvm.confined=true"));
    if (jarsOnly()) {
      options.add("-XX:SharedArchiveFile=" + cache.resolve(ARCHIVE));
    }
    return new ChildPool.Confined(
        c.get(), store.root().getParent().resolve("slots"), reads, options);
  }

  /**
   * The unconfined JVM that prepares what confined children read but cannot write: the shim's
   * files, GraalPy's resources, one copy of numpy's libraries per rank a child may run (and one for
   * its warm-up), a fresh class-data archive ({@link ServerChild}'s {@code --prepare}).
   */
  private ChildPool.Preparation preparation() {
    Path archive = dev.msjvm.frontend.Caches.root().resolve(ARCHIVE);
    Path dumped = archive.resolveSibling(ARCHIVE + "." + ProcessHandle.current().pid() + ".tmp");
    List<String> cmd = childJava(false);
    if (jarsOnly()) {
      cmd.add(1, "-XX:ArchiveClassesAtExit=" + dumped);
    }
    cmd.add(1, "-Xmx1g");
    cmd.add(ServerChild.class.getName());
    cmd.add(Long.toString(ProcessHandle.current().pid()));
    cmd.add("--prepare");
    cmd.add(Integer.toString(maxWorkers + 1));
    return jarsOnly()
        ? new ChildPool.Preparation(cmd, dumped, archive)
        : new ChildPool.Preparation(cmd, null, null);
  }

  /** The class-data archive child JVMs share, in msjvm's cache. */
  private static final String ARCHIVE = "server-child.jsa";

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
    if (s != null && s.rankSize() != null) {
      throw new BadRequest("'rankSize' is for POST /v1/plan (a dry run), not for a job");
    }
    return submit(s, Map.of());
  }

  /**
   * Runs {@code s} as a plan: a dry run (msrun's {@code --sim_level=1}) of ranks 0..workers-1 of a
   * {@code rankSize}-rank cluster, which stops after each rank's first simulated step ({@code
   * MSJVM_PLAN_ONLY}): no kernel runs, no parameter is filled, nothing is communicated. Completes,
   * without holding a thread while the job runs, with its record, each rank's plan report files
   * (name → text) and each rank's memory as the dry run counted it (rank → the fields of {@code
   * dryrun_memory/rank_<r>.json}).
   */
  public CompletionStage<Map<String, Object>> plan(Submission s) {
    JobRecord queuedRecord = submit(s, Map.of("MSJVM_PLAN_ONLY", "1", "MS_DEV_SAVE_GRAPHS", "1"));
    return whenDone(queuedRecord.id())
        .thenApplyAsync(
            r -> {
              Map<String, String> reports = new java.util.TreeMap<>();
              Map<Integer, Object> memory = new java.util.TreeMap<>();
              Path work = store.work(r.id());
              try (Stream<Path> files = Files.walk(work)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                  String name = work.relativize(f).toString();
                  if (name.startsWith("rank_")) {
                    reports.put(name, Files.readString(f));
                  }
                  java.util.regex.Matcher m = DRY_RUN_MEMORY.matcher(name);
                  if (m.matches()) {
                    memory.put(Integer.valueOf(m.group(1)), PLAN_JSON.readTree(f.toFile()));
                  }
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              return Map.of(
                  "id", r.id(), "state", r.state(), "ranks", r.ranks(), "reports", reports,
                  "memory", memory);
            },
            // Not a queue thread: those may all be busy running jobs.
            java.util.concurrent.ForkJoinPool.commonPool());
  }

  /** A dry run's memory file in a job's directory: {@code dryrun_memory/rank_<r>.json}. */
  private static final java.util.regex.Pattern DRY_RUN_MEMORY =
      java.util.regex.Pattern.compile("dryrun_memory/rank_(\\d+)\\.json");

  private static final com.fasterxml.jackson.databind.ObjectMapper PLAN_JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** Completes with the job's final record once it has ended. */
  public CompletionStage<JobRecord> whenDone(String id) {
    JobRecord r = records.get(id);
    if (r == null) {
      return CompletableFuture.failedFuture(new jakarta.ws.rs.NotFoundException("no job " + id));
    }
    CompletableFuture<JobRecord> f = finished.computeIfAbsent(id, k -> new CompletableFuture<>());
    JobRecord now = records.get(id);
    if (now.state().done()) {
      f.complete(now);
    }
    return f;
  }

  private JobRecord submit(Submission s, Map<String, String> env) {
    if (s == null || s.script() == null || s.script().isBlank()) {
      throw new BadRequest("'script' (the Python source) is required");
    }
    if (stopping) {
      throw new Busy("the server is stopping", 60);
    }
    int workers = s.workers() == null ? 1 : s.workers();
    if (workers < 1 || workers > maxWorkers) {
      throw new BadRequest("'workers' must be between 1 and " + maxWorkers + ", got " + workers);
    }
    int clusterSize = 0;
    if (env.containsKey("MSJVM_PLAN_ONLY")) {
      clusterSize = s.rankSize() == null ? workers : s.rankSize();
      if (clusterSize < workers || clusterSize > MAX_PLAN_RANKS) {
        throw new BadRequest(
            "'rankSize' must be between 'workers' ("
                + workers
                + ") and "
                + MAX_PLAN_RANKS
                + ", got "
                + clusterSize);
      }
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
    Map<String, String> files = s.files() == null ? Map.of() : s.files();
    if (files.size() > maxUploadFiles) {
      throw new BadRequest(
          "'files' may hold at most " + maxUploadFiles + " files, got " + files.size());
    }
    List<String> args = s.args() == null ? List.of() : s.args();
    for (String a : args) {
      if (a == null || a.indexOf('\0') >= 0) {
        throw new BadRequest("'args' must be strings without NUL characters");
      }
    }
    Map<String, byte[]> decoded = new java.util.TreeMap<>();
    for (Map.Entry<String, String> f : files.entrySet()) {
      UploadNames.check(f.getKey(), decoded.keySet());
      if (f.getValue() == null) {
        throw new BadRequest("file '" + f.getKey() + "' has no content (null)");
      }
      try {
        decoded.put(f.getKey(), Base64.getDecoder().decode(f.getValue()));
      } catch (IllegalArgumentException e) {
        throw new BadRequest("file '" + f.getKey() + "' is not base64: " + e.getMessage());
      }
    }
    if (queued.incrementAndGet() > maxQueuedJobs) {
      queued.decrementAndGet();
      throw new Busy(
          "the queue is full: " + maxQueuedJobs + " jobs are waiting; retry later",
          RETRY_AFTER_SECONDS);
    }
    String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    DiskQuota quota = new DiskQuota((long) maxJobMb << 20, maxJobFiles);
    Path work = store.work(id);
    try {
      Files.createDirectories(work.resolve("logs"));
      Files.writeString(work.resolve("script.py"), s.script());
      for (Map.Entry<String, byte[]> f : decoded.entrySet()) {
        Path target = work.resolve(f.getKey()).normalize();
        Files.createDirectories(target.getParent());
        Files.write(target, f.getValue());
      }
    } catch (IOException | RuntimeException e) {
      queued.decrementAndGet();
      if (e instanceof java.nio.file.FileSystemException fse) {
        throw new BadRequest("the uploaded files do not fit together: " + fse.getMessage());
      }
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
    quota.measure(work, work.resolve("logs"));
    if (quota.exceeded()) {
      queued.decrementAndGet();
      throw new BadRequest(
          "the uploaded files exceed the job's disk quota ("
              + quota.maxBytes()
              + " bytes, "
              + quota.maxFiles()
              + " files)");
    }
    launches.put(id, new Launch(limit, heap, env, quota, clusterSize));
    List<JobRecord.RankStatus> ranks = new ArrayList<>();
    for (int r = 0; r < workers; r++) {
      ranks.add(new JobRecord.RankStatus(r, null));
    }
    JobRecord r =
        new JobRecord(
            id, JobRecord.State.QUEUED, workers, args, Instant.now(), null, null, ranks, null);
    store.save(r);
    records.put(id, r);
    queue.submit(() -> run(id));
    return r;
  }

  /** How long a refused submission is asked to wait ({@code Retry-After}). */
  static final int RETRY_AFTER_SECONDS = 10;

  private void run(String id) {
    queued.decrementAndGet();
    JobRecord r = records.get(id);
    if (cancelled.containsKey(id) || r.state().done()) {
      if (!r.state().done()) {
        // Cancelled while queued, before cancel() recorded it: whoever waits sees it CANCELLED.
        update(r.finished(JobRecord.State.CANCELLED, Instant.now(), r.ranks(), "cancelled"));
      }
      finish(id);
      return;
    }
    r = r.running(Instant.now());
    update(r);
    Launch launch = launches.get(id);
    List<String> argv = new ArrayList<>();
    if (launch.clusterSize() > 0) {
      // A plan: the workers are ranks 0..workers-1 of the cluster, each a dry run of its rank.
      argv.add("--worker_num=" + launch.clusterSize());
      argv.add("--sim_level=1");
    } else {
      argv.add("--worker_num=" + r.workers());
    }
    argv.add("--local_worker_num=" + r.workers());
    argv.add("--log_dir=logs");
    argv.add("--join=True");
    argv.add("script.py");
    argv.addAll(r.args());
    MsRun.Outcome outcome;
    String reason = null;
    java.util.concurrent.ScheduledFuture<?> watch = watch(id, launch);
    try {
      outcome =
          launch.heapMb() != null ? runInProcess(id, argv, launch) : runInThreads(id, argv, launch);
    } catch (IOException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
      outcome = new MsRun.Outcome(1, List.of());
      reason = "the launcher failed: " + e;
    } finally {
      watch.cancel(false);
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
    if (failedBy.containsKey(id)) {
      end = JobRecord.State.FAILED;
      reason = failedBy.get(id);
    }
    if (reason == null && end == JobRecord.State.FAILED) {
      reason =
          stopping
              ? "the server stopped while the job was running"
              : "msrun exited with status " + outcome.status();
    }
    if (outcome.rankStatus().contains(RankRunner.STUCK) && launch.heapMb() == null) {
      reason =
          (reason == null ? "" : reason + "; ")
              + "a rank did not stop within "
              + RankRunner.STOP_LIMIT.toSeconds()
              + " s (stuck in Java code) and was left running on its thread";
    }
    if (!records.get(id).state().done()) {
      update(
          r.finished(
              end, Instant.now(), ranks, end == JobRecord.State.CANCELLED ? "cancelled" : reason));
    }
    finish(id);
  }

  /** Forgets a finished job's bookkeeping and wakes whoever waits for it. */
  private void finish(String id) {
    launches.remove(id);
    failedBy.remove(id);
    cancelled.remove(id);
    CompletableFuture<JobRecord> f = finished.remove(id);
    if (f != null) {
      f.complete(records.get(id));
    }
  }

  /**
   * Starts the job's watchdog: its wall-time limit, and every {@link #QUOTA_PERIOD} its directory
   * measured against its disk quota; either stops the job, FAILED with the reason.
   */
  private java.util.concurrent.ScheduledFuture<?> watch(String id, Launch launch) {
    long started = System.nanoTime();
    Path work = store.work(id);
    long period =
        Math.min(QUOTA_PERIOD.toMillis(), TimeUnit.SECONDS.toMillis(launch.timeoutSeconds()));
    return timer.scheduleAtFixedRate(
        () -> {
          if (System.nanoTime() - started >= TimeUnit.SECONDS.toNanos(launch.timeoutSeconds())) {
            stopFailed(
                id, "the job exceeded its wall-time limit of " + launch.timeoutSeconds() + " s");
            return;
          }
          // Read, not reset: the job's sandbox keeps the counts (JobLimitsTest once saw 201 of 200
          // files when this check reset them from a walk that missed a reserved file).
          long[] held = launch.quota().onDisk(work, work.resolve("logs"));
          if (held != null
              && (held[0] > launch.quota().maxFiles() || held[1] > launch.quota().maxBytes())) {
            stopFailed(
                id,
                "the job exceeded its disk quota ("
                    + launch.quota().maxBytes()
                    + " bytes, "
                    + launch.quota().maxFiles()
                    + " files; it held "
                    + held[1]
                    + " bytes in "
                    + held[0]
                    + ")");
          }
        },
        period,
        period,
        TimeUnit.MILLISECONDS);
  }

  /** Stops a running job that broke a limit; it ends FAILED with {@code reason}. */
  private void stopFailed(String id, String reason) {
    if (failedBy.putIfAbsent(id, reason) != null) {
      return;
    }
    RankRunner runner = runners.get(id);
    Process process = processes.get(id);
    if (runner != null) {
      runner.cancel();
    }
    if (process != null) {
      kill(process);
    }
  }

  /** The bytes each log of a job keeps. */
  private long logLimit() {
    return (long) maxLogMb << 20;
  }

  /** Runs job {@code id} on rank threads of this JVM, sandboxed, on the shared engine. */
  private MsRun.Outcome runInThreads(String id, List<String> argv, Launch launch)
      throws IOException {
    Files.createDirectories(store.run(id));
    try (OutputStream out = CappedLog.of(Files.newOutputStream(store.console(id)), logLimit());
        PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      return MsRun.launch(
          argv,
          runtime(),
          launch.env(),
          store.work(id),
          new ByteArrayInputStream(new byte[0]),
          console,
          new MsRun.Controls(
              new PythonRuntime.Sandbox(store.work(id), readOnly(), launch.quota()),
              logLimit(),
              runner -> {
                runners.put(id, runner);
                if (cancelled.containsKey(id) || failedBy.containsKey(id)) {
                  runner.cancel();
                }
              }));
    }
  }

  /**
   * Runs job {@code id} in a child JVM with its own heap ({@link ServerChild}, a warm one from the
   * pool when there is one): a job that runs out of memory fails alone. The child's environment is
   * the server's minimal one (no token); the job's directory, limits and variables reach it as a
   * spec on its standard input. A confined child's directories become the job's first.
   */
  private MsRun.Outcome runInProcess(String id, List<String> argv, Launch launch)
      throws IOException {
    Path statusFile = store.status(id);
    Path work = store.work(id);
    ChildPool.Child child = children.take(launch.heapMb());
    Process p = child.process();
    processes.put(id, p);
    try {
      child.adopt(work, store.run(id));
    } catch (IOException e) {
      kill(p);
      processes.remove(id);
      throw e;
    }
    ServerChild.Spec spec =
        new ServerChild.Spec(
            argv,
            work.toString(),
            readOnly().stream().map(Path::toString).toList(),
            launch.quota().maxBytes(),
            launch.quota().maxFiles(),
            logLimit(),
            store.console(id).toString(),
            statusFile.toString(),
            jobEnvironment(work, launch));
    try {
      if (cancelled.containsKey(id) || failedBy.containsKey(id)) {
        kill(p);
      }
      try (OutputStream in = p.getOutputStream()) {
        in.write(ServerChild.line(spec).getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // The child is gone (killed meanwhile): its exit status says so below.
      }
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
      kill(p);
      return new MsRun.Outcome(130, List.of());
    } finally {
      processes.remove(id);
    }
  }

  /**
   * The JVM and its options for a child, up to (not including) its heap and main class; {@code
   * archive}: it writes the shared class-data archive when there is none yet.
   */
  private static List<String> childJava(boolean archive) {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    // The server's own msjvm settings (-Dmsjvm.maxReadBytes and the like) hold in its children.
    System.getProperties().stringPropertyNames().stream()
        .filter(k -> k.startsWith("msjvm."))
        .sorted()
        .forEach(k -> cmd.add("-D" + k + "=" + System.getProperty(k)));
    // The classes every child loads (Truffle, GraalPy, the engine) come from a shared archive the
    // first child writes and later ones map (JDK 19+), instead of being parsed again. Only for a
    // classpath of jars: with a class directory on it (the tests' target/classes) the JVM cannot
    // archive, and a child failing to write the archive as it exits ends with status 1 ("Error
    // occurred during CDS dumping"), which failed its job on a machine without an archive yet.
    // A confined child cannot write it: the preparation does (see confinement()).
    if (archive && jarsOnly()) {
      cmd.add("-XX:+AutoCreateSharedArchive");
      cmd.add("-XX:SharedArchiveFile=" + dev.msjvm.frontend.Caches.root().resolve(ARCHIVE));
    }
    cmd.addAll(
        List.of(
            "-Xss8m",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-Dpolyglot.engine.WarnInterpreterOnly=false"));
    return cmd;
  }

  private static boolean jarsOnly() {
    return java.util.Arrays.stream(launcherClasspath().split(java.io.File.pathSeparator))
        .noneMatch(e -> Files.isDirectory(Path.of(e)));
  }

  /**
   * A child JVM's whole environment: its classpath (there rather than on the command line, which
   * stays short enough for {@code ps} to show the main class), a plain PATH, LANG, where msjvm's
   * caches are. Nothing is inherited from the server (its token in particular).
   */
  private static Map<String, String> childEnvironment() {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("CLASSPATH", launcherClasspath());
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("LANG", "C.UTF-8");
    env.put("MSJVM_CACHE", dev.msjvm.frontend.Caches.root().toString());
    String numpy = System.getenv("MSJVM_NUMPY_VENV");
    if (numpy != null && !numpy.isBlank()) {
      env.put("MSJVM_NUMPY_VENV", numpy);
    }
    return env;
  }

  /**
   * What a process-isolated job's ranks see besides msrun's variables: a plain PATH, the job
   * directory as HOME and temporary directory, LANG, and the job's own variables.
   */
  private static Map<String, String> jobEnvironment(Path work, Launch launch) {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", work.toString());
    env.put("TMPDIR", work.toString());
    env.put("LANG", "C.UTF-8");
    env.putAll(launch.env());
    return env;
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
