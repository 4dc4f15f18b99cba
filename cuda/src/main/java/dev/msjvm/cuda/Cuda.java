package dev.msjvm.cuda;

import org.bytedeco.cuda.global.cudart;

/**
 * Whether this JVM can use an NVIDIA GPU. The first call loads JavaCPP's CUDA bindings and, through
 * them, the machine's driver ({@code libcuda.so.1}) and CUDA 13 runtime; on a machine without them
 * nothing is loaded twice and nothing fails later: {@link #probe()} says why, once.
 */
public final class Cuda {

  /** The outcome: {@code deviceCount > 0}, or the reason there is no usable GPU. */
  public record Probe(int deviceCount, String reason, String versions) {
    public boolean available() {
      return deviceCount > 0;
    }
  }

  private Cuda() {}

  /** The probe's result, computed once per class loader (it only reads the machine). */
  public static Probe probe() {
    return Holder.PROBE;
  }

  private static final class Holder {
    static final Probe PROBE = run();
  }

  private static Probe run() {
    try {
      int[] count = new int[1];
      int status = cudart.cudaGetDeviceCount(count);
      int[] driver = new int[1];
      int[] runtime = new int[1];
      cudart.cudaDriverGetVersion(driver);
      cudart.cudaRuntimeGetVersion(runtime);
      String versions = "driver CUDA " + version(driver[0]) + ", runtime " + version(runtime[0]);
      if (status != cudart.cudaSuccess) {
        return new Probe(
            0,
            "cudaGetDeviceCount: "
                + cudart.cudaGetErrorString(status).getString()
                + " ("
                + versions
                + ")",
            versions);
      }
      if (count[0] == 0) {
        return new Probe(0, "no CUDA device (" + versions + ")", versions);
      }
      return new Probe(count[0], "", versions);
    } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError e) {
      return new Probe(0, "the CUDA libraries could not be loaded (" + firstLine(e) + ")", "");
    }
  }

  private static String version(int v) {
    return v == 0 ? "none" : v / 1000 + "." + v % 1000 / 10;
  }

  private static String firstLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String text = String.valueOf(root.getMessage() == null ? root : root.getMessage());
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
