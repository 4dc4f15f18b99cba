package dev.msjvm.frontend;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.nativebackend.OpenBlas;

/**
 * The CPU {@link Blas} of one {@link PythonRuntime}: OpenBLAS, loaded on first use with one thread
 * per call (the ranks of a job already run on their own threads), or the naive reference when the
 * native library cannot load on this platform.
 *
 * <p>Shared by the runtime's contexts; {@link OpenBlas} serializes calls on one instance.
 */
final class CpuBlas implements AutoCloseable {
  private Blas blas;
  private OpenBlas openBlas;

  synchronized Blas get() {
    if (blas == null) {
      try {
        openBlas = OpenBlas.load(1);
        blas = openBlas;
      } catch (MsException unavailable) {
        System.err.println(
            "[WARNING] msjvm: OpenBLAS is not available ("
                + unavailable.getMessage()
                + "); using the much slower Java reference GEMM.");
        blas = new NaiveBlas();
      }
    }
    return blas;
  }

  @Override
  public synchronized void close() {
    if (openBlas != null) {
      openBlas.close();
      openBlas = null;
      blas = null;
    }
  }
}
