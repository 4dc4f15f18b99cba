package dev.msjvm.nativebackend;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Blas;
import java.nio.FloatBuffer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas;

/**
 * {@link Blas} on OpenBLAS (JavaCPP presets, {@code cblas_sgemm} row-major): same results as {@link
 * dev.msjvm.engine.backend.NaiveBlas} within float rounding, never reading or writing an array
 * element outside the regions the CBLAS arguments describe.
 *
 * <p>Native memory (three grow-only staging buffers) belongs to the instance and is freed by {@link
 * #close()}; calls on one instance are serialised, so give each rank its own instance for
 * concurrency. OpenBLAS's thread count is process-wide: {@link #load(int)} sets it for the whole
 * JVM and the most recent load wins for every instance. Example: {@code try (OpenBlas blas =
 * OpenBlas.load(2)) { blas.sgemm(false, false, 2, 2, 3, 1f, a, 0, 3, b, 0, 2, 0f, c, 0, 2); }}
 */
public final class OpenBlas implements Blas, AutoCloseable {

  /*
   * Why copy into off-heap buffers instead of calling the float[] overload of cblas_sgemm:
   * JavaCPP passes a float[] through JNI Get/ReleaseFloatArrayElements, which on HotSpot mallocs
   * and copies each of A, B and C in and back out again (six copies, inputs included), and that
   * overload takes no offset, so sub-matrices would need yet another copy. Staging copies A and B
   * in and C out (C in only when beta != 0) through FloatBuffer views (plain Java, intrinsified,
   * no JNI transition; FloatPointer.put(float[]) through JNI measured the same) into buffers kept
   * between calls. GemmBench on this 2-core AVX-512 machine (SkylakeX kernels), median ms,
   * float[] / staged / operands already off-heap, 1 thread: 32x784x512 0.51 / 0.50 / 0.34,
   * 784x32x512 (A^T) 0.46 / 0.34 / 0.25, 1024^3 17.9 / 16.5 / 15.1, 2048^3 144 / 121 / 115;
   * 2 threads: 32x784x512 0.48 / 0.50 / 0.21, 2048^3 88 / 65 / 60. So staging is never slower
   * and up to 26% faster; at the MLP's sizes the copies still cost a third (1 thread) to over half
   * (2 threads) of the call, which only an entry point for off-heap tensors would remove.
   */

  private static final int ROW_MAJOR = openblas.CblasRowMajor;
  private static final int NO_TRANS = openblas.CblasNoTrans;
  private static final int TRANS = openblas.CblasTrans;

  /*
   * Zero copy where the JDK allows it (22+): CriticalSgemm hands OpenBLAS the arrays themselves
   * (a critical downcall holds GC for the call instead of copying). Measured by GemmBench on the
   * MLP's shapes, 1 thread: 32x512x512 0.50 staged -> 0.24, 784x32x512 (A^T) 0.48 -> 0.28 ms.
   * GC waits for the call to return, so products above CRITICAL_MAX_MACS multiply-adds (about
   * 10 ms and up, where the copies cost under 5%) are staged instead, to keep other ranks'
   * allocations from stalling behind a long call.
   */
  static final long CRITICAL_MAX_MACS = 1L << 26;

  /*
   * JavaCPP loads the library once per JVM, before any interpreter runs (preload): its loader
   * calls dlclose from inside dl_iterate_phdr, which deadlocks glibc's loader against a concurrent
   * dlopen (taking the two loader locks in the other order). GraalPy dlopens a private copy of
   * numpy's native modules for every context, so one rank's first GEMM (which called JavaCPP's
   * load again, long after the first) while another rank imported numpy froze the whole JVM
   * (three stalls of the shared conformance JVM, found with gdb: one thread in
   * Loader$Helper.addressof -> dl_iterate_phdr -> dlclose, one in GraalPy's dlopen).
   */
  private static String library;
  private static Blas critical;

  private final int threads;

  /** {@code cblas_sgemm} on the arrays themselves (checked calls only), or null: stage. */
  private final Blas heap;

  private final Staging stageA = new Staging();
  private final Staging stageB = new Staging();
  private final Staging stageC = new Staging();
  private boolean closed;

  private OpenBlas(int threads, Blas heap) {
    this.threads = threads;
    this.heap = heap;
  }

  /** Loads OpenBLAS with one thread per available processor; see {@link #load(int)}. */
  public static OpenBlas load() {
    return load(Runtime.getRuntime().availableProcessors());
  }

  /**
   * Loads the native library (unpacked by JavaCPP into {@code ~/.javacpp/cache} on first use) and
   * sets OpenBLAS's process-wide thread count.
   *
   * <p>Use 1 thread when more threads are busy than there are cores (in-JVM ranks, other
   * processes): OpenBLAS's workers wait for each other, and a preempted one stalls the call for a
   * scheduler time slice (measured: 24 ms instead of 0.5 ms for 32x784x512 on 2 loaded cores).
   *
   * @throws MsException (RUNTIME_ERROR) when the library cannot be loaded on this host (missing
   *     jars, another platform, a broken cache); the JVM stays usable and callers may fall back to
   *     a Java backend
   */
  public static OpenBlas load(int threads) {
    loadLibrary(threads);
    return new OpenBlas(threads, critical());
  }

  /**
   * Loads the native library now, once per JVM (later loads reuse it): call it before any thread
   * may dlopen other libraries concurrently (an interpreter importing numpy), see above.
   *
   * @throws MsException (RUNTIME_ERROR) when the library cannot be loaded on this host
   */
  public static void preload() {
    library();
    // JavaCPP's own native part too (the staging buffers'), loaded with the Pointer class.
    new FloatPointer(1).close();
  }

  /** {@link #load(int)} that always stages operands (for benchmarks comparing the two paths). */
  public static OpenBlas loadStaged(int threads) {
    loadLibrary(threads);
    return new OpenBlas(threads, null);
  }

  /** Whether calls pass the arrays to OpenBLAS without copying them (JDK 22+). */
  public boolean zeroCopy() {
    return heap != null;
  }

  /** The critical sgemm of the loaded library (bound once per JVM), or null: stage. */
  private static synchronized Blas critical() {
    if (critical == null) {
      critical = bindCritical(library());
    }
    return critical;
  }

  /** CriticalSgemm (compiled for JDK 22+) bound to {@code library}, or null where unavailable. */
  private static Blas bindCritical(String library) {
    if (Runtime.version().feature() < 22) {
      return null;
    }
    try {
      return (Blas)
          Class.forName("dev.msjvm.nativebackend.CriticalSgemm")
              .getDeclaredMethod("bind", String.class)
              .invoke(null, library);
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      // Class absent (built on JDK 21), native access denied, symbol missing: stage instead.
      return null;
    }
  }

  private static void loadLibrary(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("OpenBLAS threads must be >= 1, got " + threads);
    }
    library();
    openblas.blas_set_num_threads(threads);
  }

  /** JavaCPP's load of the library, once per JVM; its path. */
  private static synchronized String library() {
    if (library != null) {
      return library;
    }
    try {
      library = Loader.load(openblas.class);
      return library;
    } catch (LinkageError | RuntimeException e) {
      // LinkageError covers UnsatisfiedLinkError (no native library for this platform) and
      // NoClassDefFoundError (jars absent, or a second attempt after a failed class init).
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR,
          "OpenBLAS could not be loaded on platform "
              + platform()
              + " ("
              + e
              + "); the openblas and javacpp jars with the platform's classifier must be on the"
              + " class path",
          e);
    }
  }

  private static String platform() {
    try {
      return Loader.getPlatform();
    } catch (LinkageError e) {
      return System.getProperty("os.name") + "-" + System.getProperty("os.arch");
    }
  }

  @Override
  public String name() {
    return "openblas";
  }

  /** The thread count this instance set at load (process-wide, so a later load may change it). */
  public int threads() {
    return threads;
  }

  @Override
  public synchronized void sgemm(
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
    if (closed) {
      throw new IllegalStateException("OpenBlas instance is closed");
    }
    // Checked here because OpenBLAS would print its xerbla message to stderr and carry on, and
    // because the staging copies must cover every element OpenBLAS reads.
    if (m < 0 || n < 0 || k < 0) {
      throw new IllegalArgumentException(
          "sgemm sizes must be >= 0, got m=" + m + " n=" + n + " k=" + k);
    }
    int spanA = span("A", a, aOffset, lda, transA ? k : m, transA ? m : k);
    int spanB = span("B", b, bOffset, ldb, transB ? n : k, transB ? k : n);
    int spanC = span("C", c, cOffset, ldc, m, n);
    if (m == 0 || n == 0) {
      return;
    }
    if (heap != null && k > 0 && (long) m * n * k <= CRITICAL_MAX_MACS) {
      heap.sgemm(
          transA, transB, m, n, k, alpha, a, aOffset, lda, b, bOffset, ldb, beta, c, cOffset, ldc);
      return;
    }
    FloatPointer pc = stageC.ensure(spanC);
    if (beta != 0f) {
      stageC.view.put(0, c, cOffset, spanC);
    }
    if (k == 0) {
      // Nothing to multiply; OpenBLAS would only scale C, and A/B may be empty.
      scale(beta, spanC);
    } else {
      FloatPointer pa = stageA.ensure(spanA);
      stageA.view.put(0, a, aOffset, spanA);
      FloatPointer pb = stageB.ensure(spanB);
      stageB.view.put(0, b, bOffset, spanB);
      openblas.cblas_sgemm(
          ROW_MAJOR,
          transA ? TRANS : NO_TRANS,
          transB ? TRANS : NO_TRANS,
          m,
          n,
          k,
          alpha,
          pa,
          lda,
          pb,
          ldb,
          beta,
          pc,
          ldc);
    }
    if (ldc == n) {
      stageC.view.get(0, c, cOffset, spanC);
    } else {
      // Row by row: the padding between rows belongs to the caller and was not staged when
      // beta == 0.
      for (int i = 0; i < m; i++) {
        stageC.view.get(i * ldc, c, cOffset + i * ldc, n);
      }
    }
  }

  private void scale(float beta, int spanC) {
    FloatBuffer view = stageC.view;
    for (int i = 0; i < spanC; i++) {
      view.put(i, beta == 0f ? 0f : beta * view.get(i));
    }
  }

  /**
   * The number of elements from {@code offset} a row-major {@code rows x cols} matrix with leading
   * dimension {@code ld} spans, after checking CBLAS's {@code ld >= max(1, cols)} and the bounds.
   */
  private static int span(String which, float[] array, int offset, int ld, int rows, int cols) {
    if (ld < Math.max(1, cols)) {
      throw new IllegalArgumentException(
          "sgemm: ld" + which.toLowerCase() + "=" + ld + " must be >= max(1, " + cols + ")");
    }
    long span = rows == 0 || cols == 0 ? 0 : (long) (rows - 1) * ld + cols;
    if (offset < 0 || offset + span > array.length) {
      throw new IllegalArgumentException(
          "sgemm: "
              + which
              + " needs elements ["
              + offset
              + ", "
              + (offset + span)
              + ") but its array has "
              + array.length);
    }
    return (int) span;
  }

  /** Frees the staging buffers; later calls throw. The process-wide thread count is unchanged. */
  @Override
  public synchronized void close() {
    closed = true;
    stageA.free();
    stageB.free();
    stageC.free();
  }

  /** One grow-only off-heap buffer and its FloatBuffer view. */
  private static final class Staging {
    private FloatPointer pointer;
    private FloatBuffer view;

    FloatPointer ensure(int elements) {
      if (pointer == null || pointer.capacity() < elements) {
        free();
        // A quarter of headroom so that a slowly growing sequence of shapes reallocates rarely.
        long capacity = Math.max(16, elements + (elements >> 2));
        pointer = new FloatPointer(capacity);
        view = pointer.asBuffer();
      }
      return pointer;
    }

    void free() {
      if (pointer != null) {
        pointer.close();
        pointer = null;
        view = null;
      }
    }
  }
}
