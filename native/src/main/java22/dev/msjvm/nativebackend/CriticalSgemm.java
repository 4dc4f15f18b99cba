package dev.msjvm.nativebackend;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.msjvm.engine.backend.Blas;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * {@code cblas_sgemm} called on Java arrays in place through the Foreign Function API's critical
 * downcalls ({@code Linker.Option.critical(true)}, JDK 22+): the JVM passes the arrays' addresses
 * and holds garbage collection for the call, so nothing is copied. Compiled with {@code --release
 * 22} into the same classes directory; {@link OpenBlas} loads it reflectively and falls back to
 * staging copies on JDK 21 or where native access is denied.
 */
final class CriticalSgemm implements Blas {
  private static final int ROW_MAJOR = 101;
  private static final int NO_TRANS = 111;
  private static final int TRANS = 112;

  private final MethodHandle sgemm;

  private CriticalSgemm(MethodHandle sgemm) {
    this.sgemm = sgemm;
  }

  /** Binds {@code cblas_sgemm} of the library JavaCPP loaded from {@code library}. */
  static CriticalSgemm bind(String library) {
    MemorySegment symbol =
        SymbolLookup.libraryLookup(Path.of(library), Arena.global())
            .find("cblas_sgemm")
            .orElseThrow(() -> new IllegalStateException("no cblas_sgemm in " + library));
    FunctionDescriptor signature =
        FunctionDescriptor.ofVoid(
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_FLOAT, ADDRESS,
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_FLOAT, ADDRESS, JAVA_INT);
    return new CriticalSgemm(
        Linker.nativeLinker().downcallHandle(symbol, signature, Linker.Option.critical(true)));
  }

  @Override
  public String name() {
    return "openblas-critical";
  }

  /** Unchecked: {@link OpenBlas#sgemm} validates sizes and bounds before calling this. */
  @Override
  public void sgemm(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      int aOffset,
      int lda,
      float[] b,
      int bOffset,
      int ldb,
      float beta,
      float[] c,
      int cOffset,
      int ldc) {
    try {
      sgemm.invokeExact(
          ROW_MAJOR,
          transA ? TRANS : NO_TRANS,
          transB ? TRANS : NO_TRANS,
          m,
          n,
          k,
          alpha,
          slice(a, aOffset),
          lda,
          slice(b, bOffset),
          ldb,
          beta,
          slice(c, cOffset),
          ldc);
    } catch (Throwable e) {
      throw new IllegalStateException("cblas_sgemm failed", e);
    }
  }

  private static MemorySegment slice(float[] array, int offset) {
    MemorySegment whole = MemorySegment.ofArray(array);
    return offset == 0 ? whole : whole.asSlice((long) offset * Float.BYTES);
  }
}
