package dev.msjvm.frontend.server;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * JSON bodies for the API's errors: 400 for a refused submission (naming the field), 404 for an
 * unknown job, 429 with {@code Retry-After} when the server is busy.
 */
public class Errors {

  @ServerExceptionMapper
  public Response badRequest(JobService.BadRequest e) {
    return json(Response.Status.BAD_REQUEST, e.getMessage());
  }

  @ServerExceptionMapper
  public Response busy(JobService.Busy e) {
    return Response.status(Response.Status.TOO_MANY_REQUESTS)
        .type(MediaType.APPLICATION_JSON)
        .header("Retry-After", e.retryAfterSeconds)
        .entity(Map.of("error", e.getMessage()))
        .build();
  }

  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return json(Response.Status.NOT_FOUND, e.getMessage());
  }

  /** A body that is not JSON, or JSON of the wrong shape: 400 with the field and its type. */
  @ServerExceptionMapper(priority = 1)
  public Response badJson(JsonProcessingException e) {
    return json(Response.Status.BAD_REQUEST, describe(e));
  }

  /** Wrong types, unknown fields (more specific than Quarkus's own mapper, which has no body). */
  @ServerExceptionMapper(priority = 1)
  public Response mismatched(MismatchedInputException e) {
    return json(Response.Status.BAD_REQUEST, describe(e));
  }

  /** A body that does not parse. */
  @ServerExceptionMapper(priority = 1)
  public Response unparsable(JsonParseException e) {
    return json(Response.Status.BAD_REQUEST, describe(e));
  }

  /** The same, where the framework wrapped the reader's exception. */
  @ServerExceptionMapper(priority = 1)
  public Response wrapped(WebApplicationException e) {
    if (e.getCause() instanceof JsonProcessingException j) {
      return json(Response.Status.BAD_REQUEST, describe(j));
    }
    Response r = e.getResponse();
    return json(
        Response.Status.fromStatusCode(r.getStatus()) == null
            ? Response.Status.BAD_REQUEST
            : Response.Status.fromStatusCode(r.getStatus()),
        e.getMessage());
  }

  static String describe(JsonProcessingException e) {
    if (e instanceof UnrecognizedPropertyException u) {
      return "unknown field '"
          + u.getPropertyName()
          + "' (known: "
          + u.getKnownPropertyIds().stream().map(Object::toString).sorted().toList()
          + ")";
    }
    if (e instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
      return "'" + field(m.getPath()) + "' must be " + expected(m.getTargetType(), m.getPath());
    }
    return "the body is not valid JSON: " + e.getOriginalMessage();
  }

  private static String field(List<JsonMappingException.Reference> path) {
    return path.stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }

  private static String expected(Class<?> type, List<JsonMappingException.Reference> path) {
    String top = path.get(0).getFieldName();
    if (type == null) {
      return "of the documented type";
    }
    if (type == String.class) {
      return "files".equals(top) && path.size() > 1 ? "a base64 string" : "a string";
    }
    if (type == Integer.class || type == int.class) {
      return "an integer";
    }
    if (List.class.isAssignableFrom(type)) {
      return "a list of strings";
    }
    if (Map.class.isAssignableFrom(type)) {
      return "an object mapping file names to base64 strings";
    }
    return "a JSON object with the documented fields";
  }

  private static Response json(Response.Status status, String message) {
    return Response.status(status)
        .type(MediaType.APPLICATION_JSON)
        .entity(Map.of("error", message == null ? status.getReasonPhrase() : message))
        .build();
  }
}
