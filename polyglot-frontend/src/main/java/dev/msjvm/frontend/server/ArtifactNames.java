package dev.msjvm.frontend.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Finds the file an artifact name means inside a job directory: a bad name (control characters,
 * over-long segments) is a 400, anything that is not a regular file inside the directory (the
 * directory itself, {@code logs}, a link, a path leading out) is "no such artifact".
 */
final class ArtifactNames {
  private ArtifactNames() {}

  /** The regular file {@code name} names under {@code work}, or null. */
  static Path resolve(Path work, String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new JobService.BadRequest(
            "artifact name '" + shown(name) + "' contains a control character");
      }
    }
    if (name.getBytes(StandardCharsets.UTF_8).length > UploadNames.MAX_NAME_BYTES) {
      throw new JobService.BadRequest(
          "artifact name is longer than " + UploadNames.MAX_NAME_BYTES + " bytes");
    }
    for (String seg : name.split("/")) {
      if (seg.getBytes(StandardCharsets.UTF_8).length > UploadNames.MAX_SEGMENT_BYTES) {
        throw new JobService.BadRequest(
            "artifact name '"
                + shown(name)
                + "' has a segment longer than "
                + UploadNames.MAX_SEGMENT_BYTES
                + " bytes");
      }
    }
    try {
      Path root = work.toRealPath();
      Path file = root.resolve(name).normalize();
      if (!file.startsWith(root)
          || file.equals(root)
          || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
          || !file.toRealPath().startsWith(root)) {
        return null;
      }
      return file;
    } catch (InvalidPathException | IOException e) {
      return null;
    }
  }

  /** {@code name} fit for an error message (control characters replaced, long names cut). */
  static String shown(String name) {
    String s = name.replaceAll("\\p{Cntrl}", "?");
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }
}
