package dev.msjvm.frontend.server;

import java.io.IOException;
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
    UploadNames.checkText("artifact name", name);
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
}
