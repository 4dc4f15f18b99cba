package dev.msjvm.frontend.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The operating system's confinement of a process-isolated job's JVM ({@code confine.py}, run by
 * CPython before it executes the JVM): Landlock (files readable only beneath the paths the JVM
 * needs, writable only beneath the job's own directories, no TCP, no signal or abstract socket
 * reaching outside, no tracing or {@code /proc} of other processes), every capability dropped, and
 * no unix sockets. What it makes possible: native code in a job (numpy's C extensions; with them
 * ctypes and raw memory), which the polyglot sandbox cannot bound, stays inside the job. The script
 * is CPython because every machine that has numpy here has it (numpy's build needs it) and its
 * {@code ctypes} reaches the three Landlock system calls; Java 21 cannot make them without the
 * preview foreign-function API, and only a restriction made before the JVM starts covers all its
 * threads.
 */
final class Confinement {
  private final String python;
  private final Path script;
  private final int abi;

  private Confinement(String python, Path script, int abi) {
    this.python = python;
    this.script = script;
    this.abi = abi;
  }

  /** The Landlock ABI the kernel offers. */
  int abi() {
    return abi;
  }

  /**
   * Confinement on this machine: the script written to {@code cacheRoot/confine/} (read-only) and
   * asked whether the kernel can confine; empty, with {@code why} told the reason, when there is no
   * CPython, no Landlock or too old a one.
   */
  static Optional<Confinement> detect(Path cacheRoot, java.util.function.Consumer<String> why) {
    String python = findPython();
    if (python == null) {
      why.accept("no python3 (CPython) on PATH");
      return Optional.empty();
    }
    Path script;
    try {
      script = install(cacheRoot.resolve("confine"));
    } catch (IOException | UncheckedIOException e) {
      why.accept("cannot write confine.py: " + e);
      return Optional.empty();
    }
    List<String> out = new ArrayList<>();
    int code = run(List.of(python, script.toString(), "--probe"), out);
    String text = String.join("\n", out).trim();
    if (code != 0 || !text.startsWith("landlock ")) {
      why.accept(text.isEmpty() ? "confine.py --probe exited with status " + code : text);
      return Optional.empty();
    }
    return Optional.of(new Confinement(python, script, Integer.parseInt(text.substring(9).trim())));
  }

  /**
   * The command that confines and then executes {@code command}: {@code reads} readable (and
   * executable) beneath each, {@code writes} writable beneath each. The system's own libraries and
   * the few {@code /proc}, {@code /sys} and {@code /etc} entries a JVM reads are added here.
   */
  List<String> command(List<Path> reads, List<Path> writes, List<String> command) {
    List<String> cmd = new ArrayList<>(List.of(python, script.toString()));
    for (Path p : reads) {
      cmd.add("--read");
      cmd.add(p.toAbsolutePath().toString());
    }
    for (String p : SYSTEM_READS) {
      if (Files.exists(Path.of(p))) {
        cmd.add("--read");
        cmd.add(p);
      }
    }
    for (Path p : writes) {
      cmd.add("--write");
      cmd.add(p.toAbsolutePath().toString());
    }
    cmd.add("--");
    cmd.addAll(command);
    return cmd;
  }

  /**
   * What a JVM reads besides its own files: shared libraries, the dynamic linker's cache, time zone
   * and user database, its own {@code /proc/self} (the script opens it as the process that becomes
   * the JVM), memory and CPU facts, the cgroup limits.
   */
  private static final List<String> SYSTEM_READS =
      List.of(
          "/usr/lib",
          "/usr/lib64",
          "/usr/share/zoneinfo",
          "/lib",
          "/lib64",
          "/etc/ld.so.cache",
          "/etc/localtime",
          "/etc/timezone",
          "/etc/passwd",
          "/etc/group",
          "/etc/nsswitch.conf",
          "/proc/self",
          "/proc/meminfo",
          "/proc/cpuinfo",
          "/proc/stat",
          "/proc/sys/kernel",
          "/proc/sys/vm",
          "/sys/fs/cgroup",
          "/sys/devices/system/cpu",
          "/sys/devices/system/node",
          "/sys/kernel/mm/transparent_hugepage");

  private static Path install(Path dir) throws IOException {
    byte[] text;
    try (InputStream in = Confinement.class.getResourceAsStream("confine.py")) {
      if (in == null) {
        throw new IOException("confine.py is not on the classpath");
      }
      text = in.readAllBytes();
    }
    Path target = dir.resolve("confine.py");
    if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), text)) {
      return target;
    }
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "confine.", ".py");
    Files.write(tmp, text);
    tmp.toFile().setReadOnly();
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return target;
  }

  /** CPython's own executable (not a version manager's shim that runs it), or null. */
  private static String findPython() {
    for (String name : List.of("python3", "python")) {
      List<String> out = new ArrayList<>();
      int code =
          run(
              List.of(
                  name,
                  "-c",
                  "import sys, platform; print(platform.python_implementation(), sys.executable)"),
              out);
      if (code == 0 && !out.isEmpty() && out.get(0).startsWith("CPython /")) {
        return out.get(0).substring("CPython ".length()).trim();
      }
    }
    return null;
  }

  private static int run(List<String> cmd, List<String> out) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      out.addAll(text.lines().toList());
      return p.exitValue();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }
}
