package dev.msjvm.frontend.server;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.PathPart;

/**
 * Serves a file, whole or a single byte range ({@code Range: bytes=a-b}, {@code bytes=a-}, {@code
 * bytes=-n}), streamed from disk by the server (never read into memory), so a log of gigabytes is
 * as cheap to serve as a small one. A file that does not exist yet is an empty body.
 */
final class FileRanges {
  private FileRanges() {}

  private static final Pattern SINGLE = Pattern.compile("bytes=(\\d*)-(\\d*)");

  static Response serve(Path file, String range, MediaType type) {
    long size;
    try {
      size = Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? Files.size(file) : -1;
    } catch (IOException e) {
      size = -1;
    }
    if (size < 0) {
      return Response.ok("", type).header("Accept-Ranges", "bytes").build();
    }
    if (range == null || range.isBlank()) {
      return Response.ok(new PathPart(file, 0, size), type)
          .header("Accept-Ranges", "bytes")
          .build();
    }
    Matcher m = SINGLE.matcher(range.trim());
    long from;
    long to;
    if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
      return unsatisfiable(size);
    }
    try {
      if (m.group(1).isEmpty()) {
        long suffix = Long.parseLong(m.group(2));
        from = Math.max(0, size - suffix);
        to = size - 1;
      } else {
        from = Long.parseLong(m.group(1));
        to = m.group(2).isEmpty() ? size - 1 : Math.min(Long.parseLong(m.group(2)), size - 1);
      }
    } catch (NumberFormatException e) {
      return unsatisfiable(size);
    }
    if (from >= size || from > to) {
      return unsatisfiable(size);
    }
    return Response.status(Response.Status.PARTIAL_CONTENT)
        .entity(new PathPart(file, from, to - from + 1))
        .type(type)
        .header("Accept-Ranges", "bytes")
        .header("Content-Range", "bytes " + from + "-" + to + "/" + size)
        .build();
  }

  private static Response unsatisfiable(long size) {
    return Response.status(Response.Status.REQUESTED_RANGE_NOT_SATISFIABLE)
        .header("Content-Range", "bytes */" + size)
        .header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON)
        .entity(java.util.Map.of("error", "the range is outside the file (" + size + " bytes)"))
        .build();
  }
}
