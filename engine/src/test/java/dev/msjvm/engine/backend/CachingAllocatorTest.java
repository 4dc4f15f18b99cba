package dev.msjvm.engine.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msjvm.engine.MsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CachingAllocatorTest {

  /** A device with {@code capacity} bytes that records every call. */
  private static final class FakeDevice implements CachingAllocator.Raw {
    final long capacity;
    final Map<Long, Long> blocks = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    long next = 0x1000;
    long used;

    FakeDevice(long capacity) {
      this.capacity = capacity;
    }

    @Override
    public long malloc(long bytes) {
      calls.add("malloc " + bytes);
      if (used + bytes > capacity) {
        return 0;
      }
      long address = next;
      next += bytes;
      blocks.put(address, bytes);
      used += bytes;
      return address;
    }

    @Override
    public void free(long address) {
      calls.add("free " + blocks.get(address));
      used -= blocks.remove(address);
    }
  }

  @Test
  void roundsUpToBlocksAndReusesReleasedOnesWithoutTheDevice() {
    FakeDevice dev = new FakeDevice(1 << 20);
    CachingAllocator alloc = new CachingAllocator(dev, Long.MAX_VALUE, "GPU:0");
    assertEquals(512, CachingAllocator.blockSize(0));
    assertEquals(512, CachingAllocator.blockSize(512));
    assertEquals(1024, CachingAllocator.blockSize(513));
    long a = alloc.allocate(1000);
    assertEquals(List.of("malloc 1024"), dev.calls);
    alloc.release(a);
    long b = alloc.allocate(900);
    assertEquals(a, b, "the cached 1024-byte block serves a 1024-byte request");
    assertEquals(1, dev.calls.size());
    assertEquals(new MemoryStats(1024, 1024, 1024, Long.MAX_VALUE), alloc.stats());
  }

  @Test
  void aCachedBlockServesOnlyRequestsOfAtLeastHalfItsSize() {
    FakeDevice dev = new FakeDevice(1 << 20);
    CachingAllocator alloc = new CachingAllocator(dev, Long.MAX_VALUE, "GPU:0");
    long big = alloc.allocate(8192);
    alloc.release(big);
    long small = alloc.allocate(1024);
    assertNotEquals(big, small);
    long half = alloc.allocate(4096);
    assertEquals(big, half);
    assertEquals(8192 + 1024, alloc.stats().inUse());
    assertEquals(8192 + 1024, alloc.stats().peakInUse());
  }

  @Test
  void theCapEmptiesTheCacheBeforeFailingWithMindSporesMessage() {
    FakeDevice dev = new FakeDevice(1 << 30);
    CachingAllocator alloc = new CachingAllocator(dev, 10_240, "GPU:3");
    long a = alloc.allocate(4096);
    long b = alloc.allocate(4096);
    alloc.release(a);
    long c = alloc.allocate(6144);
    assertEquals(List.of("malloc 4096", "malloc 4096", "free 4096", "malloc 6144"), dev.calls);
    assertEquals(4096 + 6144, alloc.stats().reserved());
    MsException e = assertThrows(MsException.class, () -> alloc.allocate(512));
    assertEquals(MsException.Kind.RUNTIME_ERROR, e.kind());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Memory not enough: Device(id:3) memory isn't enough and alloc failed, kernel name:"
                    + " allocate, alloc size: 512B."),
        e.getMessage());
    assertTrue(e.getMessage().contains("max_device_memory 10240B"), e.getMessage());
    alloc.release(b);
    alloc.release(c);
    assertEquals(0, alloc.stats().inUse());
  }

  @Test
  void aFullDeviceEmptiesTheCacheAndRetriesOnce() {
    FakeDevice dev = new FakeDevice(8192);
    CachingAllocator alloc = new CachingAllocator(dev, Long.MAX_VALUE, "GPU:0");
    long a = alloc.allocate(4096);
    alloc.allocate(2048);
    alloc.release(a);
    alloc.allocate(6144 - 2048 + 512);
    assertEquals(
        List.of("malloc 4096", "malloc 2048", "malloc 4608", "free 4096", "malloc 4608"),
        dev.calls);
    MsException e = assertThrows(MsException.class, () -> alloc.allocate(4096));
    assertTrue(e.getMessage().contains("Device(id:0) memory isn't enough"), e.getMessage());
  }

  @Test
  void releasingAnUnknownAddressAndAllocatingAfterCloseAreErrors() {
    FakeDevice dev = new FakeDevice(1 << 20);
    CachingAllocator alloc = new CachingAllocator(dev, Long.MAX_VALUE, "GPU:0");
    long a = alloc.allocate(100);
    assertThrows(IllegalArgumentException.class, () -> alloc.release(a + 8));
    long b = alloc.allocate(100);
    alloc.release(b);
    alloc.close();
    assertEquals(List.of("malloc 512", "malloc 512", "free 512"), dev.calls);
    alloc.release(a);
    assertEquals(0, dev.used, "a block released after close goes straight back to the device");
    assertThrows(IllegalStateException.class, () -> alloc.allocate(1));
  }

  @Test
  void withoutCachingEveryReleaseGoesBackToTheDevice() {
    FakeDevice dev = new FakeDevice(1 << 20);
    CachingAllocator alloc = new CachingAllocator(dev, Long.MAX_VALUE, "GPU:0", false);
    alloc.release(alloc.allocate(1000));
    alloc.release(alloc.allocate(1000));
    assertEquals(List.of("malloc 1024", "free 1024", "malloc 1024", "free 1024"), dev.calls);
    assertEquals(new MemoryStats(0, 0, 1024, Long.MAX_VALUE), alloc.stats());
  }
}
