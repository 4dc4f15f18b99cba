package dev.msjvm.frontend;

import dev.msjvm.engine.job.Job;
import dev.msjvm.engine.job.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.graalvm.polyglot.Context;

/**
 * {@code bin/mspython SCRIPT [ARGS...]}: runs one script like {@code python SCRIPT ARGS}, with the
 * {@code mindspore} package importable, as a one-rank job.
 */
public final class MsPython {
  private MsPython() {}

  public static void main(String[] argv) {
    System.exit(run(List.of(argv)));
  }

  static int run(List<String> argv) {
    if (argv.isEmpty()) {
      System.err.println("usage: mspython SCRIPT [ARGS...] | mspython -c SOURCE [ARGS...]");
      return 2;
    }
    Job job = Job.local("mspython", 1, Duration.ofSeconds(600));
    Session session = new Session(job.localRanks().get(0));
    try (PythonRuntime runtime = PythonRuntime.create();
        Context ctx =
            runtime.newContext(
                new PythonRuntime.ContextSpec(
                    session, System.getenv(), Path.of(""), System.in, System.out, System.err))) {
      if (argv.get(0).equals("-c") && argv.size() >= 2) {
        return runtime.runSource(ctx, argv.get(1), argv.subList(2, argv.size()));
      }
      return runtime.runScript(ctx, argv.get(0), argv.subList(1, argv.size()));
    }
  }

  static List<String> args(String... a) {
    return Arrays.asList(a);
  }
}
