package dev.msjvm.nativebackend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Loading OpenBLAS: thread configuration, and a clean failure where no native library fits. */
class OpenBlasLoadTest {

  @Test
  void loadsWithRequestedOrDefaultThreads() {
    try (OpenBlas two = OpenBlas.load(2)) {
      assertEquals("openblas", two.name());
      assertEquals(2, two.threads());
    }
    try (OpenBlas all = OpenBlas.load()) {
      assertEquals(Runtime.getRuntime().availableProcessors(), all.threads());
    }
  }

  @Test
  void rejectsNonPositiveThreads() {
    assertThrows(IllegalArgumentException.class, () -> OpenBlas.load(0));
  }

  /**
   * Pretending to be another platform makes JavaCPP find no native library, as on a host without
   * the linux-x86_64 jars; done in a child JVM so this one keeps its loaded library.
   */
  @Test
  void failsCleanlyWhenNoNativeLibraryFits() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                List.of(
                    java,
                    "--enable-native-access=ALL-UNNAMED",
                    "-Dorg.bytedeco.javacpp.platform=linux-arm64",
                    "-cp",
                    System.getProperty("java.class.path"),
                    LoadProbe.class.getName()))
            .redirectErrorStream(true)
            .start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), out);
    assertEquals(0, child.exitValue(), out);
    assertTrue(
        out.contains(
            "attempt 1 RUNTIME_ERROR: OpenBLAS could not be loaded on platform linux-arm64"),
        out);
    assertTrue(out.contains("attempt 2 RUNTIME_ERROR: OpenBLAS could not be loaded"), out);
    assertTrue(out.contains("still alive"), out);
  }
}
