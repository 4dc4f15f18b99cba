package dev.msjvm.frontend.server;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The rules for the names of uploaded files ({@code "files": {name: base64}}): a relative path of
 * ordinary segments inside the job directory, not one the server itself uses. Every refusal is a
 * {@link JobService.BadRequest} naming the file and the rule, never an I/O error at write time.
 */
final class UploadNames {
  private UploadNames() {}

  /** The longest segment Linux file systems take (NAME_MAX, in bytes). */
  static final int MAX_SEGMENT_BYTES = 255;

  /** The longest whole name. */
  static final int MAX_NAME_BYTES = 1024;

  /**
   * Checks {@code name} alone and against {@code earlier} (names already accepted in the same
   * upload, in which one file may not also be another's directory).
   */
  static void check(String name, Set<String> earlier) {
    if (name == null || name.isEmpty()) {
      throw refuse("file name", name, "is empty");
    }
    checkText("file name", name);
    if (name.startsWith("/") || name.contains("\\")) {
      throw refuse("file name", name, "leaves the job directory");
    }
    String[] segments = name.split("/", -1);
    for (String seg : segments) {
      if (seg.equals("..")) {
        throw refuse("file name", name, "leaves the job directory");
      }
      if (seg.isEmpty() || seg.equals(".")) {
        throw refuse("file name", name, "has an empty or '.' path segment");
      }
    }
    if (name.equals("script.py")) {
      throw refuse("file name", name, "is the job's script (send it as 'script')");
    }
    if (segments[0].equals("logs")) {
      throw refuse("file name", name, "is inside 'logs', where the ranks' logs go");
    }
    for (String other : earlier) {
      if (other.startsWith(name + "/") || name.startsWith(other + "/")) {
        throw refuse("file name", name, "is both a file and the directory of '" + other + "'");
      }
    }
  }

  /**
   * The checks every name the API takes shares (uploads, artifacts): no control characters, at most
   * {@link #MAX_NAME_BYTES} in all and {@link #MAX_SEGMENT_BYTES} per segment.
   */
  static void checkText(String kind, String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw refuse(kind, name, "contains a control character (code " + (int) c + ")");
      }
    }
    if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
      throw refuse(kind, name, "is longer than " + MAX_NAME_BYTES + " bytes");
    }
    for (String seg : name.split("/")) {
      if (seg.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
        throw refuse(kind, name, "has a segment longer than " + MAX_SEGMENT_BYTES + " bytes");
      }
    }
  }

  private static JobService.BadRequest refuse(String kind, String name, String why) {
    return new JobService.BadRequest(kind + " '" + shown(name) + "' " + why);
  }

  /** {@code name} fit for a message: control characters replaced, long names cut. */
  static String shown(String name) {
    if (name == null) {
      return "null";
    }
    String s = name.replaceAll("\\p{Cntrl}", "?");
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }
}
