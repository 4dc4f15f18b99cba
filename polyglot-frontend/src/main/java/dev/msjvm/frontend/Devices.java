package dev.msjvm.frontend;

import dev.msjvm.nativebackend.HardwareProbe;
import dev.msjvm.shim.DeviceProbe;

/** The device probe of this host, answered by the native module. */
final class Devices {
  private Devices() {}

  static DeviceProbe probe() {
    HardwareProbe hw = HardwareProbe.detect();
    return hw::available;
  }
}
