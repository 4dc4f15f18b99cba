import java.util.Arrays;
import java.util.Locale;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Plain Java loops (left to C2's auto-vectoriser) against {@code jdk.incubator.vector} for a float
 * add and a float sum, printed as a markdown table of median ns per call and GB/s read+written.
 *
 * <p>Standalone on purpose: the Vector API is an incubator module, and {@code --add-modules
 * jdk.incubator.vector} makes every JVM that has it print "WARNING: Using incubator modules" on
 * stderr, which product launchers must not do; so no Maven-built class touches it. The question it
 * answers is whether the product needs it at all. Run from the repository root:
 *
 * <pre>
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --add-modules jdk.incubator.vector \
 *     native/src/bench/VectorVsLoops.java
 * </pre>
 */
public final class VectorVsLoops {

  private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
  private static final int SAMPLES = 15;
  private static final double SAMPLE_NS = 20e6;

  private VectorVsLoops() {}

  static void addLoop(float[] a, float[] b, float[] c) {
    for (int i = 0; i < c.length; i++) {
      c[i] = a[i] + b[i];
    }
  }

  static void addVector(float[] a, float[] b, float[] c) {
    int i = 0;
    for (int upper = SPECIES.loopBound(c.length); i < upper; i += SPECIES.length()) {
      FloatVector.fromArray(SPECIES, a, i)
          .add(FloatVector.fromArray(SPECIES, b, i))
          .intoArray(c, i);
    }
    for (; i < c.length; i++) {
      c[i] = a[i] + b[i];
    }
  }

  /** One accumulator: the order Python's left-to-right sum has; C2 keeps it scalar. */
  static float sumLoop(float[] a) {
    float s = 0f;
    for (float v : a) {
      s += v;
    }
    return s;
  }

  /** Eight interleaved accumulators: a fixed (deterministic) order that hides add latency. */
  static float sumLoop8(float[] a) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    int i = 0;
    for (int upper = a.length & ~7; i < upper; i += 8) {
      s0 += a[i];
      s1 += a[i + 1];
      s2 += a[i + 2];
      s3 += a[i + 3];
      s4 += a[i + 4];
      s5 += a[i + 5];
      s6 += a[i + 6];
      s7 += a[i + 7];
    }
    for (; i < a.length; i++) {
      s0 += a[i];
    }
    return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
  }

  static float sumVector(float[] a) {
    int step = SPECIES.length();
    FloatVector acc0 = FloatVector.zero(SPECIES);
    FloatVector acc1 = FloatVector.zero(SPECIES);
    int i = 0;
    for (int upper = a.length - a.length % (2 * step); i < upper; i += 2 * step) {
      acc0 = acc0.add(FloatVector.fromArray(SPECIES, a, i));
      acc1 = acc1.add(FloatVector.fromArray(SPECIES, a, i + step));
    }
    float s = acc0.add(acc1).reduceLanes(VectorOperators.ADD);
    for (; i < a.length; i++) {
      s += a[i];
    }
    return s;
  }

  /** Median ns per call over SAMPLES samples of at least SAMPLE_NS each, after a warm-up. */
  static double time(Runnable call) {
    long warmEnd = System.nanoTime() + 500_000_000L;
    int calls = 0;
    long t0 = System.nanoTime();
    while (System.nanoTime() < warmEnd || calls < 100) {
      call.run();
      calls++;
    }
    double perCall = (System.nanoTime() - t0) / (double) calls;
    int inner = (int) Math.max(1, SAMPLE_NS / perCall);
    double[] samples = new double[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      long begin = System.nanoTime();
      for (int i = 0; i < inner; i++) {
        call.run();
      }
      samples[s] = (System.nanoTime() - begin) / (double) inner;
    }
    Arrays.sort(samples);
    return samples[SAMPLES / 2];
  }

  private static volatile float sink;

  public static void main(String[] args) {
    System.out.printf(
        Locale.ROOT,
        "# %s, %d cores, preferred species %s (%d lanes)%n%n",
        Runtime.version(),
        Runtime.getRuntime().availableProcessors(),
        SPECIES,
        SPECIES.length());
    System.out.println(
        "| elements | op | plain loop ns | Vector API ns | plain GB/s | Vector GB/s |");
    System.out.println("|---|---|---|---|---|---|");
    for (int n : new int[] {1 << 20, 16 << 10}) {
      float[] a = new float[n];
      float[] b = new float[n];
      float[] c = new float[n];
      java.util.Random rnd = new java.util.Random(1);
      for (int i = 0; i < n; i++) {
        a[i] = rnd.nextFloat();
        b[i] = rnd.nextFloat();
      }
      double addLoop = time(() -> addLoop(a, b, c));
      double addVec = time(() -> addVector(a, b, c));
      row(n, "add c=a+b", addLoop, addVec, 12.0 * n);
      double sum1 = time(() -> sink = sumLoop(a));
      double sum8 = time(() -> sink = sumLoop8(a));
      double sumVec = time(() -> sink = sumVector(a));
      row(n, "sum, 1 accumulator", sum1, sumVec, 4.0 * n);
      row(n, "sum, 8 accumulators", sum8, sumVec, 4.0 * n);
      System.err.printf(
          Locale.ROOT,
          "n=%d sums: loop %.6f loop8 %.6f vector %.6f%n",
          n,
          sumLoop(a),
          sumLoop8(a),
          sumVector(a));
    }
  }

  private static void row(int n, String op, double loopNs, double vecNs, double bytes) {
    System.out.printf(
        Locale.ROOT,
        "| %d | %s | %.0f | %.0f | %.1f | %.1f |%n",
        n,
        op,
        loopNs,
        vecNs,
        bytes / loopNs,
        bytes / vecNs);
  }
}
