package dev.msjvm.engine.backend;

import java.util.ArrayList;
import java.util.List;

/**
 * The lifetime of the buffers of one step or one graph replay: every buffer allocated through the
 * scope is closed when the scope closes, in reverse order of allocation, unless it was {@link #keep
 * kept} (a parameter or an output that outlives the step). Not thread-safe: one scope belongs to
 * one rank's step. Example: {@code try (MemoryScope step = new MemoryScope(backend)) { DeviceBuffer
 * h = step.allocate(32 * 512); ... }}.
 */
public final class MemoryScope implements AutoCloseable {

  private final DeviceBackend backend;
  private final List<DeviceBuffer> owned = new ArrayList<>();
  private boolean closed;

  public MemoryScope(DeviceBackend backend) {
    this.backend = backend;
  }

  /** A new buffer of {@code floats} elements, closed with this scope. */
  public DeviceBuffer allocate(long floats) {
    if (closed) {
      throw new IllegalStateException("memory scope already closed");
    }
    DeviceBuffer buffer = backend.allocate(floats);
    owned.add(buffer);
    return buffer;
  }

  /** A new buffer holding {@code values}, closed with this scope. */
  public DeviceBuffer upload(float[] values) {
    DeviceBuffer buffer = allocate(values.length);
    backend.copyIn(values, 0, buffer, 0, values.length);
    return buffer;
  }

  /** Takes {@code buffer} out of this scope: the caller closes it. */
  public DeviceBuffer keep(DeviceBuffer buffer) {
    if (!owned.remove(buffer)) {
      throw new IllegalArgumentException("buffer was not allocated by this scope");
    }
    return buffer;
  }

  /** Buffers this scope will close. */
  public int size() {
    return owned.size();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (int i = owned.size() - 1; i >= 0; i--) {
      owned.get(i).close();
    }
    owned.clear();
  }
}
