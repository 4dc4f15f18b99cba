package dev.msjvm.frontend.server;

import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code POST /v1/plan}: the plan report of a script without training it. The script runs as a job
 * until its first parallel compile has partitioned the step and written each rank's plan (every
 * operator's strategy and layouts, inserted collectives, pipeline schedule, optimizer shards,
 * fusion buckets; the search report after a strategy search), then stops.
 */
@Path("/v1/plan")
public class PlanResource {

  @Inject JobService jobs;

  /**
   * Answers when the plan-only job has ended; no request thread waits for it meanwhile (the
   * submission itself runs on a worker thread, then the response completes asynchronously).
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  @Blocking
  @APIResponse(responseCode = "200", description = "the job's record and each rank's plan report")
  @APIResponse(responseCode = "400", description = "a refused submission (the field and the rule)")
  @APIResponse(responseCode = "401", description = "missing or wrong bearer token")
  @APIResponse(responseCode = "429", description = "the queue is full; retry later")
  public CompletionStage<Map<String, Object>> plan(
      @RequestBody(required = true) JobService.Submission submission) {
    return jobs.plan(submission);
  }
}
