package dev.msjvm.engine.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import org.junit.jupiter.api.Test;

class MemoryScopeTest {

  @Test
  void closesWhatItAllocatedExceptWhatWasKept() {
    HostBackend backend = HostBackend.reference();
    DeviceBuffer kept;
    DeviceBuffer dropped;
    try (MemoryScope scope = new MemoryScope(backend)) {
      dropped = scope.allocate(1000);
      kept = scope.keep(scope.upload(new float[] {1, 2, 3}));
      assertEquals(1, scope.size());
      assertEquals(4096 + 512, backend.memoryStats().inUse());
    }
    assertFalse(dropped.isOpen());
    assertTrue(kept.isOpen());
    float[] out = new float[3];
    backend.copyOut(kept, 0, out, 0, 3);
    assertArrayEquals(new float[] {1, 2, 3}, out);
    kept.close();
    kept.close();
    assertEquals(0, backend.memoryStats().inUse());
    assertEquals(4096 + 512, backend.memoryStats().peakInUse());
  }

  @Test
  void aClosedScopeRefusesAndForeignBuffersCannotBeKept() {
    HostBackend backend = HostBackend.reference();
    MemoryScope scope = new MemoryScope(backend);
    try (DeviceBuffer other = backend.allocate(4)) {
      assertThrows(IllegalArgumentException.class, () -> scope.keep(other));
    }
    scope.close();
    assertThrows(IllegalStateException.class, () -> scope.allocate(1));
  }

  @Test
  void theHostBackendsCapFailsWithMindSporesCpuMessage() {
    HostBackend backend = new HostBackend(new NaiveBlas(), 4096);
    try (DeviceBuffer a = backend.allocate(1024)) {
      MsException e = assertThrows(MsException.class, () -> backend.allocate(1));
      assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
      assertTrue(
          e.getMessage().startsWith("Memory not enough: Memory isn't enough and alloc failed"),
          e.getMessage());
      assertThrows(
          IllegalStateException.class,
          () -> {
            a.close();
            backend.copyOut(a, 0, new float[1], 0, 1);
          });
    }
  }

  @Test
  void maxDeviceMemoryTakesGigabytesOnly() {
    assertEquals(2L << 30, DeviceMemory.parseGigabytes("2GB"));
    assertEquals(1L << 29, DeviceMemory.parseGigabytes("0.5GB"));
    for (String bad : new String[] {"0GB", "2G", "2048MB", "", "GB"}) {
      MsException e = assertThrows(MsException.class, () -> DeviceMemory.parseGigabytes(bad), bad);
      assertEquals(MsException.Kind.VALUE_ERROR, e.kind());
    }
  }
}
