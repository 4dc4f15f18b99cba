package dev.msjvm.frontend.server;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code POST /v1/plan}: the plan report of a script without training it. The script runs as a job
 * until its first parallel compile has partitioned the step and written each rank's plan (every
 * operator's strategy and layouts, inserted collectives, pipeline schedule, optimizer shards,
 * fusion buckets; the search report after a strategy search), then stops.
 */
@Path("/v1/plan")
public class PlanResource {

  @Inject JobService jobs;

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Map<String, Object> plan(JobService.Submission submission) throws InterruptedException {
    return jobs.plan(submission);
  }
}
