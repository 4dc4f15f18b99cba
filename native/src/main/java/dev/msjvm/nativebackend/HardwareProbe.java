package dev.msjvm.nativebackend;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which accelerators this host has, found without loading any native library.
 *
 * <p>A GPU counts as present when the NVIDIA kernel driver is loaded ({@code
 * /proc/driver/nvidia/version}); an Ascend NPU when a {@code /dev/davinci*} device exists. Native
 * CUDA code is only loaded later, and only when this says a GPU is there, so a GPU-less machine
 * never touches it. Example: on a CPU-only host {@code detect().available("GPU")} is false.
 */
public record HardwareProbe(boolean gpu, boolean ascend) {

  public static HardwareProbe detect() {
    boolean gpu = Files.exists(Path.of("/proc/driver/nvidia/version"));
    boolean ascend =
        Files.exists(Path.of("/dev/davinci0")) || Files.exists(Path.of("/dev/davinci_manager"));
    return new HardwareProbe(gpu, ascend);
  }

  /** Whether a MindSpore {@code device_target} can run on real hardware here. */
  public boolean available(String deviceTarget) {
    return switch (deviceTarget) {
      case "CPU" -> true;
      case "GPU" -> gpu;
      case "Ascend", "Davinci" -> ascend;
      default -> false;
    };
  }
}
