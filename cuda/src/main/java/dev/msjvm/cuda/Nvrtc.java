package dev.msjvm.cuda;

import static org.bytedeco.cuda.global.nvrtc.NVRTC_SUCCESS;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.cuda.global.nvrtc;
import org.bytedeco.cuda.nvrtc._nvrtcProgram;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.SizeTPointer;

/**
 * Runtime compilation of {@link KernelSource} with NVRTC: machine code (CUBIN) for the device's own
 * architecture when this NVRTC knows it, else PTX for the newest architecture it knows that the
 * device can run, which the driver then compiles at load.
 */
final class Nvrtc {

  /** Compiled code and what it was compiled for ({@code sm_90}: CUBIN, {@code compute_90}: PTX). */
  record Image(byte[] bytes, String target) {}

  private Nvrtc() {}

  static Image compile(String source, String fileName, int computeCapability) {
    int[] archs = supportedArchs();
    boolean native_ = Arrays.stream(archs).anyMatch(a -> a == computeCapability);
    int arch = native_ ? computeCapability : target(archs, computeCapability);
    String target = (native_ ? "sm_" : "compute_") + arch;
    _nvrtcProgram program = new _nvrtcProgram();
    check(
        nvrtc.nvrtcCreateProgram(
            program,
            new BytePointer(source),
            new BytePointer(fileName),
            0,
            (PointerPointer<?>) null,
            (PointerPointer<?>) null),
        "nvrtcCreateProgram",
        null);
    try {
      List<String> options =
          new ArrayList<>(List.of("--gpu-architecture=" + target, "--std=c++17"));
      PointerPointer<BytePointer> opts = new PointerPointer<>(options.toArray(new String[0]));
      int status = nvrtc.nvrtcCompileProgram(program, options.size(), opts);
      check(status, "nvrtcCompileProgram for " + target, program);
      SizeTPointer size = new SizeTPointer(1);
      byte[] bytes;
      if (native_) {
        check(nvrtc.nvrtcGetCUBINSize(program, size), "nvrtcGetCUBINSize", program);
        bytes = new byte[(int) size.get()];
        check(nvrtc.nvrtcGetCUBIN(program, bytes), "nvrtcGetCUBIN", program);
      } else {
        check(nvrtc.nvrtcGetPTXSize(program, size), "nvrtcGetPTXSize", program);
        bytes = new byte[(int) size.get()];
        check(nvrtc.nvrtcGetPTX(program, bytes), "nvrtcGetPTX", program);
      }
      return new Image(bytes, target);
    } finally {
      nvrtc.nvrtcDestroyProgram(program);
    }
  }

  /** The newest architecture in {@code supported} not newer than the device's; for PTX. */
  static int target(int[] supported, int computeCapability) {
    int best = -1;
    for (int a : supported) {
      if (a <= computeCapability && a > best) {
        best = a;
      }
    }
    if (best < 0) {
      throw new MsException(
          MsException.Kind.RUNTIME_ERROR,
          "NVRTC supports no architecture this device (compute capability "
              + computeCapability / 10
              + "."
              + computeCapability % 10
              + ") can run: "
              + Arrays.toString(supported));
    }
    return best;
  }

  static int[] supportedArchs() {
    int[] n = new int[1];
    check(nvrtc.nvrtcGetNumSupportedArchs(n), "nvrtcGetNumSupportedArchs", null);
    int[] archs = new int[n[0]];
    check(nvrtc.nvrtcGetSupportedArchs(archs), "nvrtcGetSupportedArchs", null);
    return archs;
  }

  /** NVRTC's version, e.g. {@code "13.0"}. */
  static String version() {
    int[] major = new int[1];
    int[] minor = new int[1];
    check(nvrtc.nvrtcVersion(major, minor), "nvrtcVersion", null);
    return major[0] + "." + minor[0];
  }

  private static void check(int status, String what, _nvrtcProgram program) {
    if (status == NVRTC_SUCCESS) {
      return;
    }
    String log = "";
    if (program != null) {
      SizeTPointer size = new SizeTPointer(1);
      if (nvrtc.nvrtcGetProgramLogSize(program, size) == NVRTC_SUCCESS && size.get() > 1) {
        byte[] text = new byte[(int) size.get()];
        nvrtc.nvrtcGetProgramLog(program, text);
        log = "\n" + new String(text, 0, text.length - 1, java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    throw new MsException(
        MsException.Kind.RUNTIME_ERROR,
        "NVRTC error in " + what + ": " + nvrtc.nvrtcGetErrorString(status).getString() + log);
  }
}
