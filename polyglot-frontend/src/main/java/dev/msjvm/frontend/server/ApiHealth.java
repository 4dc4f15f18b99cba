package dev.msjvm.frontend.server;

import io.quarkus.runtime.LaunchMode;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * {@code /q/health} asks the API itself: a {@code GET /v1/jobs} over loopback, with the token, must
 * answer 200 within {@link #TIMEOUT}. So health is DOWN when the API is frozen (every request
 * thread busy), not only when the process is gone. The check waits on no thread of its own.
 */
@Readiness
@ApplicationScoped
public class ApiHealth implements AsyncHealthCheck {
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  @ConfigProperty(name = "msjvm.server.token")
  String token;

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  /** The port the server listens on (under tests, the random one Quarkus picked). */
  private static int port() {
    var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
    String key =
        LaunchMode.current() == LaunchMode.TEST ? "quarkus.http.test-port" : "quarkus.http.port";
    return config.getOptionalValue(key, Integer.class).orElse(-1);
  }

  @ConfigProperty(name = "quarkus.http.host", defaultValue = "127.0.0.1")
  String listenHost;

  @Override
  public Uni<HealthCheckResponse> call() {
    int port = port();
    if (port <= 0) {
      return Uni.createFrom().item(down("the HTTP server has not started"));
    }
    String host = listenHost.isBlank() || listenHost.equals("0.0.0.0") ? "127.0.0.1" : listenHost;
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/v1/jobs?health=1"))
            .header("Authorization", "Bearer " + token)
            .timeout(TIMEOUT)
            .GET()
            .build();
    long t0 = System.nanoTime();
    return Uni.createFrom()
        .completionStage(() -> client.sendAsync(request, HttpResponse.BodyHandlers.discarding()))
        .map(
            r ->
                r.statusCode() == 200
                    ? HealthCheckResponse.named("api")
                        .up()
                        .withData("answeredMillis", (System.nanoTime() - t0) / 1_000_000)
                        .build()
                    : down("GET /v1/jobs answered " + r.statusCode()))
        .onFailure()
        .recoverWithItem(e -> down("GET /v1/jobs did not answer within " + TIMEOUT + ": " + e));
  }

  private static HealthCheckResponse down(String why) {
    return HealthCheckResponse.named("api").down().withData("reason", why).build();
  }
}
