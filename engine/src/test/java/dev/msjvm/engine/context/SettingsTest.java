package dev.msjvm.engine.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SettingsTest {
  @Test
  void runContextDefaultsAreMindSporesCpuDefaults() {
    Settings s = Settings.runContext();
    assertEquals(1L, s.get("mode"));
    assertEquals("CPU", s.get("device_target"));
    assertEquals(1024.0, s.get("max_device_memory"));
  }

  @Test
  void valuesConvertLikeTheCppSetters() {
    Settings s = Settings.runContext();
    s.set("mode", true);
    assertEquals(1L, s.get("mode"));
    s.set("max_device_memory", 3L);
    assertEquals(3.0, s.get("max_device_memory"));
  }

  @Test
  void floatDefaultsReadBackAsCppFloats() {
    assertEquals(0.10000000149011612, Settings.algoParameters().get("algo_approxi_epsilon"));
    assertEquals(0.0010000000474974513, Settings.costModel().get("costmodel_gamma"));
  }

  @Test
  void resetRestoresDefaultsAndUnknownNamesFail() {
    Settings s = Settings.algoParameters();
    s.set("tensor_slice_align_size", 64);
    s.reset();
    assertEquals(16L, s.get("tensor_slice_align_size"));
    assertThrows(IllegalArgumentException.class, () -> s.set("nope", 1));
  }
}
