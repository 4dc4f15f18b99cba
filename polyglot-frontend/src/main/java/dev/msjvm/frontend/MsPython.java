package dev.msjvm.frontend;

import dev.msjvm.engine.job.Job;
import dev.msjvm.engine.job.Session;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.graalvm.polyglot.Context;

/**
 * {@code bin/mspython SCRIPT [ARGS...]}: runs one script like {@code python SCRIPT ARGS}, with the
 * {@code mindspore} package importable, as a one-rank job (same stdout/stderr, argv, exit status).
 */
public final class MsPython {
  private MsPython() {}

  public static void main(String[] argv) {
    int code;
    try (PythonRuntime runtime = PythonRuntime.create()) {
      code =
          run(
              List.of(argv),
              runtime,
              System.getenv(),
              Path.of(""),
              System.in,
              System.out,
              System.err);
    }
    System.exit(code);
  }

  /** Runs {@code mspython argv} in {@code runtime}; returns the exit status. */
  public static int run(
      List<String> argv,
      PythonRuntime runtime,
      Map<String, String> env,
      Path cwd,
      InputStream in,
      PrintStream out,
      PrintStream err) {
    if (argv.isEmpty() || (argv.get(0).matches("-[cm]") && argv.size() < 2)) {
      err.println(
          "usage: mspython SCRIPT [ARGS...] | mspython -c SOURCE [ARGS...] | mspython -m MODULE"
              + " [ARGS...]");
      return 2;
    }
    Job job = Job.local("mspython", 1, Duration.ofSeconds(600));
    Session session = new Session(job.localRanks().get(0));
    try (Context ctx =
        runtime.newContext(new PythonRuntime.ContextSpec(session, env, cwd, in, out, err))) {
      return runtime.runProgram(ctx, argv);
    } finally {
      out.flush();
      err.flush();
    }
  }
}
