package dev.msjvm.frontend.server;

import static dev.msjvm.frontend.server.ServerApi.authed;
import static dev.msjvm.frontend.server.ServerApi.awaitDone;
import static dev.msjvm.frontend.server.ServerApi.submit;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every endpoint of the job API, with its 401/404/400 cases, on a real server and real jobs. */
@QuarkusTest
class JobResourceTest {

  @Test
  void healthAndOpenApiNeedNoToken() {
    given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    given().get("/q/openapi").then().statusCode(200).body(containsString("/v1/jobs"));
  }

  @Test
  void everyV1RequestNeedsTheBearerToken() {
    given().get("/v1/jobs").then().statusCode(401).body("error", containsString("bearer token"));
    given().header("Authorization", "Bearer wrong").get("/v1/jobs").then().statusCode(401);
    given().header("Authorization", "test-token").get("/v1/jobs").then().statusCode(401);
    given()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)"))
        .post("/v1/jobs")
        .then()
        .statusCode(401);
    given().delete("/v1/jobs/x").then().statusCode(401);
    authed().get("/v1/jobs").then().statusCode(200);
  }

  @Test
  void unknownJobsAre404() {
    authed().get("/v1/jobs/nope").then().statusCode(404).body("error", containsString("nope"));
    authed().get("/v1/jobs/nope/logs/0").then().statusCode(404);
    authed().get("/v1/jobs/nope/artifacts").then().statusCode(404);
    authed().delete("/v1/jobs/nope").then().statusCode(404);
  }

  @Test
  void badSubmissionsAre400() {
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("workers", 1))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("'script'"));
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)", "workers", 0))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("'workers'"));
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)", "workers", 99))
        .post("/v1/jobs")
        .then()
        .statusCode(400);
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)", "files", Map.of("../escape.txt", "eA==")))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("leaves the job directory"));
    authed()
        .contentType(ContentType.JSON)
        .body("{not json")
        .post("/v1/jobs")
        .then()
        .statusCode(400);
  }

  @Test
  void aTwoRankJobRunsAndItsLogsAndArtifactsAreServed() throws Exception {
    String script =
        String.join(
            "\n",
            "import sys",
            "from mindspore.communication import init, get_rank, get_group_size",
            "init()",
            "print('rank', get_rank(), 'of', get_group_size(), 'args', sys.argv[1:])",
            "print(open('data.txt').read())",
            "with open(f'out_{get_rank()}.txt', 'w') as f:",
            "    f.write('done')");
    String id =
        submit(
            script,
            2,
            Map.of(
                "data.txt",
                Base64.getEncoder().encodeToString("hello".getBytes(StandardCharsets.UTF_8))));
    Map<String, Object> r = awaitDone(id);
    assertEquals("SUCCEEDED", r.get("state"), r.toString());
    assertEquals(
        List.of(Map.of("rank", 0, "exitCode", 0), Map.of("rank", 1, "exitCode", 0)),
        r.get("ranks"));
    authed()
        .get("/v1/jobs/" + id + "/logs/1")
        .then()
        .statusCode(200)
        .body(containsString("rank 1 of 2 args ['a1']"), containsString("hello"));
    authed().get("/v1/jobs/" + id + "/logs/2").then().statusCode(404);
    authed()
        .get("/v1/jobs/" + id + "/artifacts")
        .then()
        .statusCode(200)
        .body(
            "$", hasItems("script.py", "data.txt", "out_0.txt", "out_1.txt", "logs/worker_0.log"));
    String body =
        authed()
            .get("/v1/jobs/" + id + "/artifacts/out_1.txt")
            .then()
            .statusCode(200)
            .extract()
            .asString();
    assertEquals("done", body);
    authed().get("/v1/jobs/" + id + "/artifacts/../job.json").then().statusCode(404);
    List<String> ids = authed().get("/v1/jobs").then().statusCode(200).extract().path("id");
    assertTrue(ids.contains(id));
    // Cancelling a finished job changes nothing.
    authed().delete("/v1/jobs/" + id).then().statusCode(200).body("state", equalTo("SUCCEEDED"));
  }

  @Test
  void aFailingRankFailsTheJobWithItsExitCodes() throws Exception {
    String id =
        submit(
            "from mindspore.communication import init, get_rank\ninit()\n"
                + "import sys\nif get_rank() == 1:\n    sys.exit(3)\n",
            2,
            Map.of());
    Map<String, Object> r = awaitDone(id);
    assertEquals("FAILED", r.get("state"), r.toString());
    List<Map<String, Object>> ranks = (List<Map<String, Object>>) r.get("ranks");
    assertEquals(3, ranks.get(1).get("exitCode"));
    assertTrue(String.valueOf(r.get("reason")).contains("status"));
  }

  /** What a sandboxed job may not do fails the job, with the reason in its log. */
  @Test
  void sandboxEscapesFailTheJob() throws Exception {
    Map<String, String> attempts =
        Map.of(
            "read /etc/hostname", "print(open('/etc/hostname').read())",
            "write outside", "open('/tmp/msjvm-escape.txt', 'w').write('x')",
            "list /", "import os\nprint(os.listdir('/'))",
            "spawn a process", "import subprocess\nsubprocess.run(['true'])",
            "open a socket", "import socket\ns = socket.create_connection(('127.0.0.1', 9))\n",
            "save a checkpoint outside",
                "import mindspore as ms\nfrom mindspore import nn\n"
                    + "ms.save_checkpoint(nn.Dense(2, 2), '/tmp/msjvm-escape.ckpt')\n",
            "read a dataset outside",
                "import mindspore.dataset as ds\nprint(ds.MnistDataset('/etc').get_dataset_size())\n");
    for (Map.Entry<String, String> a : attempts.entrySet()) {
      String id = submit(a.getValue(), 1, Map.of());
      Map<String, Object> r = awaitDone(id);
      assertEquals("FAILED", r.get("state"), a.getKey() + ": " + r);
    }
    assertTrue(!java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/msjvm-escape.txt")));
    assertTrue(!java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/msjvm-escape.ckpt")));
    // Inside its directory the same calls work, relative paths resolved against it.
    String ok =
        submitAndWait(
            "import mindspore as ms\nfrom mindspore import nn\n"
                + "ms.save_checkpoint(nn.Dense(2, 2), 'model.ckpt')\n"
                + "print(sorted(ms.load_checkpoint('model.ckpt')))\n");
    assertEquals("SUCCEEDED", authed().get("/v1/jobs/" + ok).then().extract().path("state"));
    authed().get("/v1/jobs/" + ok + "/artifacts").then().body("$", hasItems("model.ckpt"));
    String log =
        authed()
            .get("/v1/jobs/" + submitAndWait("open('/etc/hostname').read()") + "/logs/0")
            .asString();
    assertTrue(log.contains("PermissionError"), log);
  }

  private static String submitAndWait(String script) throws InterruptedException {
    String id = submit(script, 1, Map.of());
    awaitDone(id);
    return id;
  }

  @Test
  void followStreamsALogUntilTheJobEnds() {
    String id =
        submit(
            "import time\nfor k in range(3):\n    print('line', k, flush=True)\n    time.sleep(0.3)\n",
            1,
            Map.of());
    String body =
        authed()
            .get("/v1/jobs/" + id + "/logs/0?follow=true")
            .then()
            .statusCode(200)
            .extract()
            .asString();
    assertTrue(body.contains("line 0") && body.contains("line 2"), body);
    String state = authed().get("/v1/jobs/" + id).then().extract().path("state");
    assertEquals("SUCCEEDED", state, "the stream ends when the job does");
  }

  @Test
  void aJobPastItsWallTimeLimitFails() throws Exception {
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)", "timeoutSeconds", 0))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("'timeoutSeconds'"));
    String id =
        submit(
            Map.of(
                "script", "import time\nwhile True:\n    time.sleep(0.05)\n", "timeoutSeconds", 2));
    Map<String, Object> r = awaitDone(id);
    assertEquals("FAILED", r.get("state"), r.toString());
    assertEquals("the job exceeded its wall-time limit of 2 s", r.get("reason"));
  }

  /** A semi_auto network planned by POST /v1/plan (also by {@code WebPageTest}). */
  static final String PLANNED =
      String.join(
          "\n",
          "import mindspore as ms",
          "from mindspore import nn, ops",
          "from mindspore.communication import init",
          "ms.set_context(mode=ms.GRAPH_MODE)",
          "init()",
          "ms.set_auto_parallel_context(parallel_mode='semi_auto_parallel')",
          "net = nn.Dense(8, 4)",
          "net.matmul.shard(((2, 1), (1, 1)))",
          "print(net(ops.ones((4, 8), ms.float32)))",
          "print('trained')");

  /**
   * A plan is a dry run: ranks 0 and 1 of a 64-rank cluster plan their parts and count their memory
   * without a kernel or a collective, and stop before training.
   */
  @Test
  void planReturnsEachRanksPlanWithoutTraining() {
    String script = PLANNED;
    given()
        .contentType(ContentType.JSON)
        .body(Map.of("script", script))
        .post("/v1/plan")
        .then()
        .statusCode(401);
    Map<String, Object> plan =
        authed()
            .contentType(ContentType.JSON)
            .body(Map.of("script", script, "workers", 2, "rankSize", 64))
            .post("/v1/plan")
            .then()
            .statusCode(200)
            .extract()
            .as(Map.class);
    assertEquals("SUCCEEDED", plan.get("state"), plan.toString());
    Map<String, String> reports = (Map<String, String>) plan.get("reports");
    assertTrue(
        reports.keySet().stream().anyMatch(k -> k.startsWith("rank_1/parallel_plan_")),
        reports.keySet().toString());
    String rank0 =
        reports.entrySet().stream()
            .filter(e -> e.getKey().startsWith("rank_0/parallel_plan_"))
            .findFirst()
            .orElseThrow()
            .getValue();
    assertTrue(rank0.contains("MatMul") && rank0.contains("strategy"), rank0);
    assertTrue(rank0.contains("MatMul") && rank0.contains("strategy"), rank0);
    Map<String, Map<String, Object>> memory = (Map<String, Map<String, Object>>) plan.get("memory");
    assertEquals(java.util.Set.of("0", "1"), memory.keySet(), plan.toString());
    for (Map<String, Object> m : memory.values()) {
      assertEquals(64, m.get("rank_size"), m.toString());
      // Dense(8, 4)'s weight (4 x 8) and bias, whole on every rank under ((2, 1), (1, 1)).
      assertEquals(4 * (4 * 8 + 4), m.get("parameter_bytes"), m.toString());
    }
    String log = authed().get("/v1/jobs/" + plan.get("id") + "/logs/0").asString();
    assertTrue(!log.contains("trained"), "plan-only stops before the step runs: " + log);
    assertTrue(log.contains("Used peak memory usage (without fragments)"), log);
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", script, "workers", 2, "rankSize", 1))
        .post("/v1/plan")
        .then()
        .statusCode(400)
        .body("error", containsString("'rankSize'"));
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", script, "rankSize", 8))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("'rankSize' is for POST /v1/plan"));
  }

  /**
   * A job with {@code memoryMb} runs in its own JVM with that heap: one that allocates past it
   * fails alone while another job (in the server's JVM) succeeds; a modest one succeeds with its
   * ranks' exit codes, sandboxed like the others.
   */
  @Test
  void aJobOverItsMemoryLimitFailsAlone() throws Exception {
    authed()
        .contentType(ContentType.JSON)
        .body(Map.of("script", "print(1)", "memoryMb", 1))
        .post("/v1/jobs")
        .then()
        .statusCode(400)
        .body("error", containsString("'memoryMb'"));
    String hog =
        submit(
            Map.of(
                "script",
                "chunks = []\nwhile True:\n    chunks.append(bytearray(8 * 1024 * 1024))\n",
                "memoryMb",
                256));
    String fine = submit("print('unharmed')", 1, Map.of());
    String own =
        submit(
            Map.of(
                "script",
                "from mindspore.communication import init, get_rank\ninit()\n"
                    + "print('own process', get_rank())\nopen('/etc/hostname')\n",
                "workers",
                2,
                "memoryMb",
                512));
    assertEquals("FAILED", awaitDone(hog).get("state"));
    assertEquals("SUCCEEDED", awaitDone(fine).get("state"));
    Map<String, Object> r = awaitDone(own);
    assertEquals("FAILED", r.get("state"), "the sandbox holds in a child process too: " + r);
    String log = authed().get("/v1/jobs/" + own + "/logs/1").asString();
    assertTrue(log.contains("own process 1") && log.contains("PermissionError"), log);
    List<Map<String, Object>> ranks = (List<Map<String, Object>>) r.get("ranks");
    assertEquals(1, ranks.get(0).get("exitCode"), r.toString());
  }

  @Test
  void aRunningJobCanBeCancelled() throws Exception {
    String id =
        submit(
            "import time\nprint('started', flush=True)\nwhile True:\n    time.sleep(0.05)\n",
            1,
            Map.of());
    ServerApi.awaitLog(id, "started");
    authed().delete("/v1/jobs/" + id).then().statusCode(200);
    Map<String, Object> r = awaitDone(id);
    assertEquals("CANCELLED", r.get("state"), r.toString());
  }
}
