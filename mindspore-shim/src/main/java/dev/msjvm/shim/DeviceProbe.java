package dev.msjvm.shim;

/**
 * Answers whether hardware for a MindSpore device target is present on this machine.
 *
 * <p>The CPU is always present; GPU and Ascend answers come from the native module, which looks for
 * a driver without crashing when there is none. Example: on a machine without a GPU, {@code
 * available("GPU")} is false and the shim runs the job on the CPU with one warning.
 */
@FunctionalInterface
public interface DeviceProbe {
  boolean available(String deviceTarget);

  /** A probe that knows only the CPU. */
  static DeviceProbe cpuOnly() {
    return target -> "CPU".equals(target);
  }
}
