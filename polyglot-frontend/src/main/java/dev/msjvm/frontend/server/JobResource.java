package dev.msjvm.frontend.server;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The job API ({@code /v1}); every request needs {@code Authorization: Bearer <token>}. */
@Path("/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

  @Inject JobService jobs;

  /** Queues a script: 201 with {@code {"id", "state"}}. */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response submit(JobService.Submission submission) {
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
  public JobRecord get(@PathParam("id") String id) {
    return jobs.get(id).orElseThrow(() -> new NotFoundException("no job " + id));
  }

  /** Cancels a queued or running job; a finished one is returned as it is. */
  @DELETE
  @Path("/{id}")
  public JobRecord cancel(@PathParam("id") String id) {
    return jobs.cancel(id).orElseThrow(() -> new NotFoundException("no job " + id));
  }

  /**
   * The log of one rank so far, as text; with {@code follow=true} the response streams what the
   * rank writes until the job ends.
   */
  @GET
  @Path("/{id}/logs/{rank}")
  @Produces(MediaType.TEXT_PLAIN)
  public Response log(
      @PathParam("id") String id,
      @PathParam("rank") int rank,
      @jakarta.ws.rs.QueryParam("follow") boolean follow) {
    JobRecord r = get(id);
    if (rank < 0 || rank >= r.workers()) {
      throw new NotFoundException("job " + id + " has no rank " + rank);
    }
    java.nio.file.Path log = jobs.log(id, rank);
    if (!follow) {
      try {
        return Response.ok(Files.exists(log) ? Files.readString(log) : "").build();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    jakarta.ws.rs.core.StreamingOutput stream =
        out -> {
          long at = 0;
          byte[] buf = new byte[8192];
          while (true) {
            boolean done = jobs.get(id).map(j -> j.state().done()).orElse(true);
            if (Files.exists(log)) {
              try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(log)) {
                ch.position(at);
                java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(buf);
                int n;
                while ((n = ch.read(bb)) > 0) {
                  out.write(buf, 0, n);
                  at += n;
                  bb.clear();
                }
              }
              out.flush();
            }
            if (done) {
              return;
            }
            try {
              Thread.sleep(100);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
        };
    return Response.ok(stream).build();
  }

  /** The files the job's directory holds (relative paths), its script and logs included. */
  @GET
  @Path("/{id}/artifacts")
  public List<String> artifacts(@PathParam("id") String id) {
    get(id);
    java.nio.file.Path work = jobs.work(id);
    try (Stream<java.nio.file.Path> files = Files.walk(work)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> work.relativize(p).toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One artifact's bytes. */
  @GET
  @Path("/{id}/artifacts/{name: .+}")
  @Produces(MediaType.APPLICATION_OCTET_STREAM)
  public Response artifact(@PathParam("id") String id, @PathParam("name") String name) {
    get(id);
    java.nio.file.Path work = jobs.work(id);
    java.nio.file.Path file = work.resolve(name).normalize();
    if (!file.startsWith(work) || !Files.isRegularFile(file)) {
      throw new NotFoundException("job " + id + " has no artifact " + name);
    }
    return Response.ok(file.toFile()).build();
  }
}
