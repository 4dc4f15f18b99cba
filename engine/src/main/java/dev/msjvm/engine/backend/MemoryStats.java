package dev.msjvm.engine.backend;

/**
 * A backend's memory accounting, in bytes: {@code inUse} held by open buffers, {@code reserved}
 * taken from the device (in use plus cached for reuse), {@code peakInUse} the most ever in use,
 * {@code limit} the cap ({@code max_device_memory}), or {@link Long#MAX_VALUE} when none.
 */
public record MemoryStats(long inUse, long reserved, long peakInUse, long limit) {}
