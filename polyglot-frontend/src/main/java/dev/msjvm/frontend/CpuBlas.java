package dev.msjvm.frontend;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.nativebackend.OpenBlas;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The CPU {@link Blas} instances of one {@link PythonRuntime}: one OpenBLAS instance per context
 * (rank), loaded on first use, so ranks never wait for each other's GEMMs; or the naive reference
 * when the native library cannot load on this platform.
 *
 * <p>OpenBLAS's thread count is process-wide: {@code MSJVM_BLAS_THREADS} when set, otherwise one
 * thread per core for a job of one local rank (a plain {@code bin/mspython} script) and one thread
 * when several local ranks share the cores (measured: a multi-threaded call stalls when its workers
 * are preempted). Example: {@code Supplier<Blas> s = cpuBlas.forContext()}.
 */
final class CpuBlas implements AutoCloseable {
  private final List<OpenBlas> loaded = new ArrayList<>();
  private boolean unavailable;

  /** A lazily loaded BLAS for one context (rank). */
  Supplier<Blas> forContext() {
    return new Supplier<>() {
      private Blas blas;

      @Override
      public Blas get() {
        if (blas == null) {
          blas = load(threads());
        }
        return blas;
      }
    };
  }

  /**
   * Loads the OpenBLAS library now, before any interpreter runs: its loader must not run while
   * another thread dlopens (an interpreter importing numpy), see {@link OpenBlas#preload}. Where it
   * cannot load, the first GEMM reports it.
   */
  void preload() {
    try {
      OpenBlas.preload();
    } catch (RuntimeException | LinkageError e) {
      // Reported (with the fallback) by load() when a context first needs a GEMM.
    }
  }

  static int threads() {
    String configured = System.getenv("MSJVM_BLAS_THREADS");
    if (configured != null && !configured.isBlank()) {
      return Math.max(1, Integer.parseInt(configured.trim()));
    }
    return 1;
  }

  private synchronized Blas load(int threads) {
    if (!unavailable) {
      try {
        OpenBlas openBlas = OpenBlas.load(threads);
        loaded.add(openBlas);
        return openBlas;
      } catch (MsException e) {
        unavailable = true;
        System.err.println(
            "[WARNING] msjvm: OpenBLAS is not available ("
                + e.getMessage()
                + "); using the much slower Java reference GEMM.");
      }
    }
    return new NaiveBlas();
  }

  @Override
  public synchronized void close() {
    loaded.forEach(OpenBlas::close);
    loaded.clear();
  }
}
