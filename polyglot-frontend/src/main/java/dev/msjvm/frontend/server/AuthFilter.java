package dev.msjvm.frontend.server;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every {@code /v1} request must carry {@code Authorization: Bearer <msjvm.server.token>}; others
 * get 401 with a JSON error. The comparison takes the same time whatever the token's prefix.
 */
@Provider
public class AuthFilter implements ContainerRequestFilter {

  @ConfigProperty(name = "msjvm.server.token")
  String token;

  @Override
  public void filter(ContainerRequestContext request) {
    String path = request.getUriInfo().getPath();
    if (!path.startsWith("/v1") && !path.startsWith("v1")) {
      return;
    }
    String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
    String given = header != null && header.startsWith("Bearer ") ? header.substring(7) : "";
    if (token == null
        || token.isEmpty()
        || !MessageDigest.isEqual(
            given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8))) {
      request.abortWith(
          Response.status(Response.Status.UNAUTHORIZED)
              .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
              .type(MediaType.APPLICATION_JSON)
              .entity(Map.of("error", "missing or wrong bearer token"))
              .build());
    }
  }
}
