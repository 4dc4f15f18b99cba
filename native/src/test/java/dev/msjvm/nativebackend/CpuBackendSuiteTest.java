package dev.msjvm.nativebackend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.msjvm.engine.backend.BackendSuite;
import dev.msjvm.engine.backend.HostBackend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CPU backend (host arrays, OpenBLAS GEMMs) passes the kernel suite every backend runs. */
class CpuBackendSuiteTest {

  @Test
  void openBlasHostBackendPassesTheKernelSuite() {
    try (OpenBlas blas = OpenBlas.load(1)) {
      List<BackendSuite.Result> results =
          BackendSuite.run(new HostBackend(blas), HostBackend.reference());
      List<String> lines = new ArrayList<>();
      String summary = BackendSuite.report("cpu", results, lines::add);
      assertEquals(results.size() + " passed, 0 failed", summary, String.join("\n", lines));
    }
  }
}
