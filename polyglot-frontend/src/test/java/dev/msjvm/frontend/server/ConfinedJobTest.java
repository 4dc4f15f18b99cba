package dev.msjvm.frontend.server;

import static dev.msjvm.frontend.server.ServerApi.awaitDone;
import static dev.msjvm.frontend.server.ServerApi.log;
import static dev.msjvm.frontend.server.ServerApi.submit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.msjvm.frontend.Caches;
import dev.msjvm.frontend.NumpyHome;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Process-isolated jobs in confined JVMs ({@link Confinement}): numpy works in them, and native
 * code (ctypes calling libc directly, past the polyglot sandbox) reaches nothing outside the job.
 */
@QuarkusTest
@TestProfile(ConfinedJobTest.Confined.class)
class ConfinedJobTest {

  /** Process isolation, confinement where the kernel has it, one warm child. */
  public static class Confined implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "msjvm.server.isolation", "process",
          "msjvm.server.warm-processes", "1",
          "msjvm.server.max-memory-mb", "1024",
          "msjvm.server.max-workers", "2",
          "msjvm.server.data-dir", "target/msserver-confined-data");
    }
  }

  @BeforeAll
  static void machineCanConfine() {
    StringBuilder why = new StringBuilder();
    assumeTrue(
        Confinement.detect(Caches.root(), why::append).isPresent(),
        () -> "this machine cannot confine a JVM: " + why);
    assumeTrue(NumpyHome.venv().isPresent(), "no numpy venv on this machine (bin/setup-numpy)");
  }

  @Test
  void numpyRunsInEveryRankOfAConfinedJob() throws Exception {
    String id =
        submit(
            String.join(
                "\n",
                "import numpy as np",
                "import mindspore as ms",
                "from mindspore.communication import init, get_rank",
                "init()",
                "r = get_rank()",
                "x = np.arange(6, dtype=np.float32).reshape(2, 3)",
                "t = ms.Tensor(x) * (r + 1)",
                "print('rank', r, 'numpy', np.__version__, float((x @ x.T).sum()),",
                "      t.asnumpy().sum(), t.dtype)",
                ""),
            2,
            Map.of());
    Map<String, Object> r = awaitDone(id);
    assertEquals("SUCCEEDED", r.get("state"), r + log(id, 0) + log(id, 1));
    assertTrue(log(id, 0).contains("rank 0 numpy 2.2.6 83.0 15.0 Float32"), log(id, 0));
    assertTrue(log(id, 1).contains("rank 1 numpy 2.2.6 83.0 30.0 Float32"), log(id, 1));
  }

  /**
   * Every escape a job's native code could try, through ctypes straight to libc: each is refused by
   * the kernel (an unconfined JVM would succeed at every one, or fail otherwise: a connect to a
   * closed port is "Connection refused", not "Permission denied").
   */
  @Test
  void nativeCodeReachesNothingOutsideTheJob() throws Exception {
    // Its own heap: a child started for it, confined as it starts (not a warm one).
    String id =
        submit(
            Map.of(
                "memoryMb",
                512,
                "script",
                String.join(
                    "\n",
                    "import ctypes, os, struct",
                    "libc = ctypes.CDLL(None)",
                    "libc.__errno_location.restype = ctypes.POINTER(ctypes.c_int)",
                    "def result(rc):",
                    "    return 'ok' if rc >= 0 else os.strerror(libc.__errno_location()[0])",
                    "def opened(path, flags):",
                    "    # native code sees the process's working directory, not the job's",
                    "    fd = libc.open(os.path.join(os.getcwd(), path).encode(), flags, 0o644)",
                    "    if fd >= 0:",
                    "        libc.close(fd)",
                    "    return result(fd)",
                    "ppid = libc.getppid()",
                    "print('write inside:', opened('inside.txt', 0o101))",
                    "print('read job.json:', opened('../job.json', 0))",
                    "print('write beside the job:', opened('../escape.txt', 0o101))",
                    "print('read the server environment:', opened(f'/proc/{ppid}/environ', 0))",
                    "print('signal the server:', result(libc.kill(ppid, 0)))",
                    "link = os.path.join(os.getcwd(), 'link').encode()",
                    "print('symbolic link:', result(libc.symlink(b'/etc/hostname', link)))",
                    "s = libc.socket(2, 1, 0)",
                    "addr = struct.pack('<HH4s8x', 2, 1 << 8, bytes([127, 0, 0, 1]))",
                    "print('tcp connect:', result(libc.connect(s, addr, len(addr))))",
                    "print('unix socket:', result(libc.socket(1, 1, 0)))",
                    "try:",
                    "    open('../job.json').read()",
                    "    print('python read job.json: ok')",
                    "except PermissionError as e:",
                    "    print('python read job.json: refused')",
                    "")));
    Map<String, Object> r = awaitDone(id);
    String out = log(id, 0);
    assertEquals("SUCCEEDED", r.get("state"), r + out);
    for (String line :
        List.of(
            "write inside: ok",
            "read job.json: Permission denied",
            "write beside the job: Permission denied",
            "read the server environment: Permission denied",
            "signal the server: Operation not permitted",
            "symbolic link: Permission denied",
            "tcp connect: Permission denied",
            "unix socket: Permission denied",
            "python read job.json: refused")) {
      assertTrue(out.contains(line), line + " in\n" + out);
    }
    Path job = Path.of("target/msserver-confined-data/jobs", id);
    assertTrue(Files.exists(job.resolve("work/inside.txt")));
    assertFalse(Files.exists(job.resolve("escape.txt")));
    assertFalse(Files.exists(job.resolve("work/link")));
  }
}
