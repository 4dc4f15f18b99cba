package dev.msjvm.frontend.server;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** JSON bodies for the API's errors: 400 for a refused submission, 404 for an unknown job. */
public class Errors {

  @ServerExceptionMapper
  public Response badRequest(JobService.BadRequest e) {
    return json(Response.Status.BAD_REQUEST, e.getMessage());
  }

  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return json(Response.Status.NOT_FOUND, e.getMessage());
  }

  private static Response json(Response.Status status, String message) {
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON)
        .entity(Map.of("error", message == null ? status.getReasonPhrase() : message))
        .build();
  }
}
