package dev.msjvm.cuda;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.BackendSuite;
import dev.msjvm.engine.backend.DeviceBuffer;
import dev.msjvm.engine.backend.HostBackend;
import dev.msjvm.engine.backend.KernelMlp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The GPU check ({@code tests/gpu.sh}): the kernel suite on CUDA against the reference backend, the
 * caching allocator's cap and out-of-memory error on the device, and with {@code --bench} the
 * benchmarks (FP32 GEMM, the seed MLP's kernel-level training step). Prints one line per check and
 * {@code N passed, N failed}; exits 0 when all passed, 1 when any failed, 3 when there is no GPU.
 */
public final class GpuCheck {

  private GpuCheck() {}

  public static void main(String[] args) {
    boolean bench = List.of(args).contains("--bench");
    Cuda.Probe probe = Cuda.probe();
    if (!probe.available()) {
      System.out.println("SKIP no GPU: " + probe.reason());
      System.out.println("0 passed, 0 failed (not run: " + probe.reason() + ")");
      System.exit(3);
    }
    System.out.println(
        "CUDA "
            + probe.versions()
            + ", NVRTC "
            + Nvrtc.version()
            + ", "
            + probe.deviceCount()
            + " device(s)");
    List<BackendSuite.Result> results = new ArrayList<>();
    try (CudaBackend cuda = CudaBackend.open(0, Long.MAX_VALUE);
        HostBackend reference = HostBackend.reference()) {
      System.out.println("backend " + cuda.name() + ", kernels built for " + cuda.kernelTarget());
      results.addAll(BackendSuite.run(cuda, reference));
      if (bench) {
        benchmarks(cuda);
      }
    } catch (RuntimeException e) {
      results.add(new BackendSuite.Result("backend run", false, String.valueOf(e)));
    }
    if (bench) {
      // The same steps with every buffer's memory going back to the device: what the cache saves.
      try (CudaBackend uncached = CudaBackend.open(0, Long.MAX_VALUE, false)) {
        mlpSteps(uncached, "msjvm-cuda-nocache", new SplittableRandom(1));
      } catch (RuntimeException e) {
        results.add(new BackendSuite.Result("uncached backend run", false, String.valueOf(e)));
      }
    }
    results.add(capCheck());
    String summary = BackendSuite.report("cuda", results, System.out::println);
    System.exit(summary.endsWith(" 0 failed") ? 0 : 1);
  }

  /** A backend capped at 256 MiB: 128 MiB fits, 192 more does not, and fits once freed. */
  private static BackendSuite.Result capCheck() {
    String name = "max_device_memory cap and out-of-memory error";
    long mib = 1L << 20;
    try (CudaBackend capped = CudaBackend.open(0, 256 * mib)) {
      DeviceBuffer first = capped.allocate(128 * mib / 4);
      try {
        capped.allocate(192 * mib / 4);
        return new BackendSuite.Result(
            name, false, "192 MiB beside 128 MiB fitted under a 256 MiB cap");
      } catch (MsException e) {
        String want = "Device(id:0) memory isn't enough and alloc failed";
        if (e.kind() != MsException.Kind.RUNTIME_ERROR || !e.getMessage().contains(want)) {
          return new BackendSuite.Result(
              name, false, "wrong error: " + e.kind() + " " + e.getMessage());
        }
        first.close();
        try (DeviceBuffer second = capped.allocate(192 * mib / 4)) {
          return new BackendSuite.Result(
              name,
              true,
              e.getMessage()
                  + "; fits after release, reserved "
                  + capped.memoryStats().reserved() / mib
                  + " MiB");
        }
      }
    } catch (RuntimeException e) {
      return new BackendSuite.Result(name, false, String.valueOf(e));
    }
  }

  private static void benchmarks(CudaBackend cuda) {
    int size = 4096;
    SplittableRandom random = new SplittableRandom(1);
    try (DeviceBuffer a = cuda.allocate((long) size * size);
        DeviceBuffer b = cuda.allocate((long) size * size);
        DeviceBuffer c = cuda.allocate((long) size * size)) {
      float[] host = KernelMlp.uniform(random, size * size, 1f);
      cuda.copyIn(host, 0, a, 0, host.length);
      cuda.copyIn(host, 0, b, 0, host.length);
      for (int i = 0; i < 3; i++) {
        cuda.gemm(false, false, size, size, size, 1f, a, 0, size, b, 0, size, 0f, c, 0, size);
      }
      cuda.synchronize();
      int reps = 20;
      long t0 = System.nanoTime();
      for (int i = 0; i < reps; i++) {
        cuda.gemm(false, false, size, size, size, 1f, a, 0, size, b, 0, size, 0f, c, 0, size);
      }
      cuda.synchronize();
      double ms = (System.nanoTime() - t0) / 1e6 / reps;
      System.out.printf(
          "RESULT impl=msjvm-cuda what=sgemm-%d ms=%.3f tflops=%.1f%n",
          size, ms, 2.0 * size * size * size / (ms * 1e-3) / 1e12);
    }
    mlpSteps(cuda, "msjvm-cuda", new SplittableRandom(1));
  }

  /** The seed MLP's kernel-level training step at batch 32 and 1024: mean ms over 2000 steps. */
  private static void mlpSteps(CudaBackend cuda, String impl, SplittableRandom random) {
    for (int batch : new int[] {32, 1024}) {
      try (KernelMlp mlp = new KernelMlp(cuda, KernelMlp.SEED_WIDTHS, 0.01f, 3);
          DeviceBuffer x = cuda.allocate((long) batch * 784);
          DeviceBuffer labels = cuda.allocate(batch)) {
        float[] xs = KernelMlp.uniform(random, batch * 784, 1f);
        float[] ls = new float[batch];
        for (int i = 0; i < batch; i++) {
          ls[i] = random.nextInt(10);
        }
        cuda.copyIn(xs, 0, x, 0, xs.length);
        cuda.copyIn(ls, 0, labels, 0, batch);
        for (int i = 0; i < 300; i++) {
          mlp.step(x, labels, batch, false);
        }
        cuda.synchronize();
        int steps = 2000;
        long t0 = System.nanoTime();
        for (int i = 0; i < steps; i++) {
          mlp.step(x, labels, batch, false);
        }
        cuda.synchronize();
        double ms = (System.nanoTime() - t0) / 1e6 / steps;
        float loss = mlp.step(x, labels, batch, true);
        System.out.printf(
            "RESULT impl=%s what=mlp-step batch=%d ms=%.4f steps_per_s=%.0f loss=%.4f%n",
            impl, batch, ms, 1000 / ms, loss);
      }
    }
  }
}
