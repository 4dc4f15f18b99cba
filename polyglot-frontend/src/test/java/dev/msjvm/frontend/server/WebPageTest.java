package dev.msjvm.frontend.server;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The web page in headless Chromium (Debian's {@code chromium}; bin/test installs it): after a
 * 2-stage pipeline job, the page lists the job, shows both ranks' logs, draws each operator's
 * strategy as a device grid and the pipeline timeline with the F/B blocks of every micro-batch; for
 * a plan (a dry run), each rank's memory as a table.
 */
@QuarkusTest
class WebPageTest {

  @TestHTTPResource("/")
  URL root;

  private static final String PIPELINE =
      String.join(
          "\n",
          "import mindspore as ms",
          "from mindspore import nn",
          "from mindspore.communication import init",
          "from mindspore.parallel.nn import Pipeline",
          "from mindspore.train import Model",
          "import mindspore.dataset as ds",
          "from mindspore.dataset import transforms",
          "ms.set_context(mode=ms.GRAPH_MODE, save_graphs=True, save_graphs_path='.')",
          "init()",
          "ms.set_auto_parallel_context(parallel_mode='semi_auto_parallel', pipeline_stages=2,",
          "                             dataset_strategy='full_batch')",
          "class Net(nn.Cell):",
          "    def __init__(self):",
          "        super().__init__()",
          "        self.layer1 = nn.Dense(16, 16)",
          "        self.relu1 = nn.ReLU()",
          "        self.layer2 = nn.Dense(16, 4)",
          "    def construct(self, x):",
          "        return self.layer2(self.relu1(self.layer1(x)))",
          "net = Net()",
          "w = Pipeline(nn.WithLossCell(net, nn.MSELoss()), 4,",
          "             stage_config={'_backbone.layer1': 0, '_backbone.relu1': 0, '_backbone.layer2': 1})",
          "data = ds.NumpySlicesDataset({'x': [[i % 7 / 7] * 16 for i in range(64)],",
          "                              'y': [[0.5] * 4 for i in range(64)]}, shuffle=False)",
          "data = data.map(transforms.TypeCast(ms.float32), 'x').map(transforms.TypeCast(ms.float32), 'y')",
          "Model(w, optimizer=nn.SGD(net.trainable_params(), 0.01)).train(1, data.batch(16))",
          "print('trained on rank', ms.communication.get_rank())");

  @Test
  void thePageShowsJobsLogsStrategiesAndTheTimeline() throws Exception {
    String id =
        given()
            .header("Authorization", "Bearer test-token")
            .contentType(ContentType.JSON)
            .body(Map.of("script", PIPELINE, "workers", 2))
            .post("/v1/jobs")
            .then()
            .statusCode(201)
            .extract()
            .path("id");
    String state = "";
    long deadline = System.nanoTime() + 180_000_000_000L;
    while (System.nanoTime() < deadline) {
      state =
          given()
              .header("Authorization", "Bearer test-token")
              .get("/v1/jobs/" + id)
              .then()
              .extract()
              .path("state");
      if (!state.equals("QUEUED") && !state.equals("RUNNING")) {
        break;
      }
      Thread.sleep(200);
    }
    assertEquals("SUCCEEDED", state);
    given().get("/").then().statusCode(200);

    String page = render(id);
    assertTrue(page.contains("data-id=\"" + id + "\""), "the job list has the job");
    assertTrue(
        page.contains("trained on rank 0") && page.contains("trained on rank 1"), "both logs");
    assertTrue(page.contains("class=\"strategy\""), "strategy grids");
    assertTrue(page.contains("class=\"timeline\""), "the pipeline timeline");
    for (String block : List.of("F0", "F3", "B0", "B3")) {
      assertTrue(page.contains("class=\"block " + block + "\""), "timeline block " + block);
    }
  }

  /** A plan (a dry run of 2 ranks of a 16-rank cluster): the page shows each rank's memory. */
  @Test
  void thePageShowsAPlansMemoryPerRank() throws Exception {
    String id =
        given()
            .header("Authorization", "Bearer test-token")
            .contentType(ContentType.JSON)
            .body(Map.of("script", JobResourceTest.PLANNED, "workers", 2, "rankSize", 16))
            .post("/v1/plan")
            .then()
            .statusCode(200)
            .extract()
            .path("id");
    String page = render(id);
    assertTrue(page.contains("class=\"memory\""), "the memory table");
    assertTrue(page.contains("dry run of 16 ranks"), "the cluster planned");
  }

  /** The page of job {@code id} as headless Chromium leaves its DOM. */
  private String render(String id) throws Exception {
    Path dom = Files.createTempFile("msjvm-page", ".html");
    Process chromium =
        new ProcessBuilder(
                List.of(
                    "chromium",
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--virtual-time-budget=10000",
                    "--dump-dom",
                    root + "#token=test-token&job=" + id))
            .redirectOutput(dom.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue(chromium.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
    String page = Files.readString(dom, StandardCharsets.UTF_8);
    Files.delete(dom);
    return page;
  }
}
