package dev.msjvm.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BackendSuiteTest {

  /** GEMM in float, summing k from the far end: legitimate float rounding the suite must accept. */
  private static final class FloatBlas implements Blas {
    @Override
    public String name() {
      return "float-reversed";
    }

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
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          float s = 0;
          for (int p = k - 1; p >= 0; p--) {
            float x = transA ? a[aOffset + p * lda + i] : a[aOffset + i * lda + p];
            float y = transB ? b[bOffset + j * ldb + p] : b[bOffset + p * ldb + j];
            s += x * y;
          }
          int at = cOffset + i * ldc + j;
          c[at] = alpha * s + (beta == 0 ? 0 : beta * c[at]);
        }
      }
    }
  }

  /** Correct except for a relative error of 1e-3 whenever A is transposed. */
  private static final class SkewedBlas implements Blas {
    private final Blas inner = new NaiveBlas();

    @Override
    public String name() {
      return "skewed";
    }

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
      inner.sgemm(
          transA, transB, m, n, k, alpha, a, aOffset, lda, b, bOffset, ldb, beta, c, cOffset, ldc);
      if (transA) {
        for (int i = 0; i < m; i++) {
          for (int j = 0; j < n; j++) {
            c[cOffset + i * ldc + j] *= 1.001f;
          }
        }
      }
    }
  }

  @Test
  void floatRoundingOfAnotherSummationOrderPasses() {
    List<BackendSuite.Result> results =
        BackendSuite.run(new HostBackend(new FloatBlas()), HostBackend.reference());
    for (BackendSuite.Result r : results) {
      assertTrue(r.passed(), r.name() + ": " + r.detail());
    }
    assertTrue(results.size() > 60, "checks: " + results.size());
  }

  @Test
  void aGemmErrorAboveTheFloatBoundFailsExactlyTheTransposedChecksAndTheMlp() {
    List<BackendSuite.Result> results =
        BackendSuite.run(new HostBackend(new SkewedBlas()), HostBackend.reference());
    for (BackendSuite.Result r : results) {
      boolean skewed = r.name().startsWith("gemm ") && r.name().contains("A^T");
      boolean mlp = r.name().startsWith("seed MLP");
      boolean batched = r.name().startsWith("gemmBatched") && r.name().contains("A^T");
      assertEquals(!(skewed || mlp || batched), r.passed(), r.name() + ": " + r.detail());
    }
  }

  @Test
  void reportCountsPassesAndFailures() {
    StringBuilder out = new StringBuilder();
    String summary =
        BackendSuite.report(
            "x",
            List.of(
                new BackendSuite.Result("a", true, ""), new BackendSuite.Result("b", false, "why")),
            line -> out.append(line).append('\n'));
    assertEquals("1 passed, 1 failed", summary);
    assertEquals("PASS x | a\nFAIL x | b | why\n1 passed, 1 failed\n", out.toString());
  }

  @Test
  void relativeErrorTreatsNanMismatchAsInfinite() {
    assertEquals(
        Double.POSITIVE_INFINITY, BackendSuite.relErr(new float[] {Float.NaN}, new float[] {1f}));
    assertEquals(0.5, BackendSuite.relErr(new float[] {1f, 1f}, new float[] {2f, 1f}), 1e-12);
    assertFalse(BackendSuite.relErr(new float[] {1f}, new float[] {1f}) > 0);
  }
}
