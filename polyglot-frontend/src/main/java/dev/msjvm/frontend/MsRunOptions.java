package dev.msjvm.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@code msrun}, parsed and checked as MindSpore's launcher does ({@code
 * mindspore/parallel/cluster/run.py}): the same flags, defaults and error texts.
 *
 * <p>Example: {@code parse(List.of("--worker_num=2", "--local_worker_num=2", "train.py", "--lr",
 * "0.1"))} gives two workers, script {@code train.py} and script arguments {@code [--lr, 0.1]}.
 */
public record MsRunOptions(
    int workerNum,
    int localWorkerNum,
    String masterAddr,
    int masterPort,
    int nodeRank,
    String logDir,
    boolean join,
    int clusterTimeOut,
    String workerLogName,
    String tailWorkerLog,
    String rankTableFile,
    int simLevel,
    int simRankId,
    String script,
    List<String> scriptArgs) {

  public MsRunOptions {
    scriptArgs = List.copyOf(scriptArgs);
  }

  /** A command-line error: printed like argparse does, exit status 2. */
  public static final class UsageError extends Exception {
    public UsageError(String message) {
      super(message);
    }
  }

  static final String USAGE =
      "usage: msrun [-h] [--worker_num WORKER_NUM] [--local_worker_num LOCAL_WORKER_NUM]\n"
          + "             [--master_addr MASTER_ADDR] [--master_port MASTER_PORT]\n"
          + "             [--node_rank NODE_RANK] [--log_dir LOG_DIR] [--join {True,False}]\n"
          + "             [--cluster_time_out CLUSTER_TIME_OUT] [--bind_core BIND_CORE]\n"
          + "             [--sim_level {0,1,2,3}] [--sim_rank_id SIM_RANK_ID]\n"
          + "             [--rank_table_file RANK_TABLE_FILE] [--worker_log_name WORKER_LOG_NAME]\n"
          + "             [--tail_worker_log TAIL_WORKER_LOG]\n"
          + "             task_script ...";

  private static final List<String> INT_FLAGS =
      List.of(
          "worker_num",
          "local_worker_num",
          "master_port",
          "node_rank",
          "cluster_time_out",
          "sim_level",
          "sim_rank_id");
  private static final List<String> STRING_FLAGS =
      List.of(
          "master_addr",
          "log_dir",
          "join",
          "bind_core",
          "bind_numa",
          "rank_table_file",
          "worker_log_name",
          "tail_worker_log");

  /** Parses {@code argv}; flags come before the script, everything after it is the script's. */
  public static MsRunOptions parse(List<String> argv) throws UsageError {
    Map<String, String> values = new java.util.LinkedHashMap<>();
    int i = 0;
    while (i < argv.size() && argv.get(i).startsWith("--")) {
      String arg = argv.get(i).substring(2);
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      if (!INT_FLAGS.contains(name) && !STRING_FLAGS.contains(name)) {
        throw new UsageError("unrecognized arguments: " + argv.get(i));
      }
      String value;
      if (arg.contains("=")) {
        value = arg.substring(arg.indexOf('=') + 1);
      } else if (i + 1 < argv.size()) {
        value = argv.get(++i);
      } else {
        throw new UsageError("argument --" + name + ": expected one argument");
      }
      values.put(name, value);
      i++;
    }
    if (i >= argv.size()) {
      throw new UsageError("the following arguments are required: task_script, task_script_args");
    }
    for (String name : INT_FLAGS) {
      String v = values.get(name);
      if (v != null) {
        try {
          Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
          throw new UsageError("argument --" + name + ": invalid int value: '" + v + "'");
        }
      }
    }
    String timeout = values.get("cluster_time_out");
    if (timeout != null && Integer.parseInt(timeout.trim()) <= 0) {
      // msrun would wait forever or time out at once; here the job's every wait has this limit.
      throw new UsageError(
          "argument --cluster_time_out: must be a positive number of seconds, got "
              + timeout.trim());
    }
    String join = values.getOrDefault("join", "False");
    if (!join.equals("True") && !join.equals("False")) {
      throw new UsageError(
          "argument --join: invalid choice: '" + join + "' (choose from True, False)");
    }
    String sim = values.get("sim_level");
    if (sim != null && !List.of("0", "1", "2", "3").contains(sim.trim())) {
      throw new UsageError(
          "argument --sim_level: invalid choice: " + sim.trim() + " (choose from 0, 1, 2, 3)");
    }
    // msrun also takes the program to run, as the docs' run scripts write it: `train.py ARGS`,
    // `python train.py` (or python3), `python -m MODULE ARGS`, `python -c SOURCE`, or `pytest
    // ARGS` (which is `python -m pytest ARGS`). The script is then "-m" or "-c" and the module or
    // the source leads the arguments, as in python's own argv.
    List<String> program = new ArrayList<>(argv.subList(i, argv.size()));
    if (program.get(0).equals("python") || program.get(0).equals("python3")) {
      String python = program.remove(0);
      while (!program.isEmpty()
          && program.get(0).startsWith("-")
          && !program.get(0).equals("-m")
          && !program.get(0).equals("-c")) {
        program.remove(0); // python's own flags (-u, -B, ...) change nothing here
      }
      if (program.isEmpty() || (program.get(0).matches("-[mc]") && program.size() < 2)) {
        throw new UsageError(
            "the following arguments are required: task_script, task_script_args (after '"
                + python
                + "')");
      }
    } else if (program.get(0).equals("pytest")) {
      program.add(0, "-m");
    }
    return new MsRunOptions(
        intValue(values, "worker_num", 8),
        intValue(values, "local_worker_num", 8),
        values.getOrDefault("master_addr", "127.0.0.1"),
        intValue(values, "master_port", 8118),
        intValue(values, "node_rank", -1),
        values.getOrDefault("log_dir", ""),
        join.equals("True"),
        intValue(values, "cluster_time_out", 600),
        values.getOrDefault("worker_log_name", ""),
        values.getOrDefault("tail_worker_log", "-1"),
        values.getOrDefault("rank_table_file", ""),
        intValue(values, "sim_level", -1),
        intValue(values, "sim_rank_id", -1),
        program.get(0),
        new ArrayList<>(program.subList(1, program.size())));
  }

  private static int intValue(Map<String, String> values, String name, int def) {
    String v = values.get(name);
    return v == null ? def : Integer.parseInt(v.trim());
  }

  /**
   * msrun's checks of the values ({@code process_entity/_api.py}), as the ValueError text msrun
   * raises; null when the options are valid.
   */
  public String validate() {
    if (workerNum <= 0) {
      return "worker_num must be greater than 0, but got " + workerNum + ".";
    }
    if (simRankId != -1 && (simRankId < 0 || simRankId >= workerNum)) {
      return "sim_rank_id must be in [0, " + workerNum + "), but got " + simRankId + ".";
    }
    if (localWorkerNum > workerNum) {
      return "Total worker number is "
          + workerNum
          + ", but got exceeded local worker number: "
          + localWorkerNum
          + ".";
    }
    return null;
  }

  /** The workers whose logs {@code --join=True} copies to the console. */
  public boolean tails(int rank) {
    if (!join) {
      return false;
    }
    if (tailWorkerLog.equals("-1")) {
      return true;
    }
    for (String part : tailWorkerLog.split(",")) {
      if (part.trim().equals(Integer.toString(rank))) {
        return true;
      }
    }
    return false;
  }
}
