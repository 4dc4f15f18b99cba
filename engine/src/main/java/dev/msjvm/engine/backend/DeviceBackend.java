package dev.msjvm.engine.backend;

/**
 * A device that holds tensors and runs kernels on them: the seam between the engine and the
 * hardware. Memory is explicit ({@link #allocate} returns a {@link DeviceBuffer} the caller closes,
 * usually through a {@link MemoryScope}); host data crosses only through {@link #copyIn} and {@link
 * #copyOut}. Offsets and counts are in float32 elements; matrices are row-major with CBLAS
 * semantics, as in {@link Blas}.
 *
 * <p>Kernels may run asynchronously: {@link #copyOut} and {@link #synchronize} wait for every
 * kernel launched before them. One instance serves one rank; calls on it are serialised.
 * Implementations: {@link HostBackend} over Java arrays (with {@link NaiveBlas} it is the reference
 * every other backend is tested against by {@link BackendSuite}), and the CUDA backend of module
 * {@code cuda}.
 */
public interface DeviceBackend extends AutoCloseable {

  /** A short name for reports, e.g. {@code "host(naive)"} or {@code "cuda:0 (NVIDIA H100)"}. */
  String name();

  /**
   * A new buffer of {@code floats} elements, contents undefined.
   *
   * @throws dev.msjvm.engine.MsException (RUNTIME_ERROR) with MindSpore's out-of-memory text when
   *     the device, or the cap set by {@code max_device_memory}, has no room for it
   */
  DeviceBuffer allocate(long floats);

  /** Copies {@code count} floats from host {@code src[srcOffset..]} to {@code dst[dstOffset..]}. */
  void copyIn(float[] src, int srcOffset, DeviceBuffer dst, long dstOffset, int count);

  /** Copies {@code count} floats from {@code src[srcOffset..]} to host {@code dst[dstOffset..]}. */
  void copyOut(DeviceBuffer src, long srcOffset, float[] dst, int dstOffset, int count);

  /** Sets {@code n} elements of {@code x} from {@code offset} to {@code value}. */
  void fill(DeviceBuffer x, long offset, long n, float value);

  /** {@code C = alpha * op(A) * op(B) + beta * C}, row-major, as {@link Blas#sgemm}. */
  void gemm(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      float alpha,
      DeviceBuffer a,
      long aOffset,
      int lda,
      DeviceBuffer b,
      long bOffset,
      int ldb,
      float beta,
      DeviceBuffer c,
      long cOffset,
      int ldc);

  /**
   * {@code batch} independent GEMMs; matrix {@code i} of each operand starts {@code i * stride}
   * elements after the first (BatchMatMul).
   */
  void gemmBatched(
      boolean transA,
      boolean transB,
      int m,
      int n,
      int k,
      float alpha,
      DeviceBuffer a,
      long strideA,
      int lda,
      DeviceBuffer b,
      long strideB,
      int ldb,
      float beta,
      DeviceBuffer c,
      long strideC,
      int ldc,
      int batch);

  /** {@code y[i] = op(x[i])} for {@code i < n}; {@code y} may be {@code x}. */
  void map(Unary op, DeviceBuffer x, DeviceBuffer y, long n);

  /** {@code out[i] = op(a[i], b[i])} for {@code i < n}; {@code out} may be an input. */
  void zip(Binary op, DeviceBuffer a, DeviceBuffer b, DeviceBuffer out, long n);

  /**
   * {@code out[i][j] = op(a[i][j], row[j])} over a {@code rows x cols} matrix: a row vector
   * broadcast down the rows (bias add).
   */
  void zipRow(Binary op, DeviceBuffer a, DeviceBuffer row, DeviceBuffer out, int rows, int cols);

  /** {@code y[i] = sum_j x[i][j]} (reduce the last axis). */
  void sumRows(DeviceBuffer x, DeviceBuffer y, int rows, int cols);

  /** {@code y[j] = sum_i x[i][j]} (reduce the first axis: a bias gradient). */
  void sumCols(DeviceBuffer x, DeviceBuffer y, int rows, int cols);

  /** Softmax of each row of a {@code rows x cols} matrix. */
  void softmax(DeviceBuffer x, DeviceBuffer y, int rows, int cols);

  /**
   * Sparse softmax cross-entropy of each row of {@code logits} against the class index in {@code
   * labels[i]} (a float holding an integer): {@code loss[i] = logsumexp(row) - row[label]} and
   * {@code grad[i][j] = scale * (softmax(row)[j] - (j == label ? 1 : 0))} ({@code scale = 1/rows}
   * for MindSpore's mean reduction).
   */
  void softmaxCrossEntropy(
      DeviceBuffer logits,
      DeviceBuffer labels,
      DeviceBuffer loss,
      DeviceBuffer grad,
      int rows,
      int cols,
      float scale);

  /**
   * MindSpore's ApplyMomentum over {@code n} elements: {@code accum = momentum * accum + grad},
   * then {@code param -= lr * accum}, or with {@code nesterov} {@code param -= lr * (grad +
   * momentum * accum)}.
   */
  void applyMomentum(
      DeviceBuffer param,
      DeviceBuffer accum,
      DeviceBuffer grad,
      float lr,
      float momentum,
      boolean nesterov,
      long n);

  /**
   * MindSpore's Adam over {@code n} elements: {@code m = beta1 m + (1 - beta1) g}, {@code v = beta2
   * v + (1 - beta2) g^2}, {@code param -= lr sqrt(1 - beta2Power) / (1 - beta1Power) * m / (sqrt(v)
   * + eps)}, where {@code betaPower}s are the betas raised to the step count.
   */
  void adam(
      DeviceBuffer param,
      DeviceBuffer m,
      DeviceBuffer v,
      DeviceBuffer grad,
      float lr,
      float beta1,
      float beta2,
      float eps,
      float beta1Power,
      float beta2Power,
      long n);

  /**
   * Adam's step size for this step, {@code lr sqrt(1 - beta2Power) / (1 - beta1Power)}, computed in
   * double and rounded once: every backend's {@link #adam} uses this value.
   */
  static float adamStepSize(float lr, float beta1Power, float beta2Power) {
    return (float) (lr * Math.sqrt(1 - beta2Power) / (1 - beta1Power));
  }

  /** Waits for every kernel launched so far. */
  void synchronize();

  /** Current memory accounting. */
  MemoryStats memoryStats();

  /** Frees the backend's device resources; buffers still open become invalid. */
  @Override
  void close();
}
