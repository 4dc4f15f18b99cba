package dev.msjvm.frontend;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds numpy built for GraalPy, installed once per machine outside the repository.
 *
 * <p>{@code bin/setup-numpy} installs it; until then scripts run without numpy and {@code import
 * numpy} fails with Python's usual {@code ModuleNotFoundError}.
 */
final class NumpyHome {
  private NumpyHome() {}

  static List<Path> sitePackages() {
    String explicit = System.getenv("MSJVM_NUMPY_SITE");
    Path site =
        explicit != null && !explicit.isBlank()
            ? Path.of(explicit)
            : Caches.root().resolve("numpy").resolve("site-packages");
    return Files.isDirectory(site.resolve("numpy")) ? List.of(site) : List.of();
  }
}
