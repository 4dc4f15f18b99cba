package dev.msjvm.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.msjvm.frontend.MsPython;
import dev.msjvm.frontend.MsRun;
import dev.msjvm.frontend.PythonRuntime;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays every conformance case (a MindSpore-style script with a golden stdout) through the
 * launchers: one-rank cases through {@code mspython}, {@code # ranks: N} cases through {@code msrun
 * --worker_num=N --local_worker_num=N}. Goldens were produced by real MindSpore (see {@code
 * cases/DEVIATIONS.md} for the cases where the product deliberately differs).
 *
 * <p>The scripts under {@code equivalence/} check what MindSpore cannot run on a CPU
 * (semi_auto_parallel, auto_parallel): each compares its N-rank run with the stand-alone run of the
 * same network and data in the same process and prints the verdicts; their {@code .expected} output
 * is those verdicts all passing, with the layouts MindSpore's rules give.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConformanceTest {
  private static final Path CASES = Path.of("src/test/resources/cases");
  private static final Path EQUIVALENCE = Path.of("src/test/resources/equivalence");
  // The same filter as tools/run_on_mindspore.py: log lines are not part of a script's output.
  private static final Pattern LOG_LINE =
      Pattern.compile("^\\[(DEBUG|INFO|WARNING|ERROR|CRITICAL|EXCEPTION)\\]");

  private PythonRuntime runtime;
  private boolean numpyAvailable;

  @TempDir Path work;

  @BeforeAll
  void start() {
    runtime = PythonRuntime.create();
    numpyAvailable = runtime.hasNumpy();
  }

  @AfterAll
  void stop() {
    runtime.close();
  }

  record Case(String name, Path script, int ranks, int exit, Path expected) {}

  @TestFactory
  Stream<DynamicTest> cases() throws IOException {
    // MSJVM_CASES (a regular expression on case names) runs a subset, for a developer; CI sets none
    // and fails if one is set, so no case is quietly left out.
    String only = System.getenv("MSJVM_CASES");
    if (only != null && !only.isEmpty()) {
      Assertions.assertNotEquals("true", System.getenv("CI"), "MSJVM_CASES is set in CI");
    }
    Pattern filter = only == null || only.isEmpty() ? null : Pattern.compile(only);
    List<Case> cases = new ArrayList<>();
    for (Path dir : List.of(CASES, EQUIVALENCE)) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path p :
            files
                .filter(f -> f.toString().endsWith(".py"))
                .filter(f -> !f.getFileName().toString().startsWith("_"))
                .sorted()
                .toList()) {
          Case c = parse(p, dir == CASES ? ".golden" : ".expected");
          if (filter == null || filter.matcher(c.name()).find()) {
            cases.add(c);
          }
        }
      }
    }
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
  }

  private static Case parse(Path script, String expectedSuffix) throws IOException {
    int ranks = 1;
    int exit = 0;
    for (String line : Files.readAllLines(script)) {
      if (!line.startsWith("#")) {
        break;
      }
      String body = line.substring(1).trim();
      if (body.startsWith("ranks:")) {
        ranks = Integer.parseInt(body.substring(6).trim());
      } else if (body.startsWith("exit:")) {
        exit = Integer.parseInt(body.substring(5).trim());
      }
    }
    String name = script.getFileName().toString().replaceFirst("\\.py$", "");
    return new Case(
        name, script.toAbsolutePath(), ranks, exit, script.resolveSibling(name + expectedSuffix));
  }

  private void check(Case c) throws IOException {
    if (c.name().endsWith("_numpy") && !numpyAvailable) {
      // bin/test builds numpy first, so in CI a missing numpy is a failure, never a skip; a
      // developer's plain `mvn verify` without it skips these cases.
      String why = "numpy for GraalPy is not installed (bin/setup-numpy)";
      Assertions.assertNotEquals("true", System.getenv("CI"), why);
      Assumptions.assumeTrue(false, why);
    }
    String golden = Files.readString(c.expected());
    Path dir = Files.createDirectories(work.resolve(c.name()));
    Map<String, String> env = cleanEnv();
    int status;
    String actual;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    if (c.ranks() == 1) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      status =
          MsPython.run(
              List.of(c.script().toString()),
              runtime,
              env,
              dir,
              new ByteArrayInputStream(new byte[0]),
              ps,
              new PrintStream(err, true, StandardCharsets.UTF_8));
      actual = out.toString(StandardCharsets.UTF_8);
      assertEquals(golden, actual, () -> "stdout of " + c.name() + "; stderr:\n" + err);
    } else {
      Path logs = dir.resolve("logs");
      status =
          MsRun.run(
              List.of(
                  "--worker_num=" + c.ranks(),
                  "--local_worker_num=" + c.ranks(),
                  "--log_dir=" + logs,
                  c.script().toString()),
              runtime,
              env,
              dir,
              new ByteArrayInputStream(new byte[0]),
              ps);
      StringBuilder sb = new StringBuilder();
      for (int r = 0; r < c.ranks(); r++) {
        sb.append("== rank ").append(r).append(" ==\n");
        sb.append(stdoutOf(Files.readString(logs.resolve("worker_" + r + ".log"))));
      }
      actual = sb.toString();
      assertEquals(golden, actual, () -> "worker stdout of " + c.name() + "; console:\n" + out);
    }
    assertEquals(c.exit(), status, () -> "exit status of " + c.name() + "\n" + out);
  }

  /** A worker log without log lines and without the traceback of an uncaught exception. */
  static String stdoutOf(String log) {
    StringBuilder sb = new StringBuilder();
    for (String line : log.lines().toList()) {
      if (line.startsWith("Traceback (most recent call last):")) {
        break;
      }
      if (!LOG_LINE.matcher(line).find()) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  /** The environment of a plain shell: no launcher or rank variables from the outside. */
  private static Map<String, String> cleanEnv() {
    Map<String, String> env = new HashMap<>();
    for (Map.Entry<String, String> e : System.getenv().entrySet()) {
      String k = e.getKey();
      if (k.startsWith("MS_") || k.startsWith("OMPI_") || k.startsWith("PMIX_")) {
        continue;
      }
      if (List.of("RANK_ID", "RANK_SIZE", "DEVICE_ID", "RANK_TABLE_FILE", "LOCAL_RANK")
          .contains(k)) {
        continue;
      }
      env.put(k, e.getValue());
    }
    return env;
  }
}
