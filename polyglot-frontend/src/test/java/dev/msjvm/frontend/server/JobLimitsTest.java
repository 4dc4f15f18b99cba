package dev.msjvm.frontend.server;

import static dev.msjvm.frontend.server.ServerApi.authed;
import static dev.msjvm.frontend.server.ServerApi.awaitDone;
import static dev.msjvm.frontend.server.ServerApi.awaitLog;
import static dev.msjvm.frontend.server.ServerApi.log;
import static dev.msjvm.frontend.server.ServerApi.submit;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-job quotas with clear errors, on a server with small limits: log bytes (head and tail
 * kept around a marker), files and bytes in the job directory (a write past them is an OSError the
 * script sees; a Java-side checkpoint past them fails the job), files per upload, and the queue
 * (429 with Retry-After).
 */
@QuarkusTest
@TestProfile(JobLimitsTest.SmallLimits.class)
class JobLimitsTest {

  /** One log keeps 1 MiB, a job 4 MiB in 200 files, an upload 5 files, the queue 3 jobs. */
  public static class SmallLimits implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "msjvm.server.max-log-mb", "1",
          "msjvm.server.max-job-mb", "4",
          "msjvm.server.max-job-files", "200",
          "msjvm.server.max-upload-files", "5",
          "msjvm.server.max-queued-jobs", "3",
          "msjvm.server.max-concurrent-jobs", "1",
          "msjvm.server.data-dir", "target/msserver-limits-data");
    }
  }

  @Test
  void aLogKeepsItsHeadAndTailAroundAMarker() throws Exception {
    String id =
        submit(
            "import sys\nprint('FIRST LINE')\nfor i in range(40000):\n"
                + "    sys.stdout.write('%08d ' % i + 'x' * 70 + '\\n')\nprint('LAST LINE')\n",
            1, Map.of());
    assertEquals("SUCCEEDED", awaitDone(id).get("state"));
    String out = log(id, 0);
    int limit = 1 << 20;
    assertTrue(out.length() < limit + 200, "the log holds " + out.length() + " bytes");
    assertTrue(out.startsWith("FIRST LINE"), out.substring(0, 40));
    assertTrue(out.contains("bytes of output dropped here"), "no marker");
    assertTrue(out.strip().endsWith("LAST LINE"), out.substring(out.length() - 100));
  }

  @Test
  void writesPastTheDiskQuotaRaiseOsError() throws Exception {
    String script =
        String.join(
            "\n",
            "import os",
            "try:",
            "    for i in range(1000):",
            "        open(f'f{i}.txt', 'w').close()",
            "except OSError as e:",
            "    print('files stopped at', i, e)",
            "try:",
            "    with open('big.bin', 'wb') as f:",
            "        for i in range(64):",
            "            f.write(b'x' * 1024 * 1024)",
            "except OSError as e:",
            "    print('bytes stopped at', i, 'MiB', e)",
            "print('done')");
    String id = submit(script, 1, Map.of());
    Map<String, Object> r = awaitDone(id);
    String out = log(id, 0);
    assertEquals("SUCCEEDED", r.get("state"), out);
    assertTrue(out.contains("files stopped at") && out.contains("Disk quota exceeded"), out);
    assertTrue(out.contains("bytes stopped at"), out);
    List<String> artifacts =
        authed().get("/v1/jobs/" + id + "/artifacts").then().extract().path("$");
    long counted = artifacts.stream().filter(a -> !a.startsWith("logs/")).count();
    assertTrue(counted <= 200, counted + " files besides the logs (which have their own limit)");
  }

  @Test
  void aJavaSideWritePastTheQuotaFailsTheJob() throws Exception {
    String script =
        "import mindspore as ms\nfrom mindspore import nn\nimport time\n"
            + "ms.save_checkpoint(nn.Dense(1024, 2048), 'big.ckpt')\nprint('saved', flush=True)\n"
            + "time.sleep(60)\n";
    String id = submit(script, 1, Map.of());
    Map<String, Object> r = awaitDone(id);
    assertEquals("FAILED", r.get("state"), r.toString());
    assertTrue(String.valueOf(r.get("reason")).contains("disk quota"), r.toString());
  }

  @Test
  void anUploadOfTooManyFilesIs400() {
    Map<String, String> files = new HashMap<>();
    for (int i = 0; i < 6; i++) {
      files.put("f" + i, "eA==");
    }
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)", "files", files))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("at most 5 files"));
  }

  @Test
  void aFullQueueAnswers429WithRetryAfter() throws Exception {
    List<String> ids = new ArrayList<>();
    String running =
        submit("import time\nprint('busy', flush=True)\ntime.sleep(600)\n", 1, Map.of());
    ids.add(running);
    awaitLog(running, "busy");
    Response refused = null;
    for (int i = 0; i < 5 && refused == null; i++) {
      Response r =
          authed()
              .contentType(ContentType.JSON)
              .body(Map.of("script", "import time\ntime.sleep(600)\n"))
              .post("/v1/jobs");
      if (r.statusCode() == 201) {
        ids.add(r.path("id"));
      } else {
        refused = r;
      }
    }
    assertTrue(refused != null, "5 more jobs were queued behind a running one with a queue of 3");
    assertEquals(429, refused.statusCode());
    assertEquals(ids.size(), 4, "the running job and 3 queued ones");
    assertTrue(Integer.parseInt(refused.header("Retry-After")) > 0);
    assertTrue(refused.asString().contains("queue is full"), refused.asString());
    for (String id : ids) {
      authed().delete("/v1/jobs/" + id).then().statusCode(200);
    }
    for (String id : ids) {
      assertEquals("CANCELLED", awaitDone(id).get("state"));
    }
    submit("print('the queue has room again')", 1, Map.of());
  }
}
