package dev.msjvm.frontend;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the GraalPy virtual environment with numpy that {@code bin/setup-numpy} builds once per
 * machine, outside the repository ({@code <cache>/numpy/graalpy-25.0.3-numpy-2.2.6-r3/venv}, the
 * directory {@code bin/msjvm-env.sh} names too), or {@code $MSJVM_NUMPY_VENV}. With {@code
 * MSJVM_NUMPY=off}, or without the venv, scripts run without it and {@code import numpy} fails with
 * Python's usual {@code ModuleNotFoundError}.
 */
public final class NumpyHome {
  /**
   * "-r2": built by tools/numpy/build_numpy.py (the pip-built venvs before it crash on import);
   * "-r3": with pytest beside numpy.
   */
  static final String VERSIONED_DIR = "graalpy-25.0.3-numpy-2.2.6-r3";

  private NumpyHome() {}

  public static Optional<Path> venv() {
    if ("off".equals(System.getenv("MSJVM_NUMPY"))) {
      return Optional.empty();
    }
    String explicit = System.getenv("MSJVM_NUMPY_VENV");
    Path venv =
        explicit != null && !explicit.isBlank()
            ? Path.of(explicit)
            : Caches.root().resolve("numpy").resolve(VERSIONED_DIR).resolve("venv");
    boolean complete =
        Files.isRegularFile(venv.resolve("pyvenv.cfg"))
            && Files.isDirectory(venv.resolve("lib/python3.12/site-packages/numpy"));
    return complete ? Optional.of(venv.toAbsolutePath()) : Optional.empty();
  }
}
