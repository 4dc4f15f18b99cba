package dev.msjvm.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** mspython and msrun end to end, in process: argv, exit status, tracebacks, failure handling. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LaunchersTest {
  private PythonRuntime runtime;
  @TempDir Path dir;

  @BeforeAll
  void start() {
    runtime = PythonRuntime.create();
  }

  @AfterAll
  void stop() {
    runtime.close();
  }

  private record Run(int status, String out, String err) {}

  private Run mspython(String source, String... args) throws IOException {
    Path script = dir.resolve("script.py");
    Files.writeString(script, source);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> argv = new java.util.ArrayList<>(List.of(script.toString()));
    argv.addAll(List.of(args));
    int status =
        MsPython.run(
            argv,
            runtime,
            Map.of("PATH", "/usr/bin"),
            dir,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Run msrun(String source, String... flags) throws IOException {
    Path script = dir.resolve("job.py");
    Files.writeString(script, source);
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    List<String> argv = new java.util.ArrayList<>(List.of(flags));
    argv.add("--log_dir=" + dir.resolve("logs"));
    argv.add(script.toString());
    int status =
        MsRun.run(
            argv,
            runtime,
            new HashMap<>(Map.of("PATH", "/usr/bin")),
            dir,
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(console, true, StandardCharsets.UTF_8));
    return new Run(status, console.toString(StandardCharsets.UTF_8), "");
  }

  private String log(int rank) throws IOException {
    return Files.readString(dir.resolve("logs").resolve("worker_" + rank + ".log"));
  }

  @Test
  void mspythonPassesArgvAndExitStatus() throws IOException {
    Run r = mspython("import sys\nprint(sys.argv[1:])\nsys.exit(int(sys.argv[1]))\n", "3", "x");
    assertEquals(3, r.status());
    assertEquals("['3', 'x']\n", r.out());
  }

  @Test
  void uncaughtExceptionPrintsTracebackAndExitsOne() throws IOException {
    Run r = mspython("def f():\n    raise KeyError('k')\nprint('before')\nf()\n");
    assertEquals(1, r.status());
    assertEquals("before\n", r.out());
    assertTrue(r.err().startsWith("Traceback (most recent call last):\n"), r.err());
    assertTrue(r.err().contains("line 4, in <module>"), r.err());
    assertTrue(r.err().endsWith("KeyError: 'k'\n"), r.err());
  }

  @Test
  void javaErrorsArePythonBuiltinsCatchableAsException() throws IOException {
    String src =
        """
        from mindspore import _host
        try:
            _host.session().comm()
        except Exception as e:
            print(type(e).__name__, e)
        try:
            _host.session().autoParallelContext().set("no_such_value", 1)
        except Exception as e:
            print(type(e).__name__, str(e).split(":")[0])
        """;
    Run r = mspython(src);
    assertEquals(0, r.status(), r.err());
    assertEquals(
        "RuntimeError Distributed Communication has not been inited.You can't invoke this"
            + " interface yet. Please call `init()` method first.\n"
            + "RuntimeError unknown parallel context value no_such_value\n",
        r.out());
  }

  @Test
  void craftedCheckpointsAndAnExhaustedHeapAreMindSporesClassesWithoutJavaNames()
      throws IOException {
    long float64s = (1L << 31) - 16; // 16 GiB: one array, but more than this JVM's heap
    assumeTrue(Runtime.getRuntime().maxMemory() < float64s * 8, "a heap of 16 GiB or more");
    String src =
        """
        import os
        import mindspore as ms
        cwd = os.path.realpath(os.getcwd())
        # 28 bytes declaring 300,000,000 Float32 values (1.2 GB) and holding one.
        huge = bytes.fromhex("0a1a0a017712150880c6868f011207466c6f617433321a0400000000")
        with open("huge.ckpt", "wb") as f:
            f.write(huge)
        with open("cut.ckpt", "wb") as f:
            f.write(huge[:20])
        for name in ("huge.ckpt", "cut.ckpt"):
            try:
                ms.load_checkpoint(name)
            except Exception as e:
                print(type(e).__name__, "java." in str(e), repr(str(e).replace(cwd, "<cwd>")))
        try:
            ms.ops.ones((%d,), ms.float64)
        except MemoryError as e:
            print("MemoryError", "java." in str(e), str(e).split(":")[0], "MSJVM_HEAP=" in str(e))
        """
            .formatted(float64s);
    Run r = mspython(src);
    assertEquals(0, r.status(), r.err());
    assertEquals(
        "ValueError False \"The checkpoint entry 'w' declares shape [300000000] of Float32"
            + " (1200000000 bytes) but holds 4 bytes.\\nFor 'load_checkpoint', failed to load the"
            + " checkpoint file <cwd>/huge.ckpt.\"\n"
            + "ValueError False 'Failed to read the checkpoint file <cwd>/cut.ckpt. The file may be"
            + " corrupted, and the content cannot be parsed.\\nThe checkpoint value at byte 0"
            + " declares 26 bytes, but only 18 are left.'\n"
            + "MemoryError False The engine ran out of memory in rank 0 True\n",
        r.out());
  }

  @Test
  void msrunGivesEachRankItsEnvironmentAndLog() throws IOException {
    String src =
        """
        import os
        from mindspore.communication import init, get_rank, get_group_size, get_local_rank
        init()
        keys = ["MS_WORKER_NUM", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_ROLE", "MS_NODE_ID",
                "RANK_ID", "RANK_SIZE", "DEVICE_ID"]
        print(*[os.environ[k] for k in keys], get_rank(), get_group_size(), get_local_rank())
        """;
    Run r = msrun(src, "--worker_num=3", "--local_worker_num=3", "--master_port=9000");
    assertEquals(0, r.status(), r.out());
    for (int rank = 0; rank < 3; rank++) {
      String expected =
          "3 127.0.0.1 9000 MS_WORKER "
              + rank
              + " "
              + rank
              + " 3 "
              + rank
              + " "
              + rank
              + " 3 "
              + rank
              + "\n";
      assertEquals(expected, log(rank));
    }
  }

  @Test
  @Timeout(120)
  void aFailingRankStopsTheOthersWaitingInACollective() throws IOException {
    // Rank 2 dies; the others wait in a barrier that can never complete, or spin forever.
    String src =
        """
        from mindspore.communication import init, get_rank
        from mindspore import _host
        init()
        r = get_rank()
        if r == 2:
            raise ValueError("rank 2 gives up")
        if r == 3:
            while True:
                pass
        _host.session().comm().barrier("hccl_world_group")
        print("never reached")
        """;
    Run r = msrun(src, "--worker_num=4", "--local_worker_num=4");
    assertEquals(1, r.status());
    assertTrue(r.out().contains("worker 2 exited with an exception"), r.out());
    assertTrue(r.out().contains("ValueError: rank 2 gives up"), r.out());
    assertTrue(
        r.out()
            .contains(
                "RuntimeError: Distributed job exited with exception. Please check logs in"
                    + " directory: "),
        r.out());
    for (int rank : new int[] {0, 1, 3}) {
      assertTrue(!log(rank).contains("never reached"), log(rank));
    }
  }

  @Test
  void joinTailsSelectedWorkerLogsToTheConsole() throws IOException {
    String src = "import os\nprint('hello from', os.environ['RANK_ID'])\n";
    Run r =
        msrun(src, "--worker_num=3", "--local_worker_num=3", "--join=True", "--tail_worker_log=1");
    assertEquals(0, r.status());
    assertEquals("hello from 1\n", r.out());
    assertEquals("hello from 0\n", log(0));
  }

  @Test
  void aDryRunSimulatesItsRanksAndNodeRankIsIgnoredWithAWarning() throws IOException {
    String src =
        "import os\n"
            + "from mindspore.communication import init, get_rank, get_group_size, get_local_rank\n"
            + "init()\n"
            + "print(os.environ['MS_SIMULATION_LEVEL'], get_rank(), get_group_size(),"
            + " get_local_rank())\n";
    // --sim_rank_id: that rank of a 1024-rank cluster alone, in one worker.
    Run one =
        msrun(
            src,
            "--worker_num=1024",
            "--local_worker_num=8",
            "--sim_level=0",
            "--sim_rank_id=1001");
    assertEquals(0, one.status(), one.out());
    assertEquals("0 1001 1024 1\n", log(1001));
    assertFalse(Files.exists(dir.resolve("logs").resolve("worker_0.log")));
    // Without it: this node's local workers, each its own rank of the simulated cluster.
    Run local = msrun(src, "--worker_num=32", "--local_worker_num=2", "--sim_level=1");
    assertEquals(0, local.status(), local.out());
    assertEquals("1 0 32 0\n", log(0));
    assertEquals("1 1 32 1\n", log(1));
    Run bad =
        msrun(src, "--worker_num=4", "--local_worker_num=4", "--sim_level=0", "--sim_rank_id=4");
    assertEquals(1, bad.status());
    assertEquals("ValueError: sim_rank_id must be in [0, 4), but got 4.\n", bad.out());
    Run node = msrun("print(1)\n", "--worker_num=2", "--local_worker_num=2", "--node_rank=3");
    assertEquals(0, node.status());
    assertEquals(
        "[WARNING] msrun: All workers will be spawned on this node, so 'node_rank': [3] will be"
            + " ignored.\n",
        node.out());
  }

  @Test
  void msrunRejectsMoreLocalWorkersThanWorkers() throws IOException {
    Run r = msrun("print(1)\n", "--worker_num=2", "--local_worker_num=4");
    assertEquals(1, r.status());
    assertEquals(
        "ValueError: Total worker number is 2, but got exceeded local worker number: 4.\n",
        r.out());
  }
}
