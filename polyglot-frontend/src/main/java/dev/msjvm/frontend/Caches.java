package dev.msjvm.frontend;

import java.nio.file.Path;

/** Where msjvm keeps files it makes once per machine (the extracted shim, numpy for GraalPy). */
public final class Caches {
  private Caches() {}

  /** {@code $MSJVM_CACHE}, else {@code $XDG_CACHE_HOME/msjvm}, else {@code ~/.cache/msjvm}. */
  public static Path root() {
    String explicit = System.getenv("MSJVM_CACHE");
    if (explicit != null && !explicit.isBlank()) {
      return Path.of(explicit);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("msjvm");
  }
}
