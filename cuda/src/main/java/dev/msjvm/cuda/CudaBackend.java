package dev.msjvm.cuda;

import static org.bytedeco.cuda.global.cublas.CUBLAS_OP_N;
import static org.bytedeco.cuda.global.cublas.CUBLAS_OP_T;
import static org.bytedeco.cuda.global.cublas.CUBLAS_STATUS_SUCCESS;
import static org.bytedeco.cuda.global.cudart.CUDA_SUCCESS;
import static org.bytedeco.cuda.global.cudart.cudaDevAttrComputeCapabilityMajor;
import static org.bytedeco.cuda.global.cudart.cudaDevAttrComputeCapabilityMinor;
import static org.bytedeco.cuda.global.cudart.cudaDevAttrMultiProcessorCount;
import static org.bytedeco.cuda.global.cudart.cudaErrorMemoryAllocation;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyDeviceToHost;
import static org.bytedeco.cuda.global.cudart.cudaMemcpyHostToDevice;
import static org.bytedeco.cuda.global.cudart.cudaSuccess;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.Binary;
import dev.msjvm.engine.backend.CachingAllocator;
import dev.msjvm.engine.backend.DeviceBackend;
import dev.msjvm.engine.backend.DeviceBuffer;
import dev.msjvm.engine.backend.MemoryStats;
import dev.msjvm.engine.backend.Unary;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.cuda.cublas.cublasContext;
import org.bytedeco.cuda.cudart.CUfunc_st;
import org.bytedeco.cuda.cudart.CUmod_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.cudart.cudaDeviceProp;
import org.bytedeco.cuda.global.cublas;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * {@link DeviceBackend} on one NVIDIA GPU through JavaCPP's CUDA presets: cuBLAS for GEMMs
 * (row-major operands handed to column-major cuBLAS as their transposes, in plain FP32: no TF32),
 * NVRTC-compiled kernels ({@link KernelSource}) for the rest, device memory from a {@link
 * CachingAllocator} over {@code cudaMalloc} capped at {@code max_device_memory}. Everything runs on
 * the legacy default stream, so kernels execute in launch order and {@link #copyOut} (a blocking
 * {@code cudaMemcpy}) waits for them. Host data crosses through one pinned staging buffer.
 *
 * <p>Open it only after {@link Cuda#probe()} reported a device: the CUDA classes load their native
 * libraries (the machine's CUDA 13 runtime, cuBLAS and NVRTC) on first use. Calls on one instance
 * are serialised; a thread that was not the last to call first makes the device current.
 */
public final class CudaBackend implements DeviceBackend {

  private final int device;
  private final String name;
  private final int multiprocessors;
  private final String arch;
  private final CachingAllocator allocator;
  private final cublasContext blas = new cublasContext();
  private final CUmod_st module = new CUmod_st();
  private final Map<String, CUfunc_st> kernels = new HashMap<>();
  private final Map<Unary, CUfunc_st> maps = new EnumMap<>(Unary.class);
  private final Map<Binary, CUfunc_st> zips = new EnumMap<>(Binary.class);
  private final Map<Binary, CUfunc_st> zipRows = new EnumMap<>(Binary.class);
  private final FloatPointer alpha = new FloatPointer(1);
  private final FloatPointer beta = new FloatPointer(1);
  private final Args args = new Args(16);
  private Pointer stage = new Pointer();
  private long stageBytes;
  private FloatBuffer stageFloats;
  private Thread lastCaller;
  private boolean closed;

  private CudaBackend(int device, long limitBytes, boolean caching) {
    this.device = device;
    check(cudart.cudaSetDevice(device), "cudaSetDevice(" + device + ")");
    check(cudart.cudaFree(null), "cudaFree(NULL) (context creation)");
    lastCaller = Thread.currentThread();
    int[] v = new int[1];
    check(cudart.cudaDeviceGetAttribute(v, cudaDevAttrComputeCapabilityMajor, device), "cc major");
    int major = v[0];
    check(cudart.cudaDeviceGetAttribute(v, cudaDevAttrComputeCapabilityMinor, device), "cc minor");
    int minor = v[0];
    check(cudart.cudaDeviceGetAttribute(v, cudaDevAttrMultiProcessorCount, device), "SM count");
    multiprocessors = v[0];
    try (cudaDeviceProp prop = new cudaDeviceProp()) {
      check(cudart.cudaGetDeviceProperties(prop, device), "cudaGetDeviceProperties");
      name =
          "cuda:" + device + " (" + prop.name().getString().trim() + ", sm_" + major + minor + ")";
    }
    Nvrtc.Image image =
        Nvrtc.compile(KernelSource.source(), "msjvm_kernels.cu", major * 10 + minor);
    arch = image.target();
    try (BytePointer code = new BytePointer(image.bytes())) {
      checkDriver(cudart.cuModuleLoadData(module, code), "cuModuleLoadData");
    }
    for (String k : KernelSource.names()) {
      CUfunc_st f = new CUfunc_st();
      checkDriver(cudart.cuModuleGetFunction(f, module, k), "cuModuleGetFunction(" + k + ")");
      kernels.put(k, f);
    }
    for (Unary op : Unary.values()) {
      maps.put(op, kernels.get(KernelSource.mapName(op)));
    }
    for (Binary op : Binary.values()) {
      zips.put(op, kernels.get(KernelSource.zipName(op)));
      zipRows.put(op, kernels.get(KernelSource.zipRowName(op)));
    }
    checkBlas(cublas.cublasCreate_v2(blas), "cublasCreate");
    allocator = new CachingAllocator(new CudaMemory(), limitBytes, "GPU:" + device, caching);
  }

  /**
   * Opens device {@code device} with at most {@code limitBytes} of device memory ({@link
   * Long#MAX_VALUE}: no cap).
   *
   * @throws MsException (RUNTIME_ERROR) when CUDA is unavailable or the device cannot be set up
   */
  public static CudaBackend open(int device, long limitBytes) {
    return open(device, limitBytes, true);
  }

  /**
   * As {@link #open(int, long)}; with {@code caching} false every buffer's memory goes back to the
   * device when it closes (a {@code cudaFree}, and a {@code cudaMalloc} for the next), which only a
   * measurement of what the cache saves wants.
   */
  public static CudaBackend open(int device, long limitBytes, boolean caching) {
    Cuda.Probe probe = Cuda.probe();
    if (!probe.available()) {
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR, "CUDA is not available: " + probe.reason());
    }
    if (device < 0 || device >= probe.deviceCount()) {
      throw MsException.valueError(
          "device_id " + device + " is out of range: " + probe.deviceCount() + " GPU(s) visible");
    }
    return new CudaBackend(device, limitBytes, caching);
  }

  @Override
  public String name() {
    return name;
  }

  /** The NVRTC target the kernels were built for, e.g. {@code sm_90} or {@code compute_90}. */
  public String kernelTarget() {
    return arch;
  }

  // ---- memory ----

  /** cudaMalloc/cudaFree for the caching allocator; 0 for "out of memory". */
  private final class CudaMemory implements CachingAllocator.Raw {
    @Override
    public long malloc(long bytes) {
      Pointer p = new Pointer();
      int status = cudart.cudaMalloc(p, bytes);
      if (status == cudaErrorMemoryAllocation) {
        cudart.cudaGetLastError();
        return 0;
      }
      check(status, "cudaMalloc(" + bytes + ")");
      return p.address();
    }

    @Override
    public void free(long address) {
      check(cudart.cudaFree(new Raw(address)), "cudaFree");
    }
  }

  /** A pointer at a raw address (device memory), for JavaCPP calls. */
  private static final class Raw extends Pointer {
    Raw(long address) {
      this.address = address;
    }
  }

  /** A float pointer at a raw address (device memory), for cuBLAS. */
  private static final class RawFloats extends FloatPointer {
    RawFloats(long address) {
      super((Pointer) null);
      this.address = address;
    }
  }

  private final class Buffer implements DeviceBuffer {
    final long address;
    final long length;
    boolean open = true;

    Buffer(long address, long length) {
      this.address = address;
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      synchronized (CudaBackend.this) {
        if (open) {
          open = false;
          allocator.release(address);
        }
      }
    }
  }

  private static long at(DeviceBuffer buffer, long offset, long count) {
    if (!(buffer instanceof Buffer b)) {
      throw new IllegalArgumentException("buffer belongs to another backend");
    }
    if (!b.open) {
      throw new IllegalStateException("buffer already closed");
    }
    if (offset < 0 || count < 0 || offset + count > b.length) {
      throw new IndexOutOfBoundsException(
          "elements [" + offset + ", " + (offset + count) + ") of a buffer of " + b.length);
    }
    return b.address + offset * Float.BYTES;
  }

  @Override
  public synchronized DeviceBuffer allocate(long floats) {
    enter();
    if (floats < 0) {
      throw new IllegalArgumentException("negative length " + floats);
    }
    return new Buffer(allocator.allocate(floats * Float.BYTES), floats);
  }

  private FloatBuffer stage(long floats) {
    long bytes = floats * Float.BYTES;
    if (bytes > stageBytes) {
      if (stageBytes > 0) {
        check(cudart.cudaFreeHost(stage), "cudaFreeHost");
      }
      long size = Math.max(bytes, 1 << 20);
      stage = new Pointer();
      check(cudart.cudaMallocHost(stage, size), "cudaMallocHost(" + size + ")");
      stage.capacity(size).limit(size);
      stageBytes = size;
      stageFloats =
          new BytePointer(stage)
              .capacity(size)
              .limit(size)
              .asByteBuffer()
              .order(ByteOrder.nativeOrder())
              .asFloatBuffer();
    }
    stageFloats.clear();
    return stageFloats;
  }

  @Override
  public synchronized void copyIn(
      float[] src, int srcOffset, DeviceBuffer dst, long dstOffset, int count) {
    enter();
    long to = at(dst, dstOffset, count);
    if (count == 0) {
      return;
    }
    stage(count).put(src, srcOffset, count);
    check(
        cudart.cudaMemcpy(new Raw(to), stage, (long) count * Float.BYTES, cudaMemcpyHostToDevice),
        "cudaMemcpy host to device");
  }

  @Override
  public synchronized void copyOut(
      DeviceBuffer src, long srcOffset, float[] dst, int dstOffset, int count) {
    enter();
    long from = at(src, srcOffset, count);
    if (count == 0) {
      return;
    }
    FloatBuffer staged = stage(count);
    check(
        cudart.cudaMemcpy(stage, new Raw(from), (long) count * Float.BYTES, cudaMemcpyDeviceToHost),
        "cudaMemcpy device to host");
    staged.get(dst, dstOffset, count);
  }

  // ---- kernels ----

  /** Kernel arguments: one 8-byte slot per argument, and the pointer array cuLaunchKernel reads. */
  private static final class Args {
    final BytePointer slots;
    final PointerPointer<Pointer> params;
    final ByteBuffer values;

    Args(int n) {
      slots = new BytePointer(8L * n);
      params = new PointerPointer<>(n);
      ByteBuffer table =
          new BytePointer(params)
              .capacity(8L * n)
              .limit(8L * n)
              .asByteBuffer()
              .order(ByteOrder.nativeOrder());
      for (int i = 0; i < n; i++) {
        table.putLong(8 * i, slots.address() + 8L * i);
      }
      values = slots.capacity(8L * n).limit(8L * n).asByteBuffer().order(ByteOrder.nativeOrder());
    }

    Args ptr(int i, long address) {
      values.putLong(8 * i, address);
      return this;
    }

    Args i64(int i, long v) {
      values.putLong(8 * i, v);
      return this;
    }

    Args i32(int i, int v) {
      values.putInt(8 * i, v);
      return this;
    }

    Args f32(int i, float v) {
      values.putFloat(8 * i, v);
      return this;
    }
  }

  private void launch(CUfunc_st kernel, LaunchConfig c, String what) {
    checkDriver(
        cudart.cuLaunchKernel(
            kernel,
            c.grid(),
            1,
            1,
            c.block(),
            1,
            1,
            c.sharedBytes(),
            (CUstream_st) null,
            args.params,
            (PointerPointer<?>) null),
        what);
  }

  private LaunchConfig elementwise(long n) {
    return LaunchConfig.elementwise(n, multiprocessors);
  }

  @Override
  public synchronized void fill(DeviceBuffer x, long offset, long n, float value) {
    enter();
    long p = at(x, offset, n);
    if (n == 0) {
      return;
    }
    args.ptr(0, p).i64(1, n).f32(2, value);
    launch(kernels.get(KernelSource.FILL), elementwise(n), "fill");
  }

  @Override
  public synchronized void gemm(
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
    enter();
    long pa = at(a, aOffset, span(transA ? k : m, transA ? m : k, lda));
    long pb = at(b, bOffset, span(transB ? n : k, transB ? k : n, ldb));
    long pc = at(c, cOffset, span(m, n, ldc));
    this.alpha.put(0, alpha);
    this.beta.put(0, beta);
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: swap the operands.
    checkBlas(
        cublas.cublasSgemm_v2(
            blas,
            transB ? CUBLAS_OP_T : CUBLAS_OP_N,
            transA ? CUBLAS_OP_T : CUBLAS_OP_N,
            n,
            m,
            k,
            this.alpha,
            new RawFloats(pb),
            ldb,
            new RawFloats(pa),
            lda,
            this.beta,
            new RawFloats(pc),
            ldc),
        "cublasSgemm");
  }

  /**
   * Elements a row-major {@code rows x cols} matrix spans with leading dimension {@code ld}: up to
   * the end of its last row.
   */
  private static long span(int rows, int cols, int ld) {
    return rows == 0 || cols == 0 ? 0 : (long) (rows - 1) * ld + cols;
  }

  @Override
  public synchronized void gemmBatched(
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
    enter();
    if (batch == 0) {
      return;
    }
    long pa = at(a, 0, (batch - 1) * strideA + span(transA ? k : m, transA ? m : k, lda));
    long pb = at(b, 0, (batch - 1) * strideB + span(transB ? n : k, transB ? k : n, ldb));
    long pc = at(c, 0, (batch - 1) * strideC + span(m, n, ldc));
    this.alpha.put(0, alpha);
    this.beta.put(0, beta);
    checkBlas(
        cublas.cublasSgemmStridedBatched(
            blas,
            transB ? CUBLAS_OP_T : CUBLAS_OP_N,
            transA ? CUBLAS_OP_T : CUBLAS_OP_N,
            n,
            m,
            k,
            this.alpha,
            new RawFloats(pb),
            ldb,
            strideB,
            new RawFloats(pa),
            lda,
            strideA,
            this.beta,
            new RawFloats(pc),
            ldc,
            strideC,
            batch),
        "cublasSgemmStridedBatched");
  }

  @Override
  public synchronized void map(Unary op, DeviceBuffer x, DeviceBuffer y, long n) {
    enter();
    long in = at(x, 0, n);
    long out = at(y, 0, n);
    if (n == 0) {
      return;
    }
    args.ptr(0, in).ptr(1, out).i64(2, n);
    launch(maps.get(op), elementwise(n), "map " + op);
  }

  @Override
  public synchronized void zip(
      Binary op, DeviceBuffer a, DeviceBuffer b, DeviceBuffer out, long n) {
    enter();
    long pa = at(a, 0, n);
    long pb = at(b, 0, n);
    long po = at(out, 0, n);
    if (n == 0) {
      return;
    }
    args.ptr(0, pa).ptr(1, pb).ptr(2, po).i64(3, n);
    launch(zips.get(op), elementwise(n), "zip " + op);
  }

  @Override
  public synchronized void zipRow(
      Binary op, DeviceBuffer a, DeviceBuffer row, DeviceBuffer out, int rows, int cols) {
    enter();
    long n = (long) rows * cols;
    long pa = at(a, 0, n);
    long pr = at(row, 0, cols);
    long po = at(out, 0, n);
    if (n == 0) {
      return;
    }
    args.ptr(0, pa).ptr(1, pr).ptr(2, po).i64(3, n).i32(4, cols);
    launch(zipRows.get(op), elementwise(n), "zipRow " + op);
  }

  @Override
  public synchronized void sumRows(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
    enter();
    long px = at(x, 0, (long) rows * cols);
    long py = at(y, 0, rows);
    args.ptr(0, px).ptr(1, py).i32(2, rows).i32(3, cols);
    launch(kernels.get(KernelSource.SUM_ROWS), LaunchConfig.rows(rows, cols), "sumRows");
  }

  @Override
  public synchronized void sumCols(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
    enter();
    long px = at(x, 0, (long) rows * cols);
    long py = at(y, 0, cols);
    args.ptr(0, px).ptr(1, py).i32(2, rows).i32(3, cols);
    launch(kernels.get(KernelSource.SUM_COLS), LaunchConfig.columns(cols), "sumCols");
  }

  @Override
  public synchronized void softmax(DeviceBuffer x, DeviceBuffer y, int rows, int cols) {
    enter();
    long px = at(x, 0, (long) rows * cols);
    long py = at(y, 0, (long) rows * cols);
    args.ptr(0, px).ptr(1, py).i32(2, rows).i32(3, cols);
    launch(kernels.get(KernelSource.SOFTMAX), LaunchConfig.rows(rows, cols), "softmax");
  }

  @Override
  public synchronized void softmaxCrossEntropy(
      DeviceBuffer logits,
      DeviceBuffer labels,
      DeviceBuffer loss,
      DeviceBuffer grad,
      int rows,
      int cols,
      float scale) {
    enter();
    long px = at(logits, 0, (long) rows * cols);
    long pl = at(labels, 0, rows);
    long ploss = at(loss, 0, rows);
    long pg = at(grad, 0, (long) rows * cols);
    args.ptr(0, px).ptr(1, pl).ptr(2, ploss).ptr(3, pg).i32(4, rows).i32(5, cols).f32(6, scale);
    launch(
        kernels.get(KernelSource.SOFTMAX_CROSS_ENTROPY),
        LaunchConfig.rows(rows, cols),
        "softmaxCrossEntropy");
  }

  @Override
  public synchronized void applyMomentum(
      DeviceBuffer param,
      DeviceBuffer accum,
      DeviceBuffer grad,
      float lr,
      float momentum,
      boolean nesterov,
      long n) {
    enter();
    long pp = at(param, 0, n);
    long pa = at(accum, 0, n);
    long pg = at(grad, 0, n);
    if (n == 0) {
      return;
    }
    args.ptr(0, pp)
        .ptr(1, pa)
        .ptr(2, pg)
        .f32(3, lr)
        .f32(4, momentum)
        .i32(5, nesterov ? 1 : 0)
        .i64(6, n);
    launch(kernels.get(KernelSource.APPLY_MOMENTUM), elementwise(n), "applyMomentum");
  }

  @Override
  public synchronized void adam(
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
    enter();
    long pp = at(param, 0, n);
    long pm = at(m, 0, n);
    long pv = at(v, 0, n);
    long pg = at(grad, 0, n);
    if (n == 0) {
      return;
    }
    float lrT = DeviceBackend.adamStepSize(lr, beta1Power, beta2Power);
    args.ptr(0, pp)
        .ptr(1, pm)
        .ptr(2, pv)
        .ptr(3, pg)
        .f32(4, lrT)
        .f32(5, beta1)
        .f32(6, beta2)
        .f32(7, eps)
        .i64(8, n);
    launch(kernels.get(KernelSource.ADAM), elementwise(n), "adam");
  }

  @Override
  public synchronized void synchronize() {
    enter();
    check(cudart.cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

  @Override
  public MemoryStats memoryStats() {
    return allocator.stats();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    enter();
    closed = true;
    cudart.cudaDeviceSynchronize();
    allocator.close();
    cublas.cublasDestroy_v2(blas);
    cudart.cuModuleUnload(module);
    if (stageBytes > 0) {
      cudart.cudaFreeHost(stage);
      stageBytes = 0;
    }
    alpha.close();
    beta.close();
  }

  private void enter() {
    if (closed) {
      throw new IllegalStateException("CUDA backend closed");
    }
    Thread me = Thread.currentThread();
    if (me != lastCaller) {
      check(cudart.cudaSetDevice(device), "cudaSetDevice(" + device + ")");
      lastCaller = me;
    }
  }

  // ---- errors ----

  static void check(int status, String what) {
    if (status != cudaSuccess) {
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR,
          "CUDA error in "
              + what
              + ": "
              + cudart.cudaGetErrorString(status).getString()
              + " ("
              + status
              + ")");
    }
  }

  static void checkDriver(int status, String what) {
    if (status != CUDA_SUCCESS) {
      BytePointer text = new BytePointer((Pointer) null);
      cudart.cuGetErrorString(status, text);
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR,
          "CUDA driver error in "
              + what
              + ": "
              + (text.isNull() ? "code" : text.getString())
              + " ("
              + status
              + ")");
    }
  }

  static void checkBlas(int status, String what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR,
          "cuBLAS error in "
              + what
              + ": "
              + cublas.cublasGetStatusString(status).getString()
              + " ("
              + status
              + ")");
    }
  }
}
