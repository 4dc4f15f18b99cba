package dev.msjvm.engine.backend;

/**
 * The reference {@link Blas}: straightforward loops in Java, accumulating in double so that it can
 * serve as the oracle for faster backends.
 */
public final class NaiveBlas implements Blas {

  @Override
  public String name() {
    return "naive";
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
        double sum = 0;
        for (int p = 0; p < k; p++) {
          float av = transA ? a[aOffset + p * lda + i] : a[aOffset + i * lda + p];
          float bv = transB ? b[bOffset + j * ldb + p] : b[bOffset + p * ldb + j];
          sum += (double) av * bv;
        }
        int at = cOffset + i * ldc + j;
        double prior = beta == 0f ? 0.0 : (double) beta * c[at];
        c[at] = (float) (alpha * sum + prior);
      }
    }
  }
}
