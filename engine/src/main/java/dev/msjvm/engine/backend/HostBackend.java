package dev.msjvm.engine.backend;

/**
 * {@link DeviceBackend} over Java arrays in the JVM heap. With {@link NaiveBlas} it is the
 * reference backend: plain loops, reductions accumulated in double, so that {@link BackendSuite}
 * can hold every other backend to it; with a native {@link Blas} (OpenBLAS) it is the CPU backend.
 * Memory is accounted against the cap as on a device, without caching (the Java heap is the cache).
 */
public final class HostBackend implements DeviceBackend {

  private final Blas blas;
  private final long limit;
  private long inUse;
  private long peak;

  /** An uncapped backend whose GEMMs run on {@code blas}. */
  public HostBackend(Blas blas) {
    this(blas, Long.MAX_VALUE);
  }

  /** A backend that refuses to hold more than {@code limitBytes} at once. */
  public HostBackend(Blas blas, long limitBytes) {
    this.blas = blas;
    this.limit = limitBytes;
  }

  /** The reference backend. */
  public static HostBackend reference() {
    return new HostBackend(new NaiveBlas());
  }

  @Override
  public String name() {
    return "host(" + blas.name() + ")";
  }

  private final class Buffer implements DeviceBuffer {
    final float[] data;
    boolean open = true;

    Buffer(int length) {
      this.data = new float[length];
    }

    @Override
    public long length() {
      return data.length;
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      synchronized (HostBackend.this) {
        if (open) {
          open = false;
          inUse -= bytes(data.length);
        }
      }
    }
  }

  private static long bytes(long floats) {
    return CachingAllocator.blockSize(floats * Float.BYTES);
  }

  private static float[] data(DeviceBuffer buffer) {
    if (!(buffer instanceof Buffer b)) {
      throw new IllegalArgumentException("buffer belongs to another backend");
    }
    if (!b.open) {
      throw new IllegalStateException("buffer already closed");
    }
    return b.data;
  }

  private static int index(long offset) {
    return Math.toIntExact(offset);
  }

  @Override
  public synchronized DeviceBuffer allocate(long floats) {
    if (floats < 0 || floats > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("host buffers hold 0 to 2^31-9 floats, asked " + floats);
    }
    long size = bytes(floats);
    if (inUse > limit - size) {
      throw DeviceMemory.outOfMemory("CPU", size, inUse, inUse, peak, limit);
    }
    Buffer buffer = new Buffer((int) floats);
    inUse += size;
    peak = Math.max(peak, inUse);
    return buffer;
  }

  @Override
  public void copyIn(float[] src, int srcOffset, DeviceBuffer dst, long dstOffset, int count) {
    System.arraycopy(src, srcOffset, data(dst), index(dstOffset), count);
  }

  @Override
  public void copyOut(DeviceBuffer src, long srcOffset, float[] dst, int dstOffset, int count) {
    System.arraycopy(data(src), index(srcOffset), dst, dstOffset, count);
  }

  @Override
  public void fill(DeviceBuffer x, long offset, long n, float value) {
    int from = index(offset);
    java.util.Arrays.fill(data(x), from, from + index(n), value);
  }

  @Override
  public void gemm(
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
      int ldc) {
    blas.sgemm(
        transA,
        transB,
        m,
        n,
        k,
        alpha,
        data(a),
        index(aOffset),
        lda,
        data(b),
        index(bOffset),
        ldb,
        beta,
        data(c),
        index(cOffset),
        ldc);
  }

  @Override
  public void gemmBatched(
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
      int batch) {
    for (int i = 0; i < batch; i++) {
      gemm(
          transA,
          transB,
          m,
          n,
          k,
          alpha,
          a,
          i * strideA,
          lda,
          b,
          i * strideB,
          ldb,
          beta,
          c,
          i * strideC,
          ldc);
    }
  }

  @Override
  public void map(Unary op, DeviceBuffer x, DeviceBuffer y, long n) {
    float[] in = data(x);
    float[] out = data(y);
    for (int i = 0; i < n; i++) {
      out[i] = op.apply(in[i]);
    }
  }

  @Override
  public void zip(Binary op, DeviceBuffer a, DeviceBuffer b, DeviceBuffer out, long n) {
    float[] x = data(a);
    float[] y = data(b);
    float[] z = data(out);
    for (int i = 0; i < n; i++) {
      z[i] = op.apply(x[i], y[i]);
    }
  }

  @Override
  public void zipRow(
      Binary op, DeviceBuffer a, DeviceBuffer row, DeviceBuffer out, int rows, int cols) {
    float[] x = data(a);
    float[] r = data(row);
    float[] z = data(out);
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        z[i * cols + j] = op.apply(x[i * cols + j], r[j]);
      }
    }
  }

  @Override
  public void sumRows(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
    float[] in = data(x);
    float[] out = data(y);
    for (int i = 0; i < rows; i++) {
      double s = 0;
      for (int j = 0; j < cols; j++) {
        s += in[i * cols + j];
      }
      out[i] = (float) s;
    }
  }

  @Override
  public void sumCols(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
    float[] in = data(x);
    float[] out = data(y);
    for (int j = 0; j < cols; j++) {
      double s = 0;
      for (int i = 0; i < rows; i++) {
        s += in[i * cols + j];
      }
      out[j] = (float) s;
    }
  }

  private static double rowMax(float[] x, int base, int cols) {
    double max = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < cols; j++) {
      max = Math.max(max, x[base + j]);
    }
    return max;
  }

  /** {@code sum_j exp(x[j] - max)} over one row. */
  private static double rowExpSum(float[] x, int base, int cols, double max) {
    double sum = 0;
    for (int j = 0; j < cols; j++) {
      sum += Math.exp(x[base + j] - max);
    }
    return sum;
  }

  @Override
  public void softmax(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
    float[] in = data(x);
    float[] out = data(y);
    for (int i = 0; i < rows; i++) {
      int base = i * cols;
      double max = rowMax(in, base, cols);
      double sum = rowExpSum(in, base, cols, max);
      for (int j = 0; j < cols; j++) {
        out[base + j] = (float) (Math.exp(in[base + j] - max) / sum);
      }
    }
  }

  @Override
  public void softmaxCrossEntropy(
      DeviceBuffer logits,
      DeviceBuffer labels,
      DeviceBuffer loss,
      DeviceBuffer grad,
      int rows,
      int cols,
      float scale) {
    float[] x = data(logits);
    float[] label = data(labels);
    float[] l = data(loss);
    float[] g = data(grad);
    for (int i = 0; i < rows; i++) {
      int base = i * cols;
      int target = (int) label[i];
      if (target < 0 || target >= cols || target != label[i]) {
        throw new IllegalArgumentException(
            "label " + label[i] + " of row " + i + " not in [0, " + cols + ")");
      }
      double max = rowMax(x, base, cols);
      double sum = rowExpSum(x, base, cols, max);
      l[i] = (float) (Math.log(sum) + max - x[base + target]);
      for (int j = 0; j < cols; j++) {
        double p = Math.exp(x[base + j] - max) / sum;
        g[base + j] = (float) (scale * (p - (j == target ? 1 : 0)));
      }
    }
  }

  @Override
  public void applyMomentum(
      DeviceBuffer param,
      DeviceBuffer accum,
      DeviceBuffer grad,
      float lr,
      float momentum,
      boolean nesterov,
      long n) {
    float[] p = data(param);
    float[] a = data(accum);
    float[] g = data(grad);
    for (int i = 0; i < n; i++) {
      a[i] = momentum * a[i] + g[i];
      p[i] -= nesterov ? lr * (g[i] + momentum * a[i]) : lr * a[i];
    }
  }

  @Override
  public void adam(
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
      long n) {
    float[] p = data(param);
    float[] mm = data(m);
    float[] vv = data(v);
    float[] g = data(grad);
    float lrT = DeviceBackend.adamStepSize(lr, beta1Power, beta2Power);
    for (int i = 0; i < n; i++) {
      mm[i] = beta1 * mm[i] + (1 - beta1) * g[i];
      vv[i] = beta2 * vv[i] + (1 - beta2) * g[i] * g[i];
      p[i] -= lrT * mm[i] / ((float) Math.sqrt(vv[i]) + eps);
    }
  }

  @Override
  public void synchronize() {}

  @Override
  public synchronized MemoryStats memoryStats() {
    return new MemoryStats(inUse, inUse, peak, limit);
  }

  @Override
  public void close() {}
}
