package dev.msjvm.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MsRunOptionsTest {
  @Test
  void defaultsAreMsruns() throws Exception {
    MsRunOptions o = MsRunOptions.parse(List.of("train.py"));
    assertEquals(8, o.workerNum());
    assertEquals(8, o.localWorkerNum());
    assertEquals("127.0.0.1", o.masterAddr());
    assertEquals(8118, o.masterPort());
    assertEquals(-1, o.nodeRank());
    assertEquals("", o.logDir());
    assertFalse(o.join());
    assertEquals(600, o.clusterTimeOut());
    assertEquals("-1", o.tailWorkerLog());
    assertNull(o.validate());
  }

  @Test
  void pythonBeforeTheScriptIsTheProgramThatRunsIt() throws Exception {
    MsRunOptions o =
        MsRunOptions.parse(List.of("--worker_num=2", "python", "-u", "infer.py", "--x", "1"));
    assertEquals("infer.py", o.script());
    assertEquals(List.of("--x", "1"), o.scriptArgs());
    assertEquals("t.py", MsRunOptions.parse(List.of("python3", "t.py")).script());
    MsRunOptions m = MsRunOptions.parse(List.of("python", "-B", "-m", "pkg.tool", "--y"));
    assertEquals("-m", m.script());
    assertEquals(List.of("pkg.tool", "--y"), m.scriptArgs());
    MsRunOptions c = MsRunOptions.parse(List.of("python3", "-c", "print(1)", "a"));
    assertEquals("-c", c.script());
    assertEquals(List.of("print(1)", "a"), c.scriptArgs());
    MsRunOptions t =
        MsRunOptions.parse(List.of("--join=True", "pytest", "-s", "-v", "t.py::test_a"));
    assertEquals("-m", t.script());
    assertEquals(List.of("pytest", "-s", "-v", "t.py::test_a"), t.scriptArgs());
    MsRunOptions.UsageError e =
        assertThrows(
            MsRunOptions.UsageError.class, () -> MsRunOptions.parse(List.of("python", "-m")));
    assertTrue(e.getMessage().contains("required: task_script"), e.getMessage());
  }

  @Test
  void bothFlagFormsAndScriptArgsAfterTheScript() throws Exception {
    MsRunOptions o =
        MsRunOptions.parse(
            List.of(
                "--worker_num", "4", "--local_worker_num=4", "--join=True", "t.py", "--lr", "1"));
    assertEquals(4, o.workerNum());
    assertTrue(o.join());
    assertEquals("t.py", o.script());
    assertEquals(List.of("--lr", "1"), o.scriptArgs());
    assertTrue(o.tails(3));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--worker_num=x|argument --worker_num: invalid int value: 'x'",
        "--join=yes|argument --join: invalid choice: 'yes' (choose from True, False)",
        "--bogus=1|unrecognized arguments: --bogus=1",
        "--sim_level=7|argument --sim_level: invalid choice: 7 (choose from 0, 1, 2, 3)",
        "--cluster_time_out=0|argument --cluster_time_out: must be a positive number of seconds,"
            + " got 0",
        "--cluster_time_out=-5|argument --cluster_time_out: must be a positive number of seconds,"
            + " got -5",
      })
  void badFlagsAreUsageErrors(String flag, String message) {
    var e =
        assertThrows(
            MsRunOptions.UsageError.class, () -> MsRunOptions.parse(List.of(flag, "t.py")));
    assertEquals(message, e.getMessage());
  }

  @Test
  void missingScriptIsAUsageError() {
    var e = assertThrows(MsRunOptions.UsageError.class, () -> MsRunOptions.parse(List.of()));
    assertEquals(
        "the following arguments are required: task_script, task_script_args", e.getMessage());
  }

  @Test
  void valueChecksUseMsrunsTexts() throws Exception {
    assertEquals(
        "worker_num must be greater than 0, but got 0.",
        MsRunOptions.parse(List.of("--worker_num=0", "t.py")).validate());
    assertEquals(
        "Total worker number is 2, but got exceeded local worker number: 3.",
        MsRunOptions.parse(List.of("--worker_num=2", "--local_worker_num=3", "t.py")).validate());
  }

  @Test
  void tailWorkerLogSelectsWorkers() throws Exception {
    MsRunOptions o = MsRunOptions.parse(List.of("--join=True", "--tail_worker_log=0,2", "t.py"));
    assertTrue(o.tails(0));
    assertFalse(o.tails(1));
    assertTrue(o.tails(2));
    assertFalse(MsRunOptions.parse(List.of("t.py")).tails(0));
  }
}
