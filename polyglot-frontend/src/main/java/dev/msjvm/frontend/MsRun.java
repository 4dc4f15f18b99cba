package dev.msjvm.frontend;

import dev.msjvm.engine.job.Job;
import dev.msjvm.engine.job.Rank;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code bin/msrun}: MindSpore's {@code msrun} launcher with every worker in this JVM.
 *
 * <p>Each worker is a rank with its own GraalPy context, thread, msrun environment ({@code
 * MS_WORKER_NUM}, {@code MS_SCHED_HOST}, {@code MS_SCHED_PORT}, {@code MS_ROLE=MS_WORKER}, {@code
 * MS_NODE_ID}, {@code RANK_ID}, {@code RANK_SIZE}, {@code DEVICE_ID}) and log file {@code
 * <log_dir>/worker_<rank>.log}. If a worker fails, the others are stopped, its traceback is printed
 * on the console and the exit status is 1, as msrun reports a failed job.
 */
public final class MsRun {
  private MsRun() {}

  public static void main(String[] argv) {
    int status;
    try (PythonRuntime runtime = PythonRuntime.create()) {
      status = run(List.of(argv), runtime, System.getenv(), Path.of(""), System.in, System.out);
    }
    System.exit(status);
  }

  /** Runs msrun with {@code argv}; returns the exit status. Console output goes to {@code out}. */
  public static int run(
      List<String> argv,
      PythonRuntime runtime,
      Map<String, String> baseEnv,
      Path cwd,
      InputStream in,
      PrintStream console) {
    return launch(argv, runtime, baseEnv, cwd, in, console, Controls.NONE).status();
  }

  /**
   * What a launch ended with: msrun's exit status and each rank's own (empty when the job never
   * started: bad options).
   */
  public record Outcome(int status, List<Integer> rankStatus) {
    public Outcome {
      rankStatus = List.copyOf(rankStatus);
    }
  }

  /**
   * What a job server adds to a launch: the ranks' {@code sandbox} (null: unrestricted), the bytes
   * each rank's log keeps ({@link CappedLog}), and {@code started}, which gets the job's {@link
   * RankRunner} before any rank starts (so another thread can {@link RankRunner#cancel} it).
   */
  public record Controls(
      PythonRuntime.Sandbox sandbox,
      long logLimit,
      java.util.function.Consumer<RankRunner> started) {
    /** The command line's: unrestricted, unlimited. */
    public static final Controls NONE = new Controls(null, CappedLog.UNLIMITED, r -> {});
  }

  /** {@link #run} under {@code controls}, returning every rank's status. */
  public static Outcome launch(
      List<String> argv,
      PythonRuntime runtime,
      Map<String, String> baseEnv,
      Path cwd,
      InputStream in,
      PrintStream console,
      Controls controls) {
    MsRunOptions opts;
    try {
      opts = MsRunOptions.parse(argv);
    } catch (MsRunOptions.UsageError e) {
      console.println(MsRunOptions.USAGE);
      console.println("msrun: error: " + e.getMessage());
      return new Outcome(2, List.of());
    }
    String invalid = opts.validate();
    if (invalid != null) {
      console.println("ValueError: " + invalid);
      return new Outcome(1, List.of());
    }
    boolean simulated = opts.simLevel() != -1;
    if (opts.nodeRank() != -1 && opts.nodeRank() != 0) {
      // msrun: process_entity/_api.py, start_worker_processes.
      console.println(
          "[WARNING] msrun: All workers will be spawned on this node, so 'node_rank': ["
              + opts.nodeRank()
              + "] will be ignored.");
    }
    if (!simulated && opts.localWorkerNum() < opts.workerNum()) {
      console.println(
          "RuntimeError: msjvm runs every worker of a job in one JVM, but --local_worker_num="
              + opts.localWorkerNum()
              + " < --worker_num="
              + opts.workerNum()
              + " asks for workers on other nodes; multi-node jobs are not supported yet.");
      return new Outcome(1, List.of());
    }
    Path logDir = cwd.resolve(opts.logDir());
    // A dry run (msrun's --sim_level): the workers are ranks of a cluster that is not there, each
    // planning its own part with a communicator that moves nothing; --sim_rank_id runs that rank
    // alone, otherwise this node's local workers run.
    int workers =
        !simulated ? opts.workerNum() : opts.simRankId() != -1 ? 1 : opts.localWorkerNum();
    Job job =
        Job.local(
            "msrun-" + UUID.randomUUID().toString().substring(0, 8),
            workers,
            Duration.ofSeconds(opts.clusterTimeOut()));
    String logName = formatLogName(opts.workerLogName());
    Map<Integer, Path> logs = new HashMap<>();
    List<OutputStream> streams = new ArrayList<>();
    RankRunner.Result result;
    try {
      Files.createDirectories(logDir);
      RankRunner runner = new RankRunner(runtime, controls.sandbox());
      controls.started().accept(runner);
      result =
          runner.run(
              job,
              opts.script(),
              opts.scriptArgs(),
              cwd,
              in,
              rank -> {
                Path log = logDir.resolve(logName + "_" + rankId(opts, rank) + ".log");
                logs.put(rank.rank(), log);
                OutputStream tee =
                    openLog(log, controls.logLimit(), opts.tails(rank.rank()) ? console : null);
                synchronized (streams) {
                  streams.add(tee);
                }
                return new RankRunner.RankIo(rankEnv(baseEnv, opts, rank), tee, tee);
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(130, List.of());
    } finally {
      for (OutputStream s : streams) {
        try {
          s.close();
        } catch (IOException ignored) {
          // Best effort: the rank's output is already on disk.
        }
      }
    }
    if (result.succeeded()) {
      return new Outcome(0, result.exitStatus());
    }
    if (!opts.tails(result.firstFailedRank())) {
      showFailure(console, result.firstFailedRank(), logs.get(result.firstFailedRank()));
    }
    console.println(
        "RuntimeError: Distributed job exited with exception. Please check logs in directory: "
            + opts.logDir()
            + ".");
    return new Outcome(1, result.exitStatus());
  }

  /** The rank id of job rank {@code rank}: itself, or in a dry run of one rank its simulated id. */
  static int rankId(MsRunOptions opts, Rank rank) {
    return opts.simLevel() != -1 && opts.simRankId() != -1 ? opts.simRankId() : rank.rank();
  }

  /** The environment msrun gives worker {@code rank}, on top of the launcher's own. */
  static Map<String, String> rankEnv(Map<String, String> base, MsRunOptions opts, Rank rank) {
    Map<String, String> env = new HashMap<>(base);
    if (opts.simLevel() != -1) {
      // msrun's dry run: no scheduler; each worker simulates rank RANK_ID of RANK_SIZE.
      env.put("MS_SIMULATION_LEVEL", Integer.toString(opts.simLevel()));
      env.put("RANK_ID", Integer.toString(rankId(opts, rank)));
      env.put("RANK_SIZE", Integer.toString(opts.workerNum()));
      env.put("DEVICE_ID", Integer.toString(rank.localRank()));
      return env;
    }
    env.put("MS_WORKER_NUM", Integer.toString(opts.workerNum()));
    env.put("MS_SCHED_HOST", opts.masterAddr());
    env.put("MS_SCHED_PORT", Integer.toString(opts.masterPort()));
    env.put("MS_TOPO_TIMEOUT", Integer.toString(opts.clusterTimeOut()));
    env.put("MS_ROLE", "MS_WORKER");
    env.put("MS_NODE_ID", Integer.toString(rank.rank()));
    env.put("RANK_ID", Integer.toString(rank.rank()));
    env.put("RANK_SIZE", Integer.toString(opts.workerNum()));
    env.put("DEVICE_ID", Integer.toString(rank.localRank()));
    if (!opts.rankTableFile().isEmpty()) {
      env.put("RANK_TABLE_FILE", opts.rankTableFile());
    }
    return env;
  }

  private static String formatLogName(String pattern) {
    if (pattern.isEmpty()) {
      return "worker";
    }
    String name = pattern;
    try {
      InetAddress local = InetAddress.getLocalHost();
      name =
          name.replace("{ip}", local.getHostAddress()).replace("{hostname}", local.getHostName());
    } catch (IOException e) {
      name = name.replace("{ip}", "127.0.0.1").replace("{hostname}", "localhost");
    }
    return name;
  }

  private static OutputStream openLog(Path log, long limit, PrintStream console) {
    try {
      return new LineTee(CappedLog.of(Files.newOutputStream(log), limit), console);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Prints the failed worker's traceback (or its last lines) on the console. */
  private static void showFailure(PrintStream console, int rank, Path log) {
    console.println(
        "[ERROR] msrun: worker " + rank + " exited with an exception; log " + log + ":");
    List<String> lines;
    try {
      lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      console.println("(log unreadable: " + e.getMessage() + ")");
      return;
    }
    int from = Math.max(0, lines.size() - 40);
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith("Traceback (most recent call last)")) {
        from = i;
        break;
      }
    }
    for (String line : lines.subList(from, lines.size())) {
      console.println(line);
    }
  }
}
