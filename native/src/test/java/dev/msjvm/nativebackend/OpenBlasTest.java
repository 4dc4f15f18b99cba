package dev.msjvm.nativebackend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.msjvm.engine.backend.Blas;
import dev.msjvm.engine.backend.NaiveBlas;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** OpenBlas.sgemm against the NaiveBlas oracle on shapes, transposes, offsets and padding. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenBlasTest {

  /** Marks every element outside the matrices; it must come back bit-identical. */
  private static final float SENTINEL = -12345.5f;

  private static final float UNIT_ROUNDOFF = 0x1p-24f;

  private OpenBlas blas;
  private OpenBlas staged;

  @BeforeAll
  void load() {
    blas = OpenBlas.load(2);
    staged = OpenBlas.loadStaged(2);
  }

  @AfterAll
  void close() {
    blas.close();
    staged.close();
  }

  @Test
  void passesArraysWithoutCopiesFromJdk22() {
    assertEquals(Runtime.version().feature() >= 22, blas.zeroCopy());
    assertFalse(staged.zeroCopy());
  }

  /** Above the critical-call limit the zero-copy instance stages, with the same results. */
  @Test
  void largeProductsAreStaged() {
    Case big = new Case(false, true, 512, 257, 512, 1f, 0.5f, 3, 2);
    assertTrue((long) big.m() * big.n() * big.k() > OpenBlas.CRITICAL_MAX_MACS);
    checkAgainstNaive(blas, big, new Random(11));
  }

  /**
   * One sgemm call: shape, transposes, scalars, and the layout of each operand as an offset into
   * its array plus row padding (ld = columns + pad).
   */
  record Case(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      float alpha,
      float beta,
      int offset,
      int pad) {
    @Override
    public String toString() {
      return (transA ? "T" : "N")
          + (transB ? "T" : "N")
          + " "
          + m
          + "x"
          + n
          + "x"
          + k
          + " alpha="
          + alpha
          + " beta="
          + beta
          + " offset="
          + offset
          + " pad="
          + pad;
    }
  }

  static Stream<Case> cases() {
    int[][] shapes = {
      {1, 1, 1},
      {1, 7, 1},
      {7, 1, 1},
      {1, 1, 9},
      {3, 5, 7},
      {17, 13, 31},
      {64, 65, 63},
      {32, 10, 128},
      {33, 129, 17},
      {128, 96, 200}
    };
    List<Case> cases = new ArrayList<>();
    for (int[] s : shapes) {
      for (int t = 0; t < 4; t++) {
        boolean ta = (t & 2) != 0;
        boolean tb = (t & 1) != 0;
        cases.add(new Case(ta, tb, s[0], s[1], s[2], 1f, 0f, 0, 0));
        // beta == 0 with padding: C's padding is never staged, so it must not be written back.
        cases.add(new Case(ta, tb, s[0], s[1], s[2], 1.5f, 0f, 3, 2));
        cases.add(new Case(ta, tb, s[0], s[1], s[2], 0.75f, -1.5f, 5, 3));
        cases.add(new Case(ta, tb, s[0], s[1], s[2], -2f, 1f, 1, 1));
      }
    }
    cases.add(new Case(false, false, 8, 8, 8, 0f, 0.5f, 2, 2));
    cases.add(new Case(true, true, 8, 8, 8, 1f, 1f, 0, 0));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matchesNaive(Case c) {
    checkAgainstNaive(blas, c, new Random(c.toString().hashCode()));
  }

  @ParameterizedTest(name = "staged {0}")
  @MethodSource("cases")
  void stagedMatchesNaive(Case c) {
    checkAgainstNaive(staged, c, new Random(c.toString().hashCode()));
  }

  /** The matrices of one case laid out in arrays padded with sentinels. */
  private record Operands(float[] a, int lda, float[] b, int ldb, float[] c, int ldc, int off) {}

  private static Operands operands(Case c, Random rnd) {
    int rowsA = c.transA() ? c.k() : c.m();
    int colsA = c.transA() ? c.m() : c.k();
    int rowsB = c.transB() ? c.n() : c.k();
    int colsB = c.transB() ? c.k() : c.n();
    // Distinct paddings per operand so that a mixed-up leading dimension cannot pass.
    int lda = colsA + c.pad();
    int ldb = colsB + 2 * c.pad();
    int ldc = c.n() + c.pad();
    int off = c.offset();
    return new Operands(
        matrix(rnd, off, rowsA, colsA, lda),
        lda,
        matrix(rnd, off + 1, rowsB, colsB, ldb),
        ldb,
        matrix(rnd, off + 2, c.m(), c.n(), ldc),
        ldc,
        off);
  }

  /** A rows x cols matrix at {@code offset} with leading dimension ld; all else is SENTINEL. */
  private static float[] matrix(Random rnd, int offset, int rows, int cols, int ld) {
    float[] array = new float[offset + rows * ld + 3];
    Arrays.fill(array, SENTINEL);
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        array[offset + i * ld + j] = rnd.nextFloat() * 2f - 1f;
      }
    }
    return array;
  }

  private static void checkAgainstNaive(Blas blas, Case c, Random rnd) {
    Operands o = operands(c, rnd);
    float[] a = o.a().clone();
    float[] b = o.b().clone();
    float[] got = o.c().clone();
    blas.sgemm(
        c.transA(),
        c.transB(),
        c.m(),
        c.n(),
        c.k(),
        c.alpha(),
        a,
        o.off(),
        o.lda(),
        b,
        o.off() + 1,
        o.ldb(),
        c.beta(),
        got,
        o.off() + 2,
        o.ldc());
    assertArrayEquals(o.a(), a, "A must not change");
    assertArrayEquals(o.b(), b, "B must not change");

    float[] want = o.c().clone();
    new NaiveBlas()
        .sgemm(
            c.transA(),
            c.transB(),
            c.m(),
            c.n(),
            c.k(),
            c.alpha(),
            o.a(),
            o.off(),
            o.lda(),
            o.b(),
            o.off() + 1,
            o.ldb(),
            c.beta(),
            want,
            o.off() + 2,
            o.ldc());
    // Rounding bound that holds for any summation order: |error| <= ~k*u*(|alpha| sum|a||b| +
    // |beta c|), with the sum of magnitudes computed by the oracle on |A| and |B|. Factor 2 for
    // the blocked accumulation and the final scalings.
    float[] magnitude = abs(o.c());
    new NaiveBlas()
        .sgemm(
            c.transA(),
            c.transB(),
            c.m(),
            c.n(),
            c.k(),
            Math.abs(c.alpha()),
            abs(o.a()),
            o.off(),
            o.lda(),
            abs(o.b()),
            o.off() + 1,
            o.ldb(),
            Math.abs(c.beta()),
            magnitude,
            o.off() + 2,
            o.ldc());
    int cStart = o.off() + 2;
    for (int i = 0; i < got.length; i++) {
      int rel = i - cStart;
      boolean inside = rel >= 0 && rel / o.ldc() < c.m() && rel % o.ldc() < c.n();
      if (!inside) {
        if (Float.floatToRawIntBits(got[i]) != Float.floatToRawIntBits(SENTINEL)) {
          fail(c + ": element " + i + " outside C was overwritten with " + got[i]);
        }
        continue;
      }
      double tol = 2.0 * (c.k() + 3) * UNIT_ROUNDOFF * magnitude[i] + 1e-30;
      if (!(Math.abs(got[i] - want[i]) <= tol)) {
        fail(
            c
                + ": C("
                + rel / o.ldc()
                + ","
                + rel % o.ldc()
                + ") = "
                + got[i]
                + ", naive "
                + want[i]
                + ", tolerance "
                + tol);
      }
    }
  }

  private static float[] abs(float[] values) {
    float[] out = new float[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Math.abs(values[i]);
    }
    return out;
  }

  @Test
  void betaZeroNeverReadsC() {
    float[] a = {1, 2, 3, 4};
    float[] b = {5, 6, 7, 8};
    float[] c = {Float.NaN, Float.POSITIVE_INFINITY, Float.NaN, Float.NaN};
    blas.sgemm(false, false, 2, 2, 2, 1f, a, 0, 2, b, 0, 2, 0f, c, 0, 2);
    assertArrayEquals(new float[] {19, 22, 43, 50}, c);
  }

  @Test
  void kZeroOnlyScalesC() {
    float[] empty = new float[0];
    float[] c = {1, 2, SENTINEL, 3, 4};
    blas.sgemm(false, false, 2, 2, 0, 1f, empty, 0, 1, empty, 0, 2, 2f, c, 0, 3);
    assertArrayEquals(new float[] {2, 4, SENTINEL, 6, 8}, c);
    blas.sgemm(false, false, 2, 2, 0, 1f, empty, 0, 1, empty, 0, 2, 0f, c, 0, 3);
    assertArrayEquals(new float[] {0, 0, SENTINEL, 0, 0}, c);
  }

  @Test
  void emptyOutputTouchesNothing() {
    float[] a = {1, 2, 3};
    float[] c = {SENTINEL};
    blas.sgemm(false, false, 0, 1, 3, 1f, a, 0, 3, a, 0, 1, 0f, c, 0, 1);
    blas.sgemm(false, false, 1, 0, 3, 1f, a, 0, 3, a, 0, 1, 0f, c, 0, 1);
    assertArrayEquals(new float[] {SENTINEL}, c);
  }

  @Test
  void stagingBuffersGrowAndAreReused() {
    Random rnd = new Random(7);
    for (int size : new int[] {4, 300, 5, 301, 2}) {
      checkAgainstNaive(staged, new Case(false, true, size, 3, size, 1f, 0.5f, 0, 1), rnd);
    }
  }

  @Test
  void rejectsLeadingDimensionsOpenBlasWouldReject() {
    float[] x = new float[64];
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> blas.sgemm(false, false, 2, 2, 3, 1f, x, 0, 2, x, 0, 2, 0f, x, 0, 2));
    assertEquals("sgemm: lda=2 must be >= max(1, 3)", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> blas.sgemm(false, true, 2, 2, 3, 1f, x, 0, 3, x, 0, 2, 0f, x, 0, 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> blas.sgemm(false, false, 2, 4, 3, 1f, x, 0, 3, x, 0, 4, 0f, x, 0, 3));
    assertThrows(
        IllegalArgumentException.class,
        () -> blas.sgemm(false, false, -1, 2, 3, 1f, x, 0, 3, x, 0, 2, 0f, x, 0, 2));
  }

  @Test
  void rejectsArraysTooShortForTheirRegion() {
    float[] small = new float[5];
    float[] big = new float[64];
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> blas.sgemm(false, false, 2, 2, 3, 1f, small, 0, 3, big, 0, 2, 0f, big, 0, 2));
    assertEquals("sgemm: A needs elements [0, 6) but its array has 5", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> blas.sgemm(false, false, 2, 2, 3, 1f, big, 0, 3, big, 60, 2, 0f, big, 0, 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> blas.sgemm(false, false, 2, 2, 3, 1f, big, 0, 3, big, 0, 2, 0f, big, -1, 2));
  }

  @Test
  void concurrentCallsOnSharedAndOwnInstances() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (OpenBlas own = OpenBlas.load(2)) {
      List<Future<?>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Blas target = t % 2 == 0 ? blas : own;
        int seed = t;
        results.add(
            pool.submit(
                () -> {
                  Random rnd = new Random(seed);
                  for (int i = 0; i < 10; i++) {
                    int s = 20 + 7 * i + seed;
                    checkAgainstNaive(
                        target,
                        new Case(i % 2 == 0, i % 3 == 0, s, s + 1, s - 3, 1f, 0.5f, seed, i % 2),
                        rnd);
                  }
                }));
      }
      for (Future<?> f : results) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closedInstanceRefusesWork() {
    OpenBlas closed = OpenBlas.load(2);
    closed.close();
    closed.close();
    float[] x = {1};
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> closed.sgemm(false, false, 1, 1, 1, 1f, x, 0, 1, x, 0, 1, 0f, x, 0, 1));
    assertTrue(e.getMessage().contains("closed"));
  }
}
