package dev.msjvm.frontend.server;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;

/** The job API as the server tests call it (the test profile's token). */
final class ServerApi {
  private ServerApi() {}

  static RequestSpecification authed() {
    return given().header("Authorization", "Bearer test-token");
  }

  static String submit(String script, int workers, Map<String, String> files) {
    return submit(
        Map.of("script", script, "workers", workers, "args", List.of("a1"), "files", files));
  }

  /** POSTs {@code body} as a job: 201, QUEUED; returns its id. */
  static String submit(Map<String, Object> body) {
    return authed()
        .contentType(ContentType.JSON)
        .body(body)
        .when()
        .post("/v1/jobs")
        .then()
        .statusCode(201)
        .body("state", equalTo("QUEUED"))
        .extract()
        .path("id");
  }

  /** The job's record once it has ended (at most 180 s). */
  static Map<String, Object> awaitDone(String id) throws InterruptedException {
    long deadline = System.nanoTime() + 180_000_000_000L;
    while (System.nanoTime() < deadline) {
      Map<String, Object> r =
          authed().get("/v1/jobs/" + id).then().statusCode(200).extract().as(Map.class);
      String state = (String) r.get("state");
      if (state.equals("SUCCEEDED") || state.equals("FAILED") || state.equals("CANCELLED")) {
        return r;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("job " + id + " did not finish");
  }

  /** Waits until rank 0's log of job {@code id} contains {@code text} (at most 120 s). */
  static void awaitLog(String id, String text) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!authed().get("/v1/jobs/" + id + "/logs/0").asString().contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("job " + id + " never printed " + text);
      }
      Thread.sleep(100);
    }
  }

  static String log(String id, int rank) {
    return authed().get("/v1/jobs/" + id + "/logs/" + rank).asString();
  }

  static String artifact(String id, String name) {
    return authed().get("/v1/jobs/" + id + "/artifacts/" + name).then().extract().asString();
  }
}
