package dev.msjvm.nativebackend.bench;

import dev.msjvm.engine.backend.NaiveBlas;
import dev.msjvm.nativebackend.OpenBlas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.openblas.global.openblas;

/**
 * SGEMM harness (not a test): naive Java, a blocked plain-Java GEMM and OpenBLAS at 1 and 2 threads
 * on the MLP's shapes and on squares, printed as markdown tables of median ms and GFLOP/s; a second
 * table compares the ways of handing Java arrays to OpenBLAS ({@code float[]} JNI overload, {@link
 * OpenBlas}'s staged copies, its critical downcall on the arrays themselves (JDK 22+, what the
 * product uses up to {@code OpenBlas.CRITICAL_MAX_MACS}), and an off-heap lower bound with no copy
 * at all).
 *
 * <p>Shapes are {@code MxKxN}: {@code op(A)} is {@code MxK}, {@code op(B)} is {@code KxN}, so the
 * MLP's forward {@code x[32,784] @ w[784,512]} is {@code 32x784x512} and its weight gradient {@code
 * x^T @ dy} is {@code 784x32x512} with A transposed. Each cell: warm-up of at least 3 calls and 0.3
 * s, then 7 samples of at least 20 ms each; the median sample's time per call is reported.
 * OpenBLAS's thread count is process-wide, so each thread count is set before its columns run. Run:
 *
 * <pre>
 * JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 mvn -q -B -pl native -am test-compile exec:java \
 *   -Dexec.classpathScope=test -Dexec.mainClass=dev.msjvm.nativebackend.bench.GemmBench
 * </pre>
 */
public final class GemmBench {

  /** One GEMM shape; {@code transA} for the weight-gradient shape. */
  record Shape(int m, int k, int n, boolean transA) {
    long flops() {
      return 2L * m * k * n;
    }

    String label() {
      return m + "x" + k + "x" + n + (transA ? " (A^T)" : "");
    }
  }

  /** Median milliseconds per call, or NaN when the column skips this shape. */
  record Timing(double ms) {
    static final Timing SKIPPED = new Timing(Double.NaN);
  }

  private static final Shape[] SHAPES = {
    new Shape(32, 784, 512, false),
    new Shape(32, 512, 512, false),
    new Shape(32, 512, 10, false),
    new Shape(784, 32, 512, true),
    new Shape(256, 256, 256, false),
    new Shape(512, 512, 512, false),
    new Shape(1024, 1024, 1024, false),
    new Shape(2048, 2048, 2048, false)
  };

  private static final int SAMPLES = 7;
  private static final double SAMPLE_MS = 20;
  private static final double WARMUP_MS = 300;

  private GemmBench() {}

  public static void main(String[] args) {
    long start = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "# SGEMM, %d cores (load average %s), Java %s, OPENBLAS_CORETYPE=%s,"
            + " OPENBLAS_L2_SIZE=%s%n%n",
        Runtime.getRuntime().availableProcessors(),
        loadAverage(),
        Runtime.version(),
        System.getenv().getOrDefault("OPENBLAS_CORETYPE", "(unset)"),
        System.getenv().getOrDefault("OPENBLAS_L2_SIZE", "(unset)"));
    StringBuilder main =
        new StringBuilder(
            "| MxKxN | naive Java | blocked Java | OpenBlas 1 thread | OpenBlas 2 threads |\n"
                + "|---|---|---|---|---|\n");
    StringBuilder passing =
        new StringBuilder(
            "| MxKxN | float[] 1T | staged 1T | critical 1T | no copy 1T | float[] 2T | staged 2T"
                + " | critical 2T | no copy 2T |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Shape s : SHAPES) {
      Operands o = new Operands(s, new Random(42));
      Timing naive = s.flops() <= 2L * 256 * 256 * 256 ? time(o::naive) : Timing.SKIPPED;
      Timing blocked =
          s.flops() <= 2L * 1024 * 1024 * 1024 && !s.transA() ? time(o::blocked) : Timing.SKIPPED;
      Timing[] perThreads = new Timing[8];
      for (int t = 1; t <= 2; t++) {
        try (OpenBlas staged = OpenBlas.loadStaged(t);
            OpenBlas product = OpenBlas.load(t)) {
          perThreads[(t - 1) * 4] = time(o::jniArrays);
          perThreads[(t - 1) * 4 + 1] = time(() -> o.staged(staged));
          perThreads[(t - 1) * 4 + 2] =
              product.zeroCopy() ? time(() -> o.staged(product)) : Timing.SKIPPED;
          perThreads[(t - 1) * 4 + 3] = time(o::noCopy);
        }
      }
      o.free();
      main.append(row(s, naive, blocked, perThreads[1], perThreads[5]));
      passing.append(row(s, perThreads));
      System.err.printf(Locale.ROOT, "done %s%n", s.label());
    }
    System.out.println("ms per call (GFLOP/s)\n");
    System.out.println(main);
    System.out.println("Passing arrays to OpenBLAS, ms per call (GFLOP/s)\n");
    System.out.println(passing);
    System.out.printf(Locale.ROOT, "total %.1f s%n", (System.nanoTime() - start) / 1e9);
  }

  /** Other processes' load skews multi-threaded timings badly; print it with the results. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static String row(Shape s, Timing... cells) {
    StringBuilder line = new StringBuilder("| ").append(s.label()).append(" |");
    for (Timing t : cells) {
      if (Double.isNaN(t.ms())) {
        line.append(" - |");
      } else {
        double gflops = s.flops() / (t.ms() * 1e6);
        line.append(String.format(Locale.ROOT, " %s (%.1f) |", ms(t.ms()), gflops));
      }
    }
    return line.append('\n').toString();
  }

  private static String ms(double ms) {
    return ms >= 10
        ? String.format(Locale.ROOT, "%.1f", ms)
        : String.format(Locale.ROOT, "%.3f", ms);
  }

  private static Timing time(Runnable call) {
    long warmupEnd = System.nanoTime() + (long) (WARMUP_MS * 1e6);
    int calls = 0;
    long t0 = System.nanoTime();
    while (calls < 3 || System.nanoTime() < warmupEnd) {
      call.run();
      calls++;
    }
    double perCallMs = (System.nanoTime() - t0) / 1e6 / calls;
    int inner = (int) Math.max(1, Math.ceil(SAMPLE_MS / perCallMs));
    double[] samples = new double[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      long begin = System.nanoTime();
      for (int i = 0; i < inner; i++) {
        call.run();
      }
      samples[s] = (System.nanoTime() - begin) / 1e6 / inner;
    }
    Arrays.sort(samples);
    return new Timing(samples[SAMPLES / 2]);
  }

  /** The arrays of one shape, on-heap and (for the no-copy bound) off-heap. */
  private static final class Operands {
    final Shape s;
    final float[] a;
    final float[] b;
    final float[] c;
    final FloatPointer pa;
    final FloatPointer pb;
    final FloatPointer pc;
    final int lda;

    Operands(Shape s, Random rnd) {
      this.s = s;
      a = random(rnd, s.m() * s.k());
      b = random(rnd, s.k() * s.n());
      c = new float[s.m() * s.n()];
      lda = s.transA() ? s.m() : s.k();
      pa = new FloatPointer(a);
      pb = new FloatPointer(b);
      pc = new FloatPointer(c);
    }

    private static float[] random(Random rnd, int size) {
      float[] values = new float[size];
      for (int i = 0; i < size; i++) {
        values[i] = rnd.nextFloat() * 2f - 1f;
      }
      return values;
    }

    void naive() {
      new NaiveBlas()
          .sgemm(
              s.transA(), false, s.m(), s.n(), s.k(), 1f, a, 0, lda, b, 0, s.n(), 0f, c, 0, s.n());
    }

    void staged(OpenBlas blas) {
      blas.sgemm(
          s.transA(), false, s.m(), s.n(), s.k(), 1f, a, 0, lda, b, 0, s.n(), 0f, c, 0, s.n());
    }

    /** JavaCPP's float[] overload: JNI Get/ReleaseFloatArrayElements on all three arrays. */
    void jniArrays() {
      openblas.cblas_sgemm(
          openblas.CblasRowMajor,
          s.transA() ? openblas.CblasTrans : openblas.CblasNoTrans,
          openblas.CblasNoTrans,
          s.m(),
          s.n(),
          s.k(),
          1f,
          a,
          lda,
          b,
          s.n(),
          0f,
          c,
          s.n());
    }

    /** The floor: operands already off-heap, as tensors kept in native memory would be. */
    void noCopy() {
      openblas.cblas_sgemm(
          openblas.CblasRowMajor,
          s.transA() ? openblas.CblasTrans : openblas.CblasNoTrans,
          openblas.CblasNoTrans,
          s.m(),
          s.n(),
          s.k(),
          1f,
          pa,
          lda,
          pb,
          s.n(),
          0f,
          pc,
          s.n());
    }

    /**
     * Plain-Java GEMM, no transposes: i-p-j loop order (unit stride on B and C, which C2
     * auto-vectorises) in panels of 128 rows of B so that a panel stays in L2.
     */
    void blocked() {
      int m = s.m();
      int n = s.n();
      int k = s.k();
      Arrays.fill(c, 0f);
      final int panel = 128;
      for (int p0 = 0; p0 < k; p0 += panel) {
        int p1 = Math.min(k, p0 + panel);
        for (int i = 0; i < m; i++) {
          int ci = i * n;
          for (int p = p0; p < p1; p++) {
            float aip = a[i * k + p];
            int bp = p * n;
            for (int j = 0; j < n; j++) {
              c[ci + j] += aip * b[bp + j];
            }
          }
        }
      }
    }

    void free() {
      pa.close();
      pb.close();
      pc.close();
    }
  }
}
