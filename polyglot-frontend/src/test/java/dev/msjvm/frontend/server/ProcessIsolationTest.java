package dev.msjvm.frontend.server;

import static dev.msjvm.frontend.server.ServerApi.authed;
import static dev.msjvm.frontend.server.ServerApi.awaitDone;
import static dev.msjvm.frontend.server.ServerApi.awaitLog;
import static dev.msjvm.frontend.server.ServerApi.log;
import static dev.msjvm.frontend.server.ServerApi.submit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The default isolation: every job in a child JVM of the server, one of them started ahead and
 * warm; a spinning job is killed by DELETE and by its wall-time limit.
 */
@QuarkusTest
@TestProfile(ProcessIsolationTest.Processes.class)
class ProcessIsolationTest {

  /** Process isolation with one warm child, small heaps. */
  public static class Processes implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "msjvm.server.isolation", "process",
          "msjvm.server.warm-processes", "1",
          "msjvm.server.max-memory-mb", "768",
          "msjvm.server.data-dir", "target/msserver-process-data");
    }
  }

  /** The server's child JVMs waiting for a job (this test runs in the server's JVM). */
  private static List<ProcessHandle> children() {
    return ProcessHandle.current()
        .children()
        .filter(
            p ->
                p.info()
                    .arguments()
                    .map(a -> List.of(a).contains("dev.msjvm.frontend.ServerChild"))
                    .orElse(false))
        .toList();
  }

  private static ProcessHandle awaitChild() throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      Optional<ProcessHandle> child = children().stream().findFirst();
      if (child.isPresent()) {
        return child.get();
      }
      assertTrue(System.nanoTime() < deadline, "no warm child JVM was started");
      Thread.sleep(100);
    }
  }

  @Test
  void aWarmChildServesTheNextJobAndIsReplaced() throws Exception {
    ProcessHandle warm = awaitChild();
    String id =
        submit(
            "import os\nfrom mindspore.communication import init, get_rank\ninit()\n"
                + "print('rank', get_rank(), 'HOME', os.path.basename(os.environ['HOME']))\n",
            2,
            Map.of());
    Map<String, Object> r = awaitDone(id);
    assertEquals("SUCCEEDED", r.get("state"), r + log(id, 0));
    assertTrue(log(id, 1).contains("rank 1 HOME work"), log(id, 1));
    assertFalse(warm.isAlive(), "the warm child ran the job and ended");
    ProcessHandle next = awaitChild();
    assertTrue(next.pid() != warm.pid(), "a replacement is waiting");
  }

  @Test
  void aSpinningJobIsKilledByDeleteAndByItsWallTime() throws Exception {
    String spin = "print('spinning', flush=True)\nwhile True:\n    pass\n";
    String id = submit(spin, 1, Map.of());
    awaitLog(id, "spinning");
    authed().delete("/v1/jobs/" + id).then().statusCode(200);
    assertEquals("CANCELLED", awaitDone(id).get("state"));
    String timed = submit(Map.of("script", spin, "timeoutSeconds", 15));
    Map<String, Object> r = awaitDone(timed);
    assertEquals("FAILED", r.get("state"));
    assertEquals("the job exceeded its wall-time limit of 15 s", r.get("reason"));
    assertTrue(log(timed, 0).contains("spinning"), "it ran before it was stopped");
  }
}
