package dev.msjvm.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import dev.msjvm.engine.backend.BackendSuite;
import dev.msjvm.engine.backend.HostBackend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Without a GPU (CI, this machine) CUDA reports why and refuses cleanly; with one, the CUDA backend
 * passes the kernel suite (the full GPU check with benchmarks is tests/gpu.sh).
 */
class CudaTest {

  @Test
  void withoutAGpuTheProbeSaysWhyAndOpeningFailsWithRuntimeError() {
    Cuda.Probe probe = Cuda.probe();
    Assumptions.assumeFalse(probe.available(), "this machine has a GPU");
    assertEquals(0, probe.deviceCount());
    assertFalse(probe.reason().isEmpty());
    assertTrue(Cuda.probe() == probe, "probed once");
    MsException e = assertThrows(MsException.class, () -> CudaBackend.open(0, Long.MAX_VALUE));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    assertEquals("CUDA is not available: " + probe.reason(), e.getMessage());
  }

  @Test
  void onAGpuTheCudaBackendPassesTheKernelSuite() {
    Cuda.Probe probe = Cuda.probe();
    if (!probe.available()) {
      System.out.println("CudaTest: CUDA kernel suite skipped: " + probe.reason());
    }
    Assumptions.assumeTrue(probe.available(), () -> "no GPU: " + probe.reason());
    try (CudaBackend cuda = CudaBackend.open(0, Long.MAX_VALUE)) {
      List<BackendSuite.Result> results = BackendSuite.run(cuda, HostBackend.reference());
      List<String> lines = new ArrayList<>();
      String summary = BackendSuite.report("cuda", results, lines::add);
      assertEquals(results.size() + " passed, 0 failed", summary, String.join("\n", lines));
    }
  }

  @Test
  void ptxTargetsTheNewestArchitectureTheDeviceCanRun() {
    assertEquals(90, Nvrtc.target(new int[] {75, 80, 86, 89, 90}, 100));
    assertEquals(86, Nvrtc.target(new int[] {75, 80, 86, 89, 90}, 87));
    MsException e = assertThrows(MsException.class, () -> Nvrtc.target(new int[] {75, 80}, 61));
    assertTrue(e.getMessage().contains("compute capability 6.1"), e.getMessage());
  }
}
