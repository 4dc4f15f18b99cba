package dev.msjvm.engine.backend;

/**
 * A block of float32 memory owned by one {@link DeviceBackend}, alive from {@link
 * DeviceBackend#allocate} until {@link #close()} (explicitly, or by the {@link MemoryScope} that
 * allocated it). Host code never reads it directly: it moves data with {@link DeviceBackend#copyIn}
 * and {@link DeviceBackend#copyOut}, at graph boundaries.
 */
public interface DeviceBuffer extends AutoCloseable {

  /** Length in float32 elements. */
  long length();

  /** Whether the memory is still held (false after {@link #close()}). */
  boolean isOpen();

  /** Returns the memory to the backend's allocator; closing twice does nothing. */
  @Override
  void close();
}
