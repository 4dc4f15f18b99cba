package dev.msjvm.frontend.server;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** The job API ({@code /v1}); every request needs {@code Authorization: Bearer <token>}. */
@Path("/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

  @Inject JobService jobs;

  /** Queues a script: 201 with {@code {"id", "state"}}. */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @APIResponse(responseCode = "201", description = "queued")
  @APIResponse(responseCode = "400", description = "a refused submission (the field and the rule)")
  @APIResponse(responseCode = "401", description = "missing or wrong bearer token")
  @APIResponse(responseCode = "413", description = "the request body is too large")
  @APIResponse(responseCode = "415", description = "the body is not JSON")
  @APIResponse(
      responseCode = "429",
      description = "the queue is full; retry after the Retry-After seconds")
  public Response submit(@RequestBody(required = true) JobService.Submission submission) {
    JobRecord r = jobs.submit(submission);
    return Response.status(Response.Status.CREATED)
        .entity(Map.of("id", r.id(), "state", r.state()))
        .header("Location", "/v1/jobs/" + r.id())
        .build();
  }

  @GET
  public List<JobRecord> list() {
    return jobs.list();
  }

  @GET
  @Path("/{id}")
  @APIResponse(responseCode = "404", description = "no such job")
  public JobRecord get(@PathParam("id") String id) {
    return jobs.get(id).orElseThrow(() -> new NotFoundException("no job " + id));
  }

  /** Cancels a queued or running job; a finished one is returned as it is. */
  @DELETE
  @Path("/{id}")
  @APIResponse(responseCode = "404", description = "no such job")
  public JobRecord cancel(@PathParam("id") String id) {
    return jobs.cancel(id).orElseThrow(() -> new NotFoundException("no job " + id));
  }

  /**
   * The log of one rank so far, as text (a {@code Range: bytes=...} request gets that part, 206);
   * with {@code follow=true} the response streams what the rank writes until the job ends, without
   * holding a request thread while it waits.
   */
  @GET
  @Path("/{id}/logs/{rank}")
  @Produces(MediaType.TEXT_PLAIN)
  @APIResponse(responseCode = "200", description = "the log so far (or streamed with follow)")
  @APIResponse(responseCode = "206", description = "the requested byte range of the log")
  @APIResponse(responseCode = "404", description = "no such job, rank or log file")
  @APIResponse(responseCode = "416", description = "the range is outside the log")
  @APIResponse(responseCode = "429", description = "too many logs are being followed")
  @RunOnVirtualThread
  public Response log(
      @PathParam("id") String id,
      @PathParam("rank") int rank,
      @QueryParam("follow") boolean follow,
      @HeaderParam("Range") String range) {
    JobRecord r = get(id);
    if (rank < 0 || rank >= r.workers()) {
      throw new NotFoundException("job " + id + " has no rank " + rank);
    }
    java.nio.file.Path log = jobs.log(id, rank);
    if (Files.exists(log, LinkOption.NOFOLLOW_LINKS)
        && !Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)) {
      throw new NotFoundException("the log of rank " + rank + " of job " + id + " is not a file");
    }
    if (follow) {
      return Response.ok(
              followers.follow(log, () -> jobs.get(id).map(j -> j.state().done()).orElse(true)))
          .build();
    }
    return FileRanges.serve(log, range, MediaType.TEXT_PLAIN_TYPE);
  }

  @Inject LogFollowers followers;

  /** The files the job's directory holds (relative paths), its script and logs included. */
  @GET
  @Path("/{id}/artifacts")
  @APIResponse(responseCode = "404", description = "no such job")
  public List<String> artifacts(@PathParam("id") String id) {
    get(id);
    java.nio.file.Path work = jobs.work(id);
    try (Stream<java.nio.file.Path> files = Files.walk(work)) {
      return files
          .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .map(p -> work.relativize(p).toString())
          .sorted()
          .toList();
    } catch (IOException | UncheckedIOException e) {
      throw new NotFoundException(
          "the files of job " + id + " cannot be listed: " + e.getMessage());
    }
  }

  /** One artifact's bytes ({@code Range} requests answered with 206). */
  @GET
  @Path("/{id}/artifacts/{name: .+}")
  @Produces(MediaType.APPLICATION_OCTET_STREAM)
  @APIResponse(responseCode = "400", description = "not a valid file name")
  @APIResponse(responseCode = "404", description = "no such job or file")
  public Response artifact(
      @PathParam("id") String id,
      @PathParam("name") String name,
      @HeaderParam("Range") String range) {
    get(id);
    java.nio.file.Path work = jobs.work(id);
    java.nio.file.Path file = ArtifactNames.resolve(work, name);
    if (file == null) {
      throw new NotFoundException("job " + id + " has no artifact " + UploadNames.shown(name));
    }
    return FileRanges.serve(file, range, MediaType.APPLICATION_OCTET_STREAM_TYPE);
  }
}
