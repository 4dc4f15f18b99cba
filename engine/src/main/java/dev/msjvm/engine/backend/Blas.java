package dev.msjvm.engine.backend;

/**
 * Dense float32 linear algebra on row-major arrays: the kernels GEMM-heavy operators (MatMul,
 * BatchMatMul, Dense, convolution lowered to GEMM) are built on.
 *
 * <p>Every backend provides one; {@link NaiveBlas} is the reference the others are tested against.
 * Arrays are row-major with explicit leading dimensions, as in CBLAS: {@code C = alpha * op(A) *
 * op(B) + beta * C} where {@code op(A)} is {@code m x k} and {@code op(B)} is {@code k x n}.
 * Example: {@code sgemm(false, false, 2, 2, 3, 1f, a, 0, 3, b, 0, 2, 0f, c, 0, 2)} multiplies a
 * {@code 2x3} by a {@code 3x2} matrix.
 */
public interface Blas {

  /** A short name for reports, e.g. {@code "naive"} or {@code "openblas"}. */
  String name();

  /** Row-major single-precision GEMM with CBLAS semantics. */
  void sgemm(
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
      int ldc);
}
