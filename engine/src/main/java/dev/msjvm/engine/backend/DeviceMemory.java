package dev.msjvm.engine.backend;

import dev.msjvm.engine.MsException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Device memory settings and errors as MindSpore words them. */
public final class DeviceMemory {

  private static final Pattern GB = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*GB\\s*");

  private DeviceMemory() {}

  /**
   * Bytes in a {@code max_device_memory} / {@code runtime.set_memory(max_size=...)} value such as
   * {@code "2GB"} or {@code "0.5GB"} (MindSpore accepts only gigabytes, and not zero).
   *
   * @throws MsException (VALUE_ERROR) for any other text
   */
  public static long parseGigabytes(String value) {
    Matcher m = value == null ? null : GB.matcher(value);
    if (m == null || !m.matches() || Double.parseDouble(m.group(1)) <= 0) {
      throw MsException.valueError(
          "The argument 'max_device_memory' should be in the format of 'xxGB' and greater than"
              + " 0GB, but got '"
              + value
              + "'.");
    }
    return (long) (Double.parseDouble(m.group(1)) * (1L << 30));
  }

  /**
   * MindSpore's error when a device allocation fails ({@code RuntimeError}, "Memory not enough"),
   * followed by the allocator's accounting.
   *
   * @param device {@code "GPU:0"}, {@code "CPU"}: the id after the colon names the device
   */
  public static MsException outOfMemory(
      String device, long request, long inUse, long reserved, long peak, long limit) {
    int colon = device.indexOf(':');
    String who =
        colon < 0
            ? "Memory isn't enough"
            : "Device(id:" + device.substring(colon + 1) + ") memory isn't enough";
    return new MsException(
        MsException.Kind.RUNTIME_ERROR,
        "Memory not enough: "
            + who
            + " and alloc failed, kernel name: allocate, alloc size: "
            + request
            + "B. ("
            + device
            + ": in use "
            + inUse
            + "B, reserved "
            + reserved
            + "B, peak "
            + peak
            + "B, max_device_memory "
            + (limit == Long.MAX_VALUE ? "unset" : limit + "B")
            + ")");
  }
}
